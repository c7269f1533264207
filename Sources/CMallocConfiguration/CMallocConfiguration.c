#include "CMallocConfiguration.h"
#include <malloc.h>

int ledgerly_malloc_arena_max(int arenas) {
    return mallopt(M_ARENA_MAX, arenas);
}

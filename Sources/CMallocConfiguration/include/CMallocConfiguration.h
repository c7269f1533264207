#ifndef CMALLOCCONFIGURATION_H
#define CMALLOCCONFIGURATION_H

/// glibc's `mallopt` and its `M_…` settings are in <malloc.h>, which Swift's Glibc module does
/// not import: each setting the store makes is a plain C function here.

/// `mallopt(M_ARENA_MAX, arenas)`: 1 when set, 0 when glibc refused it.
int ledgerly_malloc_arena_max(int arenas);

#endif

#include "CSQLiteConfiguration.h"
#include <sqlite3.h>

int ledgerly_sqlite3_config_memstatus(int enabled) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enabled);
}

#ifndef CSQLITECONFIGURATION_H
#define CSQLITECONFIGURATION_H

/// `sqlite3_config` is variadic, which Swift does not import: each setting the store makes is a
/// plain C function here. Each returns SQLite's result code (SQLITE_MISUSE once SQLite has
/// started, since these settings must come before the process opens its first connection).

/// `sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enabled)`.
int ledgerly_sqlite3_config_memstatus(int enabled);

#endif

#ifndef IAPRECON_CSQLITE_SHIM_H
#define IAPRECON_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type iaprecon_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// Turns off SQLite's memory statistics (SQLITE_CONFIG_MEMSTATUS, https://www.sqlite.org/c3ref/c_config_covering_index_scan.html):
/// with them on, every allocation and free SQLite makes takes one process-wide mutex to count it. Nothing here reads
/// them (no sqlite3_memory_used, no soft heap limit). sqlite3_config is variadic, which Swift cannot call; it only
/// takes effect before SQLite initializes, so it is called before the first connection opens. Returns SQLite's code.
static inline int iaprecon_sqlite_memstatus_off(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif

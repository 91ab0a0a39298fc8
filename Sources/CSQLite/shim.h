// The system's SQLite (Debian: libsqlite3-dev; macOS: the SDK's), for the embedded store.
#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call: a wrapper for the one setting used.
// SQLITE_CONFIG_MEMSTATUS off: no process-wide mutex and counters around each of SQLite's
// allocations (Debian builds it on; nothing here reads sqlite3_memory_used). Only before
// sqlite3_initialize; later it returns SQLITE_MISUSE and changes nothing.
static inline int countersign_sqlite3_config_memstatus(int on) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on); }

// SQLITE_DBCONFIG_ENABLE_QPSG on: the query planner's stability guarantee. A statement's plan does
// not depend on the values bound to it, so a compiled statement is never marked for compiling again
// because a bound value changed (sqlite3_db_config is variadic too).
static inline int countersign_sqlite3_enable_qpsg(sqlite3 *db) { return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_QPSG, 1, (int *)0); }

#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

// Swift cannot call C variadic functions: fixed-arity wrappers for the ones we use.
static inline int csqlite_db_config_defensive(sqlite3 *db, int enable) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, enable, (int *)0);
}

// Closing without the last connection's checkpoint, which also deletes the -wal and -shm by name.
static inline int csqlite_db_config_no_checkpoint_on_close(sqlite3 *db, int enable) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, enable, (int *)0);
}

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
#endif

import SQLiteDatabase

#if PostgreSQL
import PostgreSQLDatabase
#endif

extension LibrarySession {
    /// Calls `hook` before each commit of a change through this session, inside its transaction:
    /// the change is decided and the history's lock is held, nothing of it is committed yet (on a
    /// server, its album writes travel with the commit itself).
    ///
    /// For tests and instrumentation, on a library file and on a server alike: a test can hold a
    /// process there (the hook waits for its signal), so that the order of two processes' changes
    /// is the test's, or kill it there, to see that nothing of the change is left. The hook must
    /// not use the library.
    ///
    /// - Parameter hook: The hook, replacing any earlier one; `nil` removes it.
    /// - Throws: ``LibraryError`` when the library file's connection cannot be reached.
    public func setCommitHook(_ hook: (() -> Void)?) throws {
        #if PostgreSQL
        if let server = library.server {
            server.connection.setCommitHook(hook)
            return
        }
        #endif
        try library.database.setCommitHook(
            hook.map { hook in
                {
                    hook()
                    return true
                }
            })
    }
}

internal import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Owns one `sqlite3*` handle and closes it exactly once.
///
/// ``Database`` and every ``Statement`` it prepares hold the connection strongly, so the handle
/// outlives every statement; `sqlite3_close_v2` tolerates statements finalized after an explicit close.
final class Connection {
    /// The open handle, `nil` once closed.
    private(set) var handle: OpaquePointer?
    /// The file, `nil` for an in-memory database (errors name it).
    let path: String?
    /// The commit hook SQLite calls, if any; kept alive here. It runs ``userCommitHook``, then
    /// ``fileCheck``.
    var commitHook: CommitHookBox?
    /// The hook given to ``Database/setCommitHook(_:)``.
    var userCommitHook: (() -> Bool)?
    /// Whether the path still names the file opened (``Database/fileStatus()``), asked at each commit.
    var fileCheck: (() -> Bool)?
    /// Set when ``fileCheck`` refused the last commit, so its error says why.
    var fileCheckRefusedCommit = false
    /// The files this connection holds SQLite's locks on, registered in ``ProcessLockedFiles``.
    private var lockedFiles: [FileIdentity] = []

    init(handle: OpaquePointer, path: String?) {
        self.handle = handle
        self.path = path
    }

    deinit {
        close()
        // Every statement held this connection, so the last is finalized: SQLite has closed it.
        releaseLockedFiles()
    }

    func close() {
        guard let handle else { return }
        let closesNow = sqlite3_next_stmt(handle, nil) == nil
        // close_v2 defers the real close until outstanding statements are finalized.
        sqlite3_close_v2(handle)
        self.handle = nil
        if closesNow { releaseLockedFiles() }
    }

    /// Notes the files SQLite locks for this connection until it is really closed
    /// (``ProcessLockedFiles``).
    func holdLockedFiles(_ identities: [FileIdentity]) {
        releaseLockedFiles()
        lockedFiles = identities
        ProcessLockedFiles.hold(identities)
    }

    private func releaseLockedFiles() {
        guard !lockedFiles.isEmpty else { return }
        ProcessLockedFiles.release(lockedFiles)
        lockedFiles = []
    }

    /// Closes without the checkpoint SQLite runs when the last connection closes, and so without
    /// deleting the `-wal` and `-shm` files it finds by name: they may be another file's now.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/c_dbconfig_defensive.html#sqlitedbconfignockptonclose>
    func closeWithoutCheckpoint() {
        guard let handle else { return }
        _ = csqlite_db_config_no_checkpoint_on_close(handle, 1)
        close()
    }

    /// The handle, or a misuse error naming the statement when the connection is closed.
    func openHandle(sql: String?) throws -> OpaquePointer {
        guard let handle else {
            throw DatabaseError(resultCode: .misuse, message: "the database connection is closed", sql: sql, path: path)
        }
        return handle
    }

    /// The main database's data version: it changes with every commit to the file, this
    /// connection's own included (unlike `PRAGMA data_version`), and costs no statement.
    ///
    /// Another connection's commit is counted when this one next starts a transaction.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/c_fcntl_begin_atomic_write.html#sqlitefcntldataversion>
    func dataVersion() throws -> UInt32 {
        let handle = try openHandle(sql: nil)
        var version: UInt32 = 0
        try check(sqlite3_file_control(handle, "main", SQLITE_FCNTL_DATA_VERSION, &version), sql: nil)
        return version
    }

    /// The error SQLite reports for `code`, with its current message.
    func error(_ code: Int32, sql: String?) -> DatabaseError {
        if code == DatabaseError.ResultCode.constraintCommitHook.rawValue, fileCheckRefusedCommit, let path {
            fileCheckRefusedCommit = false
            return DatabaseError(
                resultCode: .readOnlyDatabaseMoved,
                message: "\(path) is no longer the file this connection opened (another program "
                    + "\(FileIdentity(path: path) == nil ? "removed or renamed it" : "moved another file there")); "
                    + "nothing was written",
                sql: sql, path: path)
        }
        var message =
            handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        let resultCode = DatabaseError.ResultCode(rawValue: code)
        // SQLite's "database is locked" names neither the file nor the cause; a user needs both.
        if resultCode == .busySnapshot, let path {
            // Not a lock: a read transaction that began before another connection's commit tried to
            // write. Waiting cannot help; the transaction must start again (or begin IMMEDIATE).
            message =
                "\(path) was changed by another connection after this transaction began reading it; "
                + "roll the transaction back and retry it (begin write transactions as IMMEDIATE): \(message)"
        } else if resultCode.primaryResultCode == .busy, let path {
            message =
                "\(path) is locked by another connection (another process is writing to it); "
                + "gave up after the busy timeout: \(message)"
        }
        // "attempt to write a readonly database" names no file and no remedy.
        if resultCode.primaryResultCode == .readOnly, let path {
            message = "\(path) is read-only: \(message); make the file and its folder writable"
        }
        // A statement that meets a damaged page: say which file, in the words the open check uses.
        if resultCode.primaryResultCode == .corrupt, let path {
            message = "\(path) is damaged: \(message)"
        }
        // A descriptor limit shows as "unable to open database file": give the system's reason.
        if resultCode.primaryResultCode == .cantOpen, let path, let handle {
            let systemError = sqlite3_system_errno(handle)
            if systemError == EMFILE || systemError == ENFILE {
                message = "cannot open \(path): \(FileSystem.reason(errno: systemError))"
            }
        }
        // "disk I/O error" hides the cause (a full disk, a file-size limit, a read-only file): add
        // the system's reason, which SQLite keeps, and the file.
        if resultCode.primaryResultCode == .ioError || resultCode.primaryResultCode == .full, let path, let handle {
            let systemError = sqlite3_system_errno(handle)
            let reason = systemError != 0 ? ": \(String(cString: strerror(systemError)))" : ""
            message = "\(path): \(message)\(reason)"
        }
        return DatabaseError(resultCode: resultCode, message: message, sql: sql, path: path)
    }

    /// Throws the current error unless `code` is `SQLITE_OK`.
    func check(_ code: Int32, sql: String?) throws {
        guard code == SQLITE_OK else { throw error(code, sql: sql) }
    }
}

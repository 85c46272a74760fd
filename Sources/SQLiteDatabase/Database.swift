internal import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connection to an SQLite database, owned by one isolation domain.
///
/// `Database` is a non-`Sendable` class: create it where it is used (an actor, the main actor, a
/// single task) and keep it there. Every value reaches SQLite through bound parameters, never through
/// SQL text. A file database runs in WAL mode, with a busy timeout, foreign keys on and the
/// `synchronous` level of its ``Configuration``.
///
/// ```swift
/// var configuration = Database.Configuration()
/// configuration.createIfMissing = true
/// let db = try Database(path: path, configuration: configuration)
/// try db.execute("CREATE TABLE IF NOT EXISTS album (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
/// try db.inTransaction {
///     try db.execute("INSERT INTO album (title) VALUES (?)", ["Blue Train"])
///     return .commit
/// }
/// for row in try db.fetchAll("SELECT id, title FROM album") {
///     print(try row.decode(Int.self, at: 0), try row.decode(String.self, column: "title"))
/// }
/// ```
///
/// To open a file as a CommandStore database (identity check, schema versions, migrations), use
/// `Database.openStore(path:schemas:configuration:)` (CommandStore) instead of this initializer.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/sqlite3.html>
public final class Database {
    /// The path given at open (`:memory:` for an in-memory database).
    public let path: String
    /// The configuration the connection was opened with.
    public let configuration: Configuration

    let connection: Connection
    private var statementCache: [String: Statement] = [:]
    /// `BEGIN IMMEDIATE` and `COMMIT`, run by every transaction: kept apart so each commit skips
    /// hashing their SQL to find them in `statementCache`. (Used from one isolation domain, never
    /// re-entrantly: the runtime's exclusivity checks are skipped on the per-commit properties.)
    @exclusivity(unchecked) private var beginImmediateStatement: Statement?
    @exclusivity(unchecked) private var commitStatement: Statement?
    /// Nesting depth of ``inTransaction(_:_:)`` and ``inSavepoint(_:)``: names savepoints uniquely.
    @exclusivity(unchecked) var transactionDepth = 0
    /// The file opened and its companions (`nil` in memory): see ``fileStatus()``.
    var openedFile: OpenedFile?
    /// The commits SQLite dropped when this connection opened the file, because its `-wal` log is
    /// damaged before them (``WriteAheadLogScan``, counted by whoever looked before the open:
    /// CommandStore's `openStore`). 0 when none were, or nobody looked.
    package var lostLogCommits = 0

    /// Opens a connection to the database file at `path`.
    ///
    /// When ``Configuration/createIfMissing`` is set and the file is absent, its missing folders are
    /// created with mode 0700 and the file with mode 0600. Then the connection is switched to WAL (unless
    /// read-only or in memory), gets its busy timeout, foreign keys and `synchronous` level. If any of
    /// these steps fails the handle is closed before the error is thrown.
    ///
    /// A file connection records which file it opened (its ``FileIdentity``) and marks its `-wal` log
    /// as that file's; a log marked as another file's (the file at `path` was moved over, or removed,
    /// while a connection had the old one open) is refused before SQLite reads it. Commits are
    /// refused once `path` names another file or none (see ``fileStatus()``).
    ///
    /// - Important: This opens any SQLite file and switches it to WAL, which rewrites its header.
    ///   To open a file that must be a CommandStore database, and leave every other file untouched,
    ///   use `Database.openStore(path:schemas:configuration:)` (CommandStore).
    /// - Parameters:
    ///   - path: A file path, or `:memory:` for a private in-memory database.
    ///   - configuration: How to open it.
    /// - Throws: ``DatabaseError``: `cantOpen` when the file is missing or unreadable, or its log is
    ///   another file's, `notADatabase` when it is not SQLite, or any error from the set-up pragmas.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/open.html>,
    /// <https://www.sqlite.org/wal.html>
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.path = path
        self.configuration = configuration
        let isInMemory = path == ":memory:"
        // Before SQLite reads a log that is another file's (this one was replaced or removed while
        // open elsewhere), and before a missing file is created next to such a log.
        if !isInMemory { try WriteAheadLogOwner.requireLog(of: path) }
        if configuration.createIfMissing && !isInMemory && !configuration.isReadOnly {
            try FileSystem.createFileIfMissing(at: path)
        }
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= configuration.isReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if isInMemory { flags |= SQLITE_OPEN_CREATE }
        connection = try Self.openConnection(path: path, flags: flags, reportedPath: isInMemory ? nil : path)
        do {
            try setUp()
        } catch {
            connection.close()
            throw error
        }
        guard !isInMemory else { return }
        do {
            try recordOpenedFile()
        } catch {
            // Its log may be another file's: SQLite's checkpoint at close would copy it in.
            connection.closeWithoutCheckpoint()
            throw error
        }
    }

    /// Wraps an already open connection as is, without the set-up pragmas (the store's read-only look).
    init(inspecting connection: Connection, path: String) {
        var configuration = Configuration()
        configuration.isReadOnly = true
        self.path = path
        self.configuration = configuration
        self.connection = connection
    }

    /// Opens a private, empty in-memory database (useful in tests).
    ///
    /// - Parameter configuration: How to open it; ``Configuration/createIfMissing`` is ignored.
    /// - Returns: A new connection to a new database that disappears when the connection closes.
    /// - Throws: ``DatabaseError`` if SQLite cannot allocate it.
    public static func inMemory(configuration: Configuration = Configuration()) throws -> Database {
        try Database(path: ":memory:", configuration: configuration)
    }

    deinit {
        close()
    }

    /// Opens a handle, closing it again when the open fails (SQLite allocates one even then).
    static func openConnection(path: String, flags: Int32, reportedPath: String?) throws -> Connection {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            var message =
                handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
                ?? String(cString: sqlite3_errstr(code))
            // Out of descriptors, SQLite only says "unable to open database file".
            if let handle, case let systemError = sqlite3_system_errno(handle),
                systemError == EMFILE || systemError == ENFILE
            {
                message = FileSystem.reason(errno: systemError)
            }
            sqlite3_close_v2(handle)
            throw DatabaseError(
                resultCode: .init(rawValue: code),
                message: "cannot open \(reportedPath ?? path): \(message)",
                path: reportedPath
            )
        }
        sqlite3_extended_result_codes(handle, 1)
        return Connection(handle: handle, path: reportedPath)
    }

    private func setUp() throws {
        let handle = try connection.openHandle(sql: nil)
        try connection.check(
            sqlite3_busy_timeout(handle, Int32(clamping: configuration.busyTimeout.milliseconds)), sql: nil)
        try execute("PRAGMA foreign_keys = \(configuration.foreignKeysEnabled ? "ON" : "OFF")")
        if !configuration.isReadOnly && path != ":memory:" {
            let mode = try fetchOne("PRAGMA journal_mode = WAL").flatMap { $0[0] }
            guard mode == .text("wal") else {
                throw DatabaseError(
                    resultCode: .error,
                    message: "cannot switch \(path) to WAL journal mode (it stays \(mode?.description ?? "unknown"))",
                    path: path
                )
            }
        }
        try execute("PRAGMA synchronous = \(configuration.synchronous.rawValue)")
    }

    /// Closes the connection now rather than at deinit.
    ///
    /// Cached statements are finalized; statements you still hold fail with `misuse` from now on and
    /// are finalized when released. Closing twice does nothing. In WAL mode, closing the last
    /// connection checkpoints the log into the main file and removes the `-wal` file.
    ///
    /// A connection whose file is no longer at its path (``fileStatus()`` is ``FileStatus/replaced``
    /// or ``FileStatus/removed``) closes without touching what is there now: its log is checkpointed
    /// into the file it opened (by descriptor), SQLite's own checkpoint at close, which would then
    /// delete `<path>-wal` and `<path>-shm` by name, is skipped, and those files are removed only if
    /// they are still the ones this connection used.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/close.html>,
    /// <https://www.sqlite.org/howtocorrupt.html#_unlinking_or_renaming_a_database_file_while_in_use>
    public func close() {
        let detached = isDetachedFromPath
        // Into the file opened, by descriptor; passive, so it never waits for a reader of it.
        if detached { try? execute("PRAGMA wal_checkpoint(PASSIVE)") }
        statementCache.removeAll()
        beginImmediateStatement = nil
        commitStatement = nil
        guard detached else {
            connection.close()
            return
        }
        connection.closeWithoutCheckpoint()
        removeOwnCompanionsFromPath()
    }

    /// Whether ``close()`` has been called.
    public var isClosed: Bool { connection.handle == nil }

    /// Compiles one SQL statement.
    ///
    /// - Parameter sql: Exactly one SQL statement, with `?`, `?NNN`, `:name` or `@name` placeholders
    ///   for its values.
    /// - Returns: A statement you own; it is finalized when released or by ``Statement/finalize()``.
    /// - Throws: ``DatabaseError`` on a syntax error, or `misuse` when `sql` holds more than one statement.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/prepare.html>
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(connection: connection, sql: sql, persistent: false)
    }

    /// The cached `BEGIN IMMEDIATE TRANSACTION`.
    func beginImmediate() throws -> Statement {
        if let statement = beginImmediateStatement { return statement }
        let statement = try Statement(connection: connection, sql: TransactionKind.immediate.beginSQL, persistent: true)
        beginImmediateStatement = statement
        return statement
    }

    /// The cached `COMMIT TRANSACTION`.
    func commit() throws -> Statement {
        if let statement = commitStatement { return statement }
        let statement = try Statement(connection: connection, sql: "COMMIT TRANSACTION", persistent: true)
        commitStatement = statement
        return statement
    }

    /// Returns a compiled statement for `sql`, kept by the connection and reused on later calls.
    ///
    /// Use it for statements that run again and again (a command's `INSERT`); the connection
    /// finalizes them when it closes.
    ///
    /// - Parameter sql: Exactly one SQL statement.
    /// - Returns: The cached statement, reset and with its bindings cleared.
    /// - Throws: ``DatabaseError`` as ``prepare(_:)``.
    /// - Complexity: O(1) after the first call for a given `sql`.
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            try statement.reset()
            return statement
        }
        let statement = try Statement(connection: connection, sql: sql, persistent: true)
        statementCache[sql] = statement
        return statement
    }

    /// Runs SQL that returns no rows.
    ///
    /// Without arguments, `sql` may hold several statements separated by semicolons (a migration).
    /// With arguments it must be exactly one statement, and the compiled statement is cached.
    ///
    /// - Parameters:
    ///   - sql: The SQL.
    ///   - arguments: Values for the placeholders, in order.
    /// - Throws: ``DatabaseError`` from SQLite, or `range` when the argument count does not match.
    public func execute(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws {
        if !arguments.isEmpty {
            try cachedStatement(sql).execute(arguments)
            return
        }
        let handle = try connection.openHandle(sql: sql)
        // Walk the statements one by one so an error names the statement that failed.
        let failure: DatabaseError? = sql.withCString { start in
            var next: UnsafePointer<CChar>? = start
            while let current = next, current.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(handle, current, -1, &statement, &tail)
                guard code == SQLITE_OK else {
                    return connection.error(code, sql: String(cString: current).trimmingWhitespace())
                }
                defer { sqlite3_finalize(statement) }
                next = tail
                guard let statement else { continue }  // whitespace or a comment
                var step = sqlite3_step(statement)
                while step == SQLITE_ROW { step = sqlite3_step(statement) }
                guard step == SQLITE_DONE else {
                    return connection.error(step, sql: Self.text(from: current, to: tail))
                }
            }
            return nil
        }
        if let failure { throw failure }
    }

    private static func text(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>?) -> String {
        guard let end else { return String(cString: start) }
        let bytes = UnsafeRawBufferPointer(start: start, count: end - start)
        return String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
    }

    /// Runs one query and returns all its rows.
    ///
    /// - Parameters:
    ///   - sql: One SQL statement.
    ///   - arguments: Values for its placeholders.
    /// - Returns: Every row, in SQLite's order.
    /// - Throws: ``DatabaseError``.
    /// - Complexity: O(rows × columns).
    public func fetchAll(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws -> [Row] {
        try cachedStatement(sql).fetchAll(arguments)
    }

    /// Runs one query and returns its first row, if any.
    ///
    /// - Parameters:
    ///   - sql: One SQL statement.
    ///   - arguments: Values for its placeholders.
    /// - Returns: The first row, or `nil` when the query returns none.
    /// - Throws: ``DatabaseError``.
    public func fetchOne(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws -> Row? {
        try cachedStatement(sql).fetchOne(arguments)
    }

    /// The rowid of the most recent successful `INSERT` on this connection.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/last_insert_rowid.html>
    public var lastInsertedRowID: Int64 {
        connection.handle.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// The number of rows the most recent `INSERT`, `UPDATE` or `DELETE` changed.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/changes.html>
    public var changedRowCount: Int {
        connection.handle.map { Int(sqlite3_changes64($0)) } ?? 0
    }

    /// Whether a transaction is open on this connection.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/get_autocommit.html>
    public var isInsideTransaction: Bool {
        connection.handle.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }
}

@available(*, unavailable, message: "A Database belongs to one isolation domain; open one per domain.")
extension Database: Sendable {}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }
}

#if PostgreSQL
import CLibPQ
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection to a PostgreSQL server, through libpq (the reference client).
///
/// The connection string follows libpq's rules, so everything libpq reads works: a URL
/// (`postgresql://ada@db.example:5432/albums?sslmode=require`) or `key=value` pairs, the `PG…`
/// environment variables (`PGPASSWORD`, `PGHOST`, …), `~/.pgpass` and service files. A password
/// never appears in an error or in ``displayName``.
///
/// Every value travels as a bound parameter (`$1`, `$2`, …), never inside the SQL text:
///
/// ```swift
/// let connection = try PostgreSQLConnection(connectingTo: "postgresql://ada@localhost/albums")
/// try connection.execute("INSERT INTO album (id, title) VALUES ($1, $2)", [UUID(), "Blue Train"])
/// let rows = try connection.query("SELECT title FROM album WHERE year < $1", [1970])
/// ```
///
/// A lost connection (a server restart, `pg_terminate_backend`) fails the statement that was
/// running with ``PostgreSQLError/Code/connectionLost``; the next call connects again.
///
/// A connection belongs to one isolation domain at a time, like a SQLite `Database`.
public final class PostgreSQLConnection {
    /// libpq's connection (`PGconn *`).
    let handle: OpaquePointer
    /// The server and database, without a password: "ada@localhost:5432/albums".
    public let displayName: String

    /// Connects to the server `connectionString` names.
    ///
    /// - Parameter connectionString: A libpq connection string: a `postgresql://` URL or
    ///   `key=value` pairs.
    /// - Throws: ``PostgreSQLError/Code/connectionRefused`` when the string is malformed, the
    ///   server cannot be reached, refuses the login, or has no such database.
    public init(connectingTo connectionString: String) throws(PostgreSQLError) {
        guard !connectionString.utf8.contains(0) else {
            throw PostgreSQLError(.connectionRefused, "the connection string holds a NUL character")
        }
        let parsed = try Self.options(of: connectionString)
        displayName = Self.displayName(of: parsed)
        guard let handle = PQconnectdb(connectionString) else {
            throw PostgreSQLError(.connectionRefused, "cannot connect to \(displayName): out of memory")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            var message = Self.lastError(of: handle)
            // libpq names hosts and users, never the password; removed anyway if it ever did.
            if let password = parsed["password"], !password.isEmpty {
                message = message.replacingOccurrences(of: password, with: "…")
            }
            PQfinish(handle)
            throw PostgreSQLError(.connectionRefused, "cannot connect to \(displayName): \(message)")
        }
        // libpq prints the server's notices ("… already exists, skipping") on standard error; a
        // library must not write to its program's terminal. Errors are thrown, never printed.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        self.handle = handle
    }

    deinit {
        PQfinish(handle)
    }

    /// How many times this connection sent statements and waited for the server's answer: one per
    /// statement run alone, one per ``pipeline(_:)``. Tests count a call's round trips with it.
    package internal(set) var roundTrips = 0

    /// The names of the statements prepared on the current session (``PostgreSQLStatement/isPrepared``),
    /// by SQL text; emptied when the session is replaced (``reconnectIfLost()``).
    var preparedStatementNames: [String: String] = [:]
    /// How many statements this connection has prepared: the next one's name is made from it.
    var preparedStatementCount = 0
    /// Called before each commit of a read-write transaction (``setCommitHook(_:)``).
    var commitHook: (() -> Void)?
    /// The rows of the reads sent since the last other statement of the transaction (``read(_:)``).
    var keptReads: [PostgreSQLStatement: [PostgreSQLRow]] = [:]
    /// The value of ``roundTrips`` after the last read kept: the kept rows hold while it is current.
    var keptReadsRoundTrip = -1
    /// The reads to send with the next transaction's `BEGIN` (``readAhead(_:)``).
    var readsAhead: [PostgreSQLStatement] = []
    /// The writes to send with the next statement (``sendLater(_:expectingOneRowOtherwise:)``).
    var deferredWrites: [DeferredWrite] = []
    /// The place of the first statement not known to have succeeded in the last pipeline that
    /// failed (0-based): the one that failed, or the first left unanswered by a lost connection.
    var failedStatementIndex: Int?
    /// Whether a commit asking for ``LockRelease/beforeFlush`` releases its locks early on this
    /// session (it may run the flush, and waits for flushes); `nil` until a transaction asks.
    package internal(set) var releasesLocksEarly: Bool?

    /// The server process serving this connection (`pg_backend_pid()`), 0 while disconnected.
    public var serverProcessID: Int32 { PQbackendPID(handle) }

    /// Runs a statement that returns no rows, with `parameters` bound to `$1`, `$2`, ….
    ///
    /// - Parameters:
    ///   - sql: One SQL statement.
    ///   - parameters: The values of `$1`, `$2`, …; `nil` binds `NULL`.
    /// - Returns: The number of rows the statement changed (0 for a statement that changes none).
    /// - Throws: A ``PostgreSQLError``.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [(any PostgreSQLValue)?] = []) throws(PostgreSQLError) -> Int {
        let result = try run(sql, parameters)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// Runs a query, with `parameters` bound to `$1`, `$2`, …, and returns its rows.
    ///
    /// - Parameters:
    ///   - sql: One SQL query.
    ///   - parameters: The values of `$1`, `$2`, …; `nil` binds `NULL`.
    /// - Returns: Every row, each column as text (`nil` for `NULL`).
    /// - Throws: A ``PostgreSQLError``.
    public func query(
        _ sql: String, _ parameters: [(any PostgreSQLValue)?] = []
    ) throws(PostgreSQLError) -> [PostgreSQLRow] {
        let result = try run(sql, parameters)
        defer { PQclear(result) }
        return Self.rows(of: result)
    }

    /// A successful result's rows, each column as text (`nil` for `NULL`).
    static func rows(of result: OpaquePointer) -> [PostgreSQLRow] {
        let rows = PQntuples(result)
        let columns = PQnfields(result)
        return (0..<rows).map { row in
            PostgreSQLRow(
                columns: (0..<columns).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
                })
        }
    }

    /// Sends one statement and returns its successful result (the caller clears it).
    private func run(_ sql: String, _ parameters: [(any PostgreSQLValue)?]) throws(PostgreSQLError) -> OpaquePointer {
        try run(sql, texts: try Self.texts(of: parameters))
    }

    /// Sends one statement with its parameters' checked texts and returns its successful result
    /// (the caller clears it).
    func run(_ sql: String, texts: [String?]) throws(PostgreSQLError) -> OpaquePointer {
        try sendDeferredWrites(before: sql)
        try reconnectIfLost()
        return try result(
            Self.withParameters(texts) { count, values in PQexecParams(handle, sql, count, nil, values, nil, nil, 0) })
    }

    /// Runs the statement prepared under `name` on this session with its parameters' checked
    /// texts, and returns its successful result (the caller clears it).
    func runPrepared(_ name: String, texts: [String?]) throws(PostgreSQLError) -> OpaquePointer {
        try result(
            Self.withParameters(texts) { count, values in PQexecPrepared(handle, name, count, values, nil, nil, 0) })
    }

    /// The successful result of a statement just run, or the error it stands for.
    private func result(_ result: OpaquePointer?) throws(PostgreSQLError) -> OpaquePointer {
        roundTrips += 1
        guard let result else {
            throw lostOrFailed(nil)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            return result
        default:
            let error = lostOrFailed(result)
            PQclear(result)
            throw error
        }
    }

    /// The parameters' text forms, refusing a text PostgreSQL cannot hold before anything is sent.
    static func texts(of parameters: [(any PostgreSQLValue)?]) throws(PostgreSQLError) -> [String?] {
        try checked(parameters.map { $0?.postgreSQLText })
    }

    /// The texts, refused when one holds a NUL (which PostgreSQL text cannot).
    ///
    /// - Parameter statement: The statement's place in a pipeline (1, 2, …), named in the message.
    static func checked(_ texts: [String?], statement: Int? = nil) throws(PostgreSQLError) -> [String?] {
        if let index = texts.firstIndex(where: { $0?.utf8.contains(0) == true }) {
            let place = statement.map { "statement \($0) of the pipeline: " } ?? ""
            throw PostgreSQLError(
                .invalidValue, "\(place)parameter $\(index + 1) holds a NUL character, which PostgreSQL text cannot")
        }
        return texts
    }

    /// Calls `body` with the texts as libpq's parameter array (C strings, `NULL` for `nil`).
    static func withParameters<Result>(
        _ texts: [String?], _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?) -> Result
    ) -> Result {
        let copies = texts.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        let values = copies.map { UnsafePointer($0) }
        return values.withUnsafeBufferPointer { buffer in body(Int32(values.count), buffer.baseAddress) }
    }

    /// Connects again after the connection broke; a no-op on a healthy one.
    func reconnectIfLost() throws(PostgreSQLError) {
        guard PQstatus(handle) != CONNECTION_OK else { return }
        reset()
        guard PQstatus(handle) == CONNECTION_OK else {
            throw PostgreSQLError(
                .connectionLost,
                "lost the connection to \(displayName) and cannot connect again: \(Self.lastError(of: handle))")
        }
    }

    /// Replaces the session with a new one, which has none of the old one's prepared statements.
    func reset() {
        preparedStatementNames.removeAll()
        // Their transaction went with the session.
        deferredWrites.removeAll()
        keptReads.removeAll()
        // Asked again of the server connected to next (another, after a failover).
        releasesLocksEarly = nil
        PQreset(handle)
    }

    /// The error a failed result (or a missing one) stands for.
    func lostOrFailed(_ result: OpaquePointer?) -> PostgreSQLError {
        if PQstatus(handle) != CONNECTION_OK {
            return PostgreSQLError(
                .connectionLost, "lost the connection to \(displayName): \(Self.lastError(of: handle))")
        }
        guard let result else { return PostgreSQLError(.server, Self.lastError(of: handle)) }
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
        let message = primary ?? String(cString: PQresultErrorMessage(result))
        if state == "26000" {
            // A prepared statement is gone (DEALLOCATE by hand): prepare every one again.
            preparedStatementNames.removeAll()
        }
        let code: PostgreSQLError.Code =
            switch state {
            case "40001", "40P01": .serializationFailure
            // admin_shutdown, crash_shutdown, cannot_connect_now: the server is going away.
            case "57P01", "57P02", "57P03": .connectionLost
            default: .server
            }
        return PostgreSQLError(code, message, sqlState: state)
    }

    static func lastError(of handle: OpaquePointer) -> String {
        let message = PQerrorMessage(handle).map { String(cString: $0) } ?? ""
        let line = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return line.isEmpty ? "no reason given" : line
    }

    /// The options a connection string sets, read as libpq reads them.
    ///
    /// - Throws: ``PostgreSQLError/Code/connectionRefused`` for a malformed string, with libpq's
    ///   reason less the parts it quotes (which may hold the password).
    static func options(of connectionString: String) throws(PostgreSQLError) -> [String: String] {
        var problem: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(connectionString, &problem) else {
            let reason = problem.map { String(cString: $0) } ?? "not a connection string"
            if let problem { PQfreemem(problem) }
            let unquoted = reason.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: "…")
            let line = unquoted.split(whereSeparator: \.isNewline).first.map(String.init) ?? unquoted
            throw PostgreSQLError(.connectionRefused, "malformed connection string: \(line)")
        }
        defer { PQconninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        return values
    }

    /// "user@host:port/database", without the password.
    static func displayName(of options: [String: String]) -> String {
        let user = options["user"].map { "\($0)@" } ?? ""
        let host = options["host"] ?? options["hostaddr"] ?? "localhost"
        let port = options["port"].map { ":\($0)" } ?? ""
        let database = options["dbname"].map { "/\($0)" } ?? ""
        return user + host + port + database
    }
}

@available(*, unavailable, message: "A PostgreSQL connection belongs to one isolation domain at a time.")
extension PostgreSQLConnection: Sendable {}
#endif

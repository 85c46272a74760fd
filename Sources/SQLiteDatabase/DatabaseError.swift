/// An error reported by SQLite: its result code, its message, the SQL and the file involved.
///
/// Catch a class of errors by matching the result code against the error:
///
/// ```swift
/// do {
///     try db.execute("INSERT INTO album (id, title) VALUES (?, ?)", [1, "Blue"])
/// } catch DatabaseError.ResultCode.constraint {
///     // Any constraint failure: UNIQUE, NOT NULL, FOREIGN KEY, CHECK...
/// }
/// ```
///
/// A primary code (``ResultCode/constraint``) matches every extended code of its family
/// (``ResultCode/constraintUnique``); an extended code matches only itself.
///
/// Related SQLite documentation: <https://www.sqlite.org/rescode.html>
public struct DatabaseError: Error, Sendable, Hashable {
    /// The extended result code SQLite returned.
    public var resultCode: ResultCode
    /// SQLite's message (`sqlite3_errmsg`), or this module's own when SQLite gave none.
    public var message: String
    /// The SQL statement that failed, when there was one.
    public var sql: String?
    /// The database file, when the connection has one (not for `:memory:`).
    public var path: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - resultCode: An SQLite result code, primary or extended.
    ///   - message: What went wrong.
    ///   - sql: The statement that failed, if any.
    ///   - path: The database file, if any.
    public init(resultCode: ResultCode, message: String, sql: String? = nil, path: String? = nil) {
        self.resultCode = resultCode
        self.message = message
        self.sql = sql
        self.path = path
    }
}

extension DatabaseError: CustomStringConvertible {
    /// `SQLite error 19 (SQLITE_CONSTRAINT_UNIQUE) in /path/db.sqlite: UNIQUE constraint failed: ... while executing `INSERT ...``
    public var description: String {
        var text = "SQLite error \(resultCode.rawValue) (\(resultCode))"
        if let path { text += " in \(path)" }
        text += ": \(message)"
        if let sql { text += " while executing `\(sql)`" }
        return text
    }
}

extension DatabaseError {
    /// An SQLite result code, primary (`SQLITE_BUSY`) or extended (`SQLITE_BUSY_SNAPSHOT`).
    ///
    /// Named constants cover the primary codes and the extended codes callers commonly test.
    /// Any other code SQLite returns is still representable through ``init(rawValue:)``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/rescode.html>
    public struct ResultCode: RawRepresentable, Hashable, Sendable {
        /// The numeric code, as SQLite's C API returns it.
        public var rawValue: Int32

        /// Wraps a numeric SQLite result code.
        public init(rawValue: Int32) {
            self.rawValue = rawValue
        }

        /// The primary code of an extended one (its low 8 bits); a primary code returns itself.
        public var primaryResultCode: ResultCode {
            ResultCode(rawValue: rawValue & 0xFF)
        }

        /// Whether this is a primary code rather than an extended one.
        public var isPrimary: Bool { rawValue == rawValue & 0xFF }

        /// Matches an error whose result code equals this one, or belongs to this primary code's family.
        public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
            guard let error = error as? DatabaseError else { return false }
            return pattern ~= error.resultCode
        }

        /// Matches a code equal to this one, or belonging to this primary code's family.
        public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
            pattern.isPrimary ? pattern == code.primaryResultCode : pattern == code
        }

        /// `SQLITE_OK`: success.
        public static let ok = ResultCode(rawValue: 0)
        /// `SQLITE_ERROR`: a generic error, often an SQL error.
        public static let error = ResultCode(rawValue: 1)
        /// `SQLITE_INTERNAL`.
        public static let `internal` = ResultCode(rawValue: 2)
        /// `SQLITE_PERM`: the requested access mode cannot be provided.
        public static let permission = ResultCode(rawValue: 3)
        /// `SQLITE_ABORT`: an operation was aborted, often by a rollback.
        public static let abort = ResultCode(rawValue: 4)
        /// `SQLITE_BUSY`: another connection holds a conflicting lock.
        public static let busy = ResultCode(rawValue: 5)
        /// `SQLITE_LOCKED`: a conflict inside this connection.
        public static let locked = ResultCode(rawValue: 6)
        /// `SQLITE_NOMEM`: out of memory.
        public static let noMemory = ResultCode(rawValue: 7)
        /// `SQLITE_READONLY`: an attempt to write a read-only database.
        public static let readOnly = ResultCode(rawValue: 8)
        /// `SQLITE_INTERRUPT`: interrupted by `sqlite3_interrupt`.
        public static let interrupt = ResultCode(rawValue: 9)
        /// `SQLITE_IOERR`: the operating system reported an I/O error.
        public static let ioError = ResultCode(rawValue: 10)
        /// `SQLITE_CORRUPT`: the database file is malformed.
        public static let corrupt = ResultCode(rawValue: 11)
        /// `SQLITE_NOTFOUND`.
        public static let notFound = ResultCode(rawValue: 12)
        /// `SQLITE_FULL`: the disk is full.
        public static let full = ResultCode(rawValue: 13)
        /// `SQLITE_CANTOPEN`: the file could not be opened.
        public static let cantOpen = ResultCode(rawValue: 14)
        /// `SQLITE_PROTOCOL`: a locking protocol problem.
        public static let `protocol` = ResultCode(rawValue: 15)
        /// `SQLITE_SCHEMA`: the schema changed.
        public static let schema = ResultCode(rawValue: 17)
        /// `SQLITE_TOOBIG`: a string or blob is too large.
        public static let tooBig = ResultCode(rawValue: 18)
        /// `SQLITE_CONSTRAINT`: a constraint failed.
        public static let constraint = ResultCode(rawValue: 19)
        /// `SQLITE_MISMATCH`: a datatype mismatch (this module also uses it when a column does not decode).
        public static let mismatch = ResultCode(rawValue: 20)
        /// `SQLITE_MISUSE`: the library was used incorrectly (this module: a closed connection, for one).
        public static let misuse = ResultCode(rawValue: 21)
        /// `SQLITE_AUTH`: authorization denied.
        public static let authorization = ResultCode(rawValue: 23)
        /// `SQLITE_RANGE`: a parameter index or count is out of range.
        public static let range = ResultCode(rawValue: 25)
        /// `SQLITE_NOTADB`: the file is not a database.
        public static let notADatabase = ResultCode(rawValue: 26)
        /// `SQLITE_ROW`: a row is ready (a step result, not an error).
        public static let row = ResultCode(rawValue: 100)
        /// `SQLITE_DONE`: a statement finished (a step result, not an error).
        public static let done = ResultCode(rawValue: 101)

        /// `SQLITE_BUSY_SNAPSHOT`: a WAL read transaction cannot be upgraded to write.
        public static let busySnapshot = ResultCode(rawValue: 5 | (2 << 8))
        /// `SQLITE_READONLY_DBMOVED`: the file was moved, replaced or removed since the connection
        /// opened it, so nothing more may be written through it.
        public static let readOnlyDatabaseMoved = ResultCode(rawValue: 8 | (4 << 8))
        /// `SQLITE_CONSTRAINT_COMMITHOOK`: a commit hook turned the commit into a rollback.
        public static let constraintCommitHook = ResultCode(rawValue: 19 | (2 << 8))
        /// `SQLITE_CONSTRAINT_CHECK`.
        public static let constraintCheck = ResultCode(rawValue: 19 | (1 << 8))
        /// `SQLITE_CONSTRAINT_FOREIGNKEY`.
        public static let constraintForeignKey = ResultCode(rawValue: 19 | (3 << 8))
        /// `SQLITE_CONSTRAINT_NOTNULL`.
        public static let constraintNotNull = ResultCode(rawValue: 19 | (5 << 8))
        /// `SQLITE_CONSTRAINT_PRIMARYKEY`.
        public static let constraintPrimaryKey = ResultCode(rawValue: 19 | (6 << 8))
        /// `SQLITE_CONSTRAINT_UNIQUE`.
        public static let constraintUnique = ResultCode(rawValue: 19 | (8 << 8))
    }
}

extension DatabaseError.ResultCode: CustomStringConvertible {
    /// SQLite's symbolic name (`SQLITE_CONSTRAINT_UNIQUE`), or the number for codes without a constant here.
    public var description: String {
        switch rawValue {
        case DatabaseError.ResultCode.ok.rawValue: "SQLITE_OK"
        case DatabaseError.ResultCode.error.rawValue: "SQLITE_ERROR"
        case DatabaseError.ResultCode.internal.rawValue: "SQLITE_INTERNAL"
        case DatabaseError.ResultCode.permission.rawValue: "SQLITE_PERM"
        case DatabaseError.ResultCode.abort.rawValue: "SQLITE_ABORT"
        case DatabaseError.ResultCode.busy.rawValue: "SQLITE_BUSY"
        case DatabaseError.ResultCode.locked.rawValue: "SQLITE_LOCKED"
        case DatabaseError.ResultCode.noMemory.rawValue: "SQLITE_NOMEM"
        case DatabaseError.ResultCode.readOnly.rawValue: "SQLITE_READONLY"
        case DatabaseError.ResultCode.interrupt.rawValue: "SQLITE_INTERRUPT"
        case DatabaseError.ResultCode.ioError.rawValue: "SQLITE_IOERR"
        case DatabaseError.ResultCode.corrupt.rawValue: "SQLITE_CORRUPT"
        case DatabaseError.ResultCode.notFound.rawValue: "SQLITE_NOTFOUND"
        case DatabaseError.ResultCode.full.rawValue: "SQLITE_FULL"
        case DatabaseError.ResultCode.cantOpen.rawValue: "SQLITE_CANTOPEN"
        case DatabaseError.ResultCode.protocol.rawValue: "SQLITE_PROTOCOL"
        case DatabaseError.ResultCode.schema.rawValue: "SQLITE_SCHEMA"
        case DatabaseError.ResultCode.tooBig.rawValue: "SQLITE_TOOBIG"
        case DatabaseError.ResultCode.constraint.rawValue: "SQLITE_CONSTRAINT"
        case DatabaseError.ResultCode.mismatch.rawValue: "SQLITE_MISMATCH"
        case DatabaseError.ResultCode.misuse.rawValue: "SQLITE_MISUSE"
        case DatabaseError.ResultCode.authorization.rawValue: "SQLITE_AUTH"
        case DatabaseError.ResultCode.range.rawValue: "SQLITE_RANGE"
        case DatabaseError.ResultCode.notADatabase.rawValue: "SQLITE_NOTADB"
        case DatabaseError.ResultCode.row.rawValue: "SQLITE_ROW"
        case DatabaseError.ResultCode.done.rawValue: "SQLITE_DONE"
        case DatabaseError.ResultCode.busySnapshot.rawValue: "SQLITE_BUSY_SNAPSHOT"
        case DatabaseError.ResultCode.readOnlyDatabaseMoved.rawValue: "SQLITE_READONLY_DBMOVED"
        case DatabaseError.ResultCode.constraintCommitHook.rawValue: "SQLITE_CONSTRAINT_COMMITHOOK"
        case DatabaseError.ResultCode.constraintCheck.rawValue: "SQLITE_CONSTRAINT_CHECK"
        case DatabaseError.ResultCode.constraintForeignKey.rawValue: "SQLITE_CONSTRAINT_FOREIGNKEY"
        case DatabaseError.ResultCode.constraintNotNull.rawValue: "SQLITE_CONSTRAINT_NOTNULL"
        case DatabaseError.ResultCode.constraintPrimaryKey.rawValue: "SQLITE_CONSTRAINT_PRIMARYKEY"
        case DatabaseError.ResultCode.constraintUnique.rawValue: "SQLITE_CONSTRAINT_UNIQUE"
        default:
            isPrimary
                ? "SQLite code \(rawValue)"
                : "\(primaryResultCode) (extended \(rawValue))"
        }
    }
}

#if PostgreSQL
/// An error from PostgreSQL or from libpq, in one line, never holding a password.
///
/// ``code`` sorts the failures a caller acts on: a refused connection, a lost one (the client
/// reconnects on its next call), a serialization failure
/// (``PostgreSQLConnection/inTransaction(_:readOnly:releasingLocks:attempts:_:)`` retries those
/// itself), and the rest by the server's SQLSTATE.
public struct PostgreSQLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name ("connection-refused").
        public var rawValue: String

        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The server could not be reached, refused the login, or has no such database.
        public static let connectionRefused = Code(rawValue: "connection-refused")
        /// The connection broke (the server restarted, or ended this session): nothing of the
        /// statement that was running was committed unless its commit had been acknowledged.
        public static let connectionLost = Code(rawValue: "connection-lost")
        /// Another transaction's commit made this one's result unsafe (SQLSTATE 40001 or 40P01):
        /// running the transaction again is correct.
        public static let serializationFailure = Code(rawValue: "serialization-failure")
        /// The database records a schema version newer than the program's: it was migrated by a
        /// newer release, and this one must not write to it.
        public static let newerSchema = Code(rawValue: "newer-schema")
        /// A value this client cannot send (a text holding a NUL character).
        public static let invalidValue = Code(rawValue: "invalid-value")
        /// A value read back is not of the type asked for.
        public static let typeMismatch = Code(rawValue: "type-mismatch")
        /// Any other error the server reported (its SQLSTATE is in ``PostgreSQLError/sqlState``).
        public static let server = Code(rawValue: "server")

        /// The code's name.
        public var description: String { rawValue }
    }

    /// What kind of failure it is.
    public var code: Code
    /// The message, for people: one line.
    public var message: String
    /// The server's five-character SQLSTATE, when the server reported the error.
    public var sqlState: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What kind of failure it is.
    ///   - message: The message; only its first line is kept.
    ///   - sqlState: The server's SQLSTATE, if any.
    public init(_ code: Code, _ message: String, sqlState: String? = nil) {
        self.code = code
        // libpq's messages end with a newline and may add "DETAIL:" lines: one line is kept.
        self.message = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? message
        self.sqlState = sqlState
    }

    /// The message.
    public var description: String { message }
}
#endif

#if PostgreSQL
/// Transactions: all or nothing, and a serialization failure is run again, never surfaced.
extension PostgreSQLConnection {
    /// How a transaction sees other transactions' commits (PostgreSQL's isolation levels).
    public enum Isolation: String, Sendable, Hashable {
        /// Each statement sees what was committed when it began.
        case readCommitted = "READ COMMITTED"
        /// The whole transaction sees one snapshot; a write that another commit made unsafe fails.
        case repeatableRead = "REPEATABLE READ"
        /// As if the transactions ran one after another: every decision is made from the state
        /// committed then, or the transaction fails and runs again.
        case serializable = "SERIALIZABLE"
    }

    /// Runs `body` in a transaction and commits it; on a serialization failure (another
    /// transaction's commit made this one's decisions unsafe), rolls back and runs `body` again.
    ///
    /// `body` may run more than once: it must decide everything from what it reads inside.
    ///
    /// - Parameters:
    ///   - isolation: The isolation level (``Isolation/serializable`` by default).
    ///   - attempts: How many times to run `body` before a serialization failure is thrown.
    ///   - body: The work; its result is returned once the commit is acknowledged.
    /// - Returns: What `body` returned in the attempt that committed.
    /// - Throws: What `body` threw (after a rollback), or a ``PostgreSQLError``: a lost
    ///   connection (nothing is committed unless the commit was acknowledged, and then no error
    ///   is thrown), or a serialization failure after `attempts` tries.
    @discardableResult
    public func inTransaction<T>(
        _ isolation: Isolation = .serializable, attempts: Int = 16, _ body: () throws -> T
    ) throws -> T {
        var attempt = 1
        while true {
            do {
                try execute("BEGIN ISOLATION LEVEL \(isolation.rawValue)")
                let value: T
                do {
                    value = try body()
                } catch {
                    rollbackIgnoringErrors()
                    throw error
                }
                do {
                    try execute("COMMIT")
                } catch {
                    rollbackIgnoringErrors()
                    throw error
                }
                return value
            } catch let error as PostgreSQLError where error.code == .serializationFailure && attempt < attempts {
                attempt += 1
            }
        }
    }

    private func rollbackIgnoringErrors() {
        _ = try? execute("ROLLBACK")
    }
}
#endif

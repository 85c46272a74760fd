#if PostgreSQL
import CLibPQ

/// Writes sent with the next statement: inside a transaction, a write whose result no decision
/// waits for travels with the next read or with the commit, in one round trip, so a change holds
/// its transaction's locks across fewer round trips.
extension PostgreSQLConnection {
    /// A write kept for the next statement, and the message of its failure when it changes no row.
    struct DeferredWrite {
        var statement: PostgreSQLStatement
        var unchangedMessage: String?
    }

    /// Sends `write` with the next statement on the connection (a read, the commit) inside the
    /// transaction open on the session; outside one, at once.
    ///
    /// With `message`, the write must change exactly one row (an `UPDATE` or `DELETE` of one row
    /// by its key, without a `RETURNING` clause): it is sent as a statement that fails on the server
    /// when it changes none, so that a pipeline holding the commit does not commit, and the
    /// failure is thrown as a ``PostgreSQLError`` with `message`. Any other failure of the write is
    /// thrown by the call that sends it, as its own failure would be. Its rows are never returned.
    ///
    /// The rows kept by ``read(_:)`` end at once: a read sent after the write sees it. A
    /// `ROLLBACK` (to a savepoint or of the transaction) drops the writes not sent yet; every other
    /// statement sends them first. Past ``deferredWriteLimit`` writes they are sent at once, so
    /// that a pipeline stays a handful of statements (``pipeline(_:)``).
    ///
    /// - Parameters:
    ///   - write: One statement that changes rows.
    ///   - message: The failure's message when the write must change one row and changes none.
    /// - Throws: Outside a transaction, the write's failure.
    package func sendLater(
        _ write: PostgreSQLStatement, expectingOneRowOtherwise message: String? = nil
    )
        throws(PostgreSQLError)
    {
        keptReads.removeAll(keepingCapacity: true)
        var statement = write
        if message != nil {
            // `1 / count(*)` divides by zero when no row changed: a failure decided by the server,
            // inside the pipeline, so the COMMIT after it does not run.
            statement.sql = "WITH changed AS (\(write.sql) RETURNING 1) SELECT 1 / count(*) FROM changed"
        }
        guard hasOpenTransaction else {
            let changed = try pipeline([write.returningOne]).first?.count ?? 0
            if let message, changed != 1 { throw PostgreSQLError(.server, message) }
            return
        }
        deferredWrites.append(DeferredWrite(statement: statement, unchangedMessage: message))
        if deferredWrites.count >= Self.deferredWriteLimit { try sendDeferredWrites() }
    }

    /// How many writes wait for the next statement at most: a step that writes without reading
    /// (the undo of many adds in one call) sends them in pipelines of this many.
    package static let deferredWriteLimit = 64

    /// Sends the writes deferred so far now, in a round trip of their own (none when there are
    /// none): a trial run of several steps sends each step's before the next, so that a failing
    /// write is the step's.
    ///
    /// - Throws: A failing write's ``PostgreSQLError``.
    package func sendDeferredWrites() throws(PostgreSQLError) {
        try sendDeferredWrites(before: "")
    }

    /// Sends the deferred writes before `sql`, in a round trip of their own, or drops them before a
    /// `ROLLBACK`.
    func sendDeferredWrites(before sql: String) throws(PostgreSQLError) {
        guard !deferredWrites.isEmpty else { return }
        if sql.hasPrefix("ROLLBACK") {
            deferredWrites.removeAll()
            return
        }
        _ = try pipelineAfterDeferredWrites([])
    }

    /// Runs `statements` in one pipeline after the deferred writes (dropped before a `ROLLBACK`),
    /// and returns the statements' rows.
    func pipelineAfterDeferredWrites(
        _ statements: [PostgreSQLStatement]
    ) throws(PostgreSQLError) -> [[PostgreSQLRow]] {
        let writes = deferredWrites
        deferredWrites.removeAll()
        if statements.first?.sql.hasPrefix("ROLLBACK") == true { return try pipeline(statements) }
        do {
            return Array(try pipeline(writes.map(\.statement) + statements).dropFirst(writes.count))
        } catch {
            if error.sqlState == "22012", let index = failedStatementIndex, writes.indices.contains(index),
                let message = writes[index].unchangedMessage
            {
                throw PostgreSQLError(.server, message, sqlState: error.sqlState)
            }
            throw error
        }
    }
}

extension PostgreSQLStatement {
    /// The statement with `RETURNING 1`: one row per row it changes.
    fileprivate var returningOne: PostgreSQLStatement {
        var statement = self
        statement.sql += " RETURNING 1"
        return statement
    }
}
#endif

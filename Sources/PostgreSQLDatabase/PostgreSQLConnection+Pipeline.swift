#if PostgreSQL
import CLibPQ

/// Pipelines: several statements sent at once, in one round trip (libpq's pipeline mode).
extension PostgreSQLConnection {
    /// Sends `statements` together and waits for the server once (libpq's pipeline mode), then
    /// returns each statement's rows, in order.
    ///
    /// The server runs the statements one after the other, exactly as if each were sent alone; only
    /// the waiting is shared, so a pipeline of five statements costs one round trip instead of five.
    /// A statement cannot use the rows of an earlier one: a step that decides on what it reads
    /// sends its reads first.
    ///
    /// ```swift
    /// let rows = try connection.pipeline([
    ///     PostgreSQLStatement("INSERT INTO album (id, title) VALUES ($1, $2)", [UUID(), "Blue Train"]),
    ///     PostgreSQLStatement("SELECT count(*) FROM album"),
    /// ])
    /// let count = try rows[1][0].decode(Int.self, at: 0)
    /// ```
    ///
    /// A failing statement stops the pipeline: the statements after it are not run, and its error
    /// is thrown, the ``PostgreSQLError`` it would throw alone (a serialization failure, a lost
    /// connection, a constraint's SQLSTATE…). What it leaves depends on the transaction:
    ///
    /// - With no transaction open, the statements run as one transaction of their own: a failure
    ///   leaves none of them.
    /// - A transaction the pipeline begins (a `BEGIN` among its statements) and a failure after it
    ///   is rolled back before the error is thrown: the connection is left with no transaction open.
    /// - Inside a transaction that was open before the pipeline
    ///   (``inTransaction(_:readOnly:releasingLocks:attempts:_:)``, a `BEGIN` sent earlier), a
    ///   failure leaves that transaction failed, as a failed ``execute(_:_:)`` does: its owner rolls
    ///   it back (or back to a savepoint).
    ///
    /// Whatever happens the connection leaves pipeline mode; after a lost connection
    /// (``PostgreSQLError/Code/connectionLost``) the next call connects again.
    ///
    /// Meant for a handful of statements: every statement is sent before any answer is read, so a
    /// pipeline of thousands, with large answers, could fill the buffers both ways and wait for
    /// ever (libpq's blocking mode).
    ///
    /// - Parameter statements: The statements, in order; each one SQL statement with its own
    ///   `$1`, `$2`, …
    /// - Returns: Each statement's rows (none for a statement that returns no rows).
    /// - Throws: The first failing statement's ``PostgreSQLError``, or
    ///   ``PostgreSQLError/Code/invalidValue`` for a parameter no statement can send (before
    ///   anything is sent).
    @discardableResult
    public func pipeline(_ statements: [PostgreSQLStatement]) throws(PostgreSQLError) -> [[PostgreSQLRow]] {
        if !deferredWrites.isEmpty { return try pipelineAfterDeferredWrites(statements) }
        if statements.count == 1, let statement = statements.first {
            // A failure there is this statement's.
            failedStatementIndex = 0
            if let rows = try runAlone(statement, texts: try Self.checked(statement.parameterTexts)) { return [rows] }
        }
        guard !statements.isEmpty else { return [] }
        try reconnectIfLost()
        var texts: [[String?]] = []
        for (offset, statement) in statements.enumerated() {
            texts.append(try Self.checked(statement.parameterTexts, statement: offset + 1))
        }
        let beganOutsideTransaction = PQtransactionStatus(handle) == PQTRANS_IDLE
        guard PQenterPipelineMode(handle) == 1 else { throw lostOrFailed(nil) }
        roundTrips += 1
        var failure: PostgreSQLError?
        var sent: [Sent] = []
        var named: [String: String] = [:]  // Prepared in this pipeline, before the server confirms it.
        for (statement, values) in zip(statements, texts) {
            var name: String?
            if statement.isPrepared {
                name = preparedStatementNames[statement.sql] ?? named[statement.sql]
                if name == nil {
                    preparedStatementCount += 1
                    let new = "commandkit_\(preparedStatementCount)"
                    guard PQsendPrepare(handle, new, statement.sql, 0, nil) == 1 else {
                        failure = lostOrFailed(nil)
                        break
                    }
                    sent.append(.preparation(sql: statement.sql, name: new))
                    named[statement.sql] = new
                    name = new
                }
            }
            let accepted = Self.withParameters(values) { count, values in
                if let name {
                    PQsendQueryPrepared(handle, name, count, values, nil, nil, 0)
                } else {
                    PQsendQueryParams(handle, statement.sql, count, nil, values, nil, nil, 0)
                }
            }
            guard accepted == 1 else {
                failure = lostOrFailed(nil)
                break
            }
            sent.append(.statement)
        }
        // The sync ends the pipeline (and its implicit transaction): sent even after a refused
        // statement, so the ones before it are answered and the pipeline can be left.
        let synced = PQpipelineSync(handle) == 1
        if !synced, failure == nil { failure = lostOrFailed(nil) }
        var results: [[PostgreSQLRow]] = []
        failedStatementIndex = nil
        if synced {
            results = readResults(of: sent, failure: &failure)
        }
        leavePipelineMode(failure: &failure)
        if let failure {
            if beganOutsideTransaction, PQstatus(handle) == CONNECTION_OK,
                PQtransactionStatus(handle) == PQTRANS_INERROR || PQtransactionStatus(handle) == PQTRANS_INTRANS
            {
                // A BEGIN of this pipeline ran and a later statement failed: its transaction goes.
                _ = try? execute("ROLLBACK")
            }
            throw failure
        }
        return results
    }

    /// What a command sent in a pipeline answers.
    private enum Sent {
        /// A statement: its rows are returned.
        case statement
        /// The preparation of a statement's SQL under a name: remembered once the server confirms it.
        case preparation(sql: String, name: String)
    }

    /// Runs one statement without pipeline mode and returns its rows, or `nil` when it must be
    /// prepared first (which a pipeline does in the same round trip).
    private func runAlone(
        _ statement: PostgreSQLStatement, texts: [String?]
    ) throws(PostgreSQLError) -> [PostgreSQLRow]? {
        let result: OpaquePointer
        if statement.isPrepared {
            try reconnectIfLost()
            guard let name = preparedStatementNames[statement.sql] else { return nil }
            result = try runPrepared(name, texts: texts)
        } else {
            result = try run(statement.sql, texts: texts)
        }
        defer { PQclear(result) }
        return Self.rows(of: result)
    }

    /// Reads the answers of the commands sent and the sync after them, keeping the first
    /// failure; stops at a lost connection. Returns the statements' rows.
    private func readResults(of sent: [Sent], failure: inout PostgreSQLError?) -> [[PostgreSQLRow]] {
        var results: [[PostgreSQLRow]] = []
        results.reserveCapacity(sent.count)
        for command in sent {
            // The statement this command runs or prepares: the place of a failure.
            let statementIndex = results.count
            var rows: [PostgreSQLRow] = []
            // One result per command, then NULL.
            while let result = PQgetResult(handle) {
                switch PQresultStatus(result) {
                case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
                    if case .preparation(let sql, let name) = command {
                        preparedStatementNames[sql] = name
                    } else {
                        rows = Self.rows(of: result)
                    }
                case PGRES_PIPELINE_ABORTED:
                    // Skipped: an earlier statement failed, and its error is the one kept.
                    break
                default:
                    if failure == nil {
                        failure = lostOrFailed(result)
                        failedStatementIndex = statementIndex
                    }
                }
                PQclear(result)
                if PQstatus(handle) != CONNECTION_OK { break }
            }
            guard PQstatus(handle) == CONNECTION_OK else {
                if failure?.code != .connectionLost { failure = lostOrFailed(nil) }
                if failedStatementIndex == nil { failedStatementIndex = statementIndex }
                return results
            }
            if case .statement = command { results.append(rows) }
        }
        while let result = PQgetResult(handle) {
            let status = PQresultStatus(result)
            if status != PGRES_PIPELINE_SYNC, failure == nil { failure = lostOrFailed(result) }
            PQclear(result)
            if status == PGRES_PIPELINE_SYNC || PQstatus(handle) != CONNECTION_OK { break }
        }
        if PQstatus(handle) != CONNECTION_OK, failure?.code != .connectionLost { failure = lostOrFailed(nil) }
        // Every statement answered, but the sync (the end of the implicit transaction) did not.
        if failure != nil, failedStatementIndex == nil { failedStatementIndex = results.count }
        return results
    }

    /// Leaves pipeline mode. A broken connection stays as it is (the next call resets it, which
    /// leaves pipeline mode too); a healthy one that cannot leave is reset now, so no later call
    /// finds it in pipeline mode.
    private func leavePipelineMode(failure: inout PostgreSQLError?) {
        guard PQstatus(handle) == CONNECTION_OK, PQexitPipelineMode(handle) != 1 else { return }
        let reason = Self.lastError(of: handle)
        reset()
        failure =
            failure
            ?? PostgreSQLError(
                .connectionLost, "the pipeline to \(displayName) could not end (\(reason)): connected again")
    }
}
#endif

#if PostgreSQL
import CLibPQ

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
    ///   - readOnly: Whether the transaction only reads (`READ ONLY`: the server refuses a write
    ///     in it, and the commit hook is not called for it).
    ///   - lockRelease: When the commit lets the transactions waiting on its locks go on
    ///     (``LockRelease/afterFlush``, PostgreSQL's own order, by default).
    ///   - attempts: How many times to run `body` before a serialization failure is thrown.
    ///   - body: The work; its result is returned once the commit is acknowledged.
    /// - Returns: What `body` returned in the attempt that committed.
    /// - Throws: What `body` threw (after a rollback), or a ``PostgreSQLError``: a lost
    ///   connection (nothing is committed unless the commit was acknowledged, and then no error
    ///   is thrown; with ``LockRelease/beforeFlush``, one lost between the commit and its flush
    ///   says "committed, but not known to be on disk"), or a serialization failure after
    ///   `attempts` tries.
    @discardableResult
    public func inTransaction<T>(
        _ isolation: Isolation = .serializable, readOnly: Bool = false,
        releasingLocks lockRelease: LockRelease = .afterFlush,
        attempts: Int = 16, _ body: () throws -> T
    ) throws -> T {
        try inTransaction(
            isolation, readOnly: readOnly, releasingLocks: lockRelease, attempts: attempts, opening: []
        ) { _ in (try body(), []) }
        .value
    }

    /// Runs `body` in a transaction as ``inTransaction(_:readOnly:releasingLocks:attempts:_:)`` does,
    /// in fewer round trips: `BEGIN` is sent in one ``pipeline(_:)`` with the `opening` statements,
    /// whose rows `body` receives, and `COMMIT` in one pipeline with the `closing` statements `body`
    /// returns.
    ///
    /// A transaction whose first reads and last writes are known in advance then costs a round
    /// trip for its opening, one for its closing, and one for each statement `body` runs itself:
    ///
    /// ```swift
    /// let (_, closed) = try connection.inTransaction(
    ///     .readCommitted, opening: [PostgreSQLStatement("SELECT total FROM account WHERE id = $1 FOR UPDATE", [id])]
    /// ) { opened in
    ///     let total = try opened[0][0].decode(Int.self, at: 0) ?? 0
    ///     return ((), [
    ///         PostgreSQLStatement("UPDATE account SET total = $1 WHERE id = $2", [total + amount, id]),
    ///         PostgreSQLStatement("INSERT INTO ledger (account, amount) VALUES ($1, $2)", [id, amount]),
    ///     ])
    /// }
    /// ```
    ///
    /// Everything ``inTransaction(_:readOnly:releasingLocks:attempts:_:)`` promises holds: a
    /// serialization failure or a deadlock, in the opening, in `body`, in the closing statements or
    /// at the commit, runs the whole transaction again (the opening included, and `body` with the
    /// new rows); any other failure rolls it back and is thrown; the connection is left with no
    /// transaction open.
    ///
    /// - Parameters:
    ///   - isolation: The isolation level (``Isolation/serializable`` by default).
    ///   - readOnly: Whether the transaction only reads (`READ ONLY`; no commit hook).
    ///   - lockRelease: When the commit lets the transactions waiting on its locks go on
    ///     (``LockRelease/afterFlush`` by default; ``LockRelease/beforeFlush`` for a transaction
    ///     whose first statement locks a row every writer locks).
    ///   - attempts: How many times to run the transaction before a serialization failure is thrown.
    ///   - opening: The statements sent with `BEGIN`, inside the transaction.
    ///   - body: The work, given the opening statements' rows; returns its value and the statements
    ///     to send with `COMMIT` (run before it, inside the transaction).
    /// - Returns: What `body` returned in the attempt that committed, and the closing statements'
    ///   rows.
    /// - Throws: As ``inTransaction(_:readOnly:releasingLocks:attempts:_:)``; a failing opening or
    ///   closing statement's ``PostgreSQLError`` (nothing is committed then).
    @discardableResult
    public func inTransaction<T>(
        _ isolation: Isolation = .serializable, readOnly: Bool = false,
        releasingLocks lockRelease: LockRelease = .afterFlush,
        attempts: Int = 16, opening: [PostgreSQLStatement],
        _ body: (_ opened: [[PostgreSQLRow]]) throws -> (value: T, closing: [PostgreSQLStatement])
    ) throws -> (value: T, closed: [[PostgreSQLRow]]) {
        let begin =
            readOnly
            ? "BEGIN ISOLATION LEVEL \(isolation.rawValue) READ ONLY" : "BEGIN ISOLATION LEVEL \(isolation.rawValue)"
        // Every statement sends or drops them first, so none outlive their transaction.
        assert(deferredWrites.isEmpty, "writes deferred outside a transaction")
        let ahead = readsAhead
        readsAhead = []
        var attempt = 1
        while true {
            do {
                let asksServer = !readOnly && lockRelease == .beforeFlush && releasesLocksEarly == nil
                // A failure here leaves no transaction: the pipeline rolls back the one it began.
                let opened = try pipeline(
                    [PostgreSQLStatement(begin)] + opening + ahead + (asksServer ? [Self.earlyReleaseRead] : []))
                let aheadRows = opened.dropFirst(1 + opening.count).prefix(ahead.count)
                for (read, rows) in zip(ahead, aheadRows) { keep(rows, of: read) }
                if asksServer, let rows = opened.last { learnEarlyRelease(from: rows) }
                let outcome: (value: T, closing: [PostgreSQLStatement])
                do {
                    outcome = try body(Array(opened.dropFirst().prefix(opening.count)))
                } catch {
                    rollbackIgnoringErrors()
                    throw error
                }
                let closed: [[PostgreSQLRow]]
                do {
                    closed = try commit(outcome.closing, callingHook: !readOnly, releasingLocks: lockRelease)
                } catch {
                    rollbackIgnoringErrors()
                    throw error
                }
                return (outcome.value, closed)
            } catch let error as PostgreSQLError where error.code == .serializationFailure && attempt < attempts {
                attempt += 1
            }
        }
    }

    /// Runs `body` in a savepoint that is always rolled back, so that nothing it writes stays: a
    /// trial run (would these statements succeed now?) inside the transaction open on the session,
    /// whose other work goes on; outside any transaction, in one of its own, rolled back too.
    ///
    /// A statement of `body` that fails is rolled back with the savepoint, so `body` may catch its
    /// error and report it: the enclosing transaction is usable again afterwards.
    ///
    /// - Parameter body: The trial work.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw (after the rollback), or a ``PostgreSQLError`` when the
    ///   savepoint cannot be made or rolled back (a lost connection: the enclosing transaction is
    ///   gone then).
    package func inRolledBackSavepoint<T>(_ body: () throws -> T) throws -> T {
        guard hasOpenTransaction else {
            _ = try execute("BEGIN ISOLATION LEVEL READ COMMITTED")
            defer { rollbackIgnoringErrors() }
            return try bodyWithItsWrites(body)
        }
        _ = try execute("SAVEPOINT commandkit_trial")
        let result: Result<T, any Error>
        do {
            result = .success(try bodyWithItsWrites(body))
        } catch {
            result = .failure(error)
        }
        do {
            _ = try execute("ROLLBACK TO SAVEPOINT commandkit_trial")
            _ = try execute("RELEASE SAVEPOINT commandkit_trial")
        } catch {
            // The transaction is gone (a lost connection): what `body` saw first says more.
            if case .failure(let failure) = result { throw failure }
            throw error
        }
        return try result.get()
    }

    /// Runs `body`, then sends the writes it deferred (``sendLater(_:expectingOneRowOtherwise:)``):
    /// a trial's writes must run (and may fail) before its rollback, which would drop them unsent.
    private func bodyWithItsWrites<T>(_ body: () throws -> T) throws -> T {
        let value = try body()
        try sendDeferredWrites()
        return value
    }

    /// Calls `hook` before each commit of a read-write transaction on this connection
    /// (``inTransaction(_:readOnly:releasingLocks:attempts:_:)``, a durable history's change),
    /// inside the transaction: its statements have run (but those sent with the commit) and its
    /// locks are held.
    ///
    /// For instrumentation and tests: a test can pause a process inside its write transaction
    /// (the hook waits for a signal from the test), which makes a race between processes
    /// deterministic, or kill it there. The hook must not use the connection.
    ///
    /// - Parameter hook: The hook, replacing any earlier one; `nil` removes it.
    public func setCommitHook(_ hook: (() -> Void)?) {
        commitHook = hook
    }

    /// Commits the transaction open on the session, sending `closing` (run first, inside it) with
    /// `COMMIT` in one round trip, after the commit hook (of a read-write transaction); returns the
    /// closing statements' rows. On a failure the transaction is left to its owner, which rolls it back.
    ///
    /// With `lockRelease` ``LockRelease/beforeFlush``, the locks go before the flush once the
    /// session knows it may (an ``inTransaction(_:readOnly:releasingLocks:attempts:opening:_:)``
    /// asked the server), and after it until then.
    package func commit(
        _ closing: [PostgreSQLStatement], callingHook: Bool = true,
        releasingLocks lockRelease: LockRelease = .afterFlush
    ) throws(PostgreSQLError) -> [[PostgreSQLRow]] {
        if callingHook { commitHook?() }
        if releasesEarly(lockRelease) { return try commitReleasingLocksEarly(closing) }
        return Array(try pipeline(closing + [PostgreSQLStatement("COMMIT")]).dropLast())
    }

    /// Whether a transaction is open on the session (failed or not). `false` once a failed commit
    /// or pipeline ended it (a `ROLLBACK` would only draw the server's warning), and on a lost
    /// connection: its transaction went with the session, and the next call connects again.
    package var hasOpenTransaction: Bool {
        PQstatus(handle) == CONNECTION_OK && PQtransactionStatus(handle) != PQTRANS_IDLE
    }

    /// Rolls back the transaction left open, if any.
    private func rollbackIgnoringErrors() {
        guard hasOpenTransaction else { return }
        _ = try? execute("ROLLBACK")
    }
}
#endif

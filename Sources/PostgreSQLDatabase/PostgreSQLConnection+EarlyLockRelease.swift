#if PostgreSQL
/// Commits that let the transactions queued on their locks go on before the commit reaches the
/// disk, and still return only once it has (early lock release).
///
/// PostgreSQL releases a transaction's locks after its commit is flushed, so writers queued on
/// one row each wait for the flushes of all those before them, one after another: with that row
/// every writer's first lock, C clients cannot commit faster than one. A commit that releases its
/// locks first (`synchronous_commit` off for that transaction alone) is followed, in the same
/// round trip, by a transaction of its own that the server flushes at its end: the log is
/// flushed in order, so once that one is on disk so is the commit. The waiting writers run during
/// the flush, and the flushes of several clients' commits become one.
extension PostgreSQLConnection {
    /// When a read-write transaction's commit lets the transactions waiting on its locks go on.
    public enum LockRelease: Sendable, Hashable {
        /// Once the commit is on disk, PostgreSQL's own order: a transaction that sees the commit
        /// sees one that a crash of the server keeps.
        case afterFlush
        /// As soon as the commit is in the server's log, before the log reaches the disk; the call
        /// still returns only once it has, so nothing acknowledged is lost.
        ///
        /// Transactions that all lock one row first then overlap their flushes. In exchange another
        /// client can see the commit a moment before it is durable: if the server crashes in that
        /// moment, the commit is lost, and no caller was told it succeeded, but a reader may have
        /// seen it. The session needs the right to run `pg_logical_emit_message` (every role has it
        /// unless it was revoked); without it the commit releases its locks after the flush. With
        /// `synchronous_commit` off, every commit releases them at once, and this one is plain.
        case beforeFlush
    }

    /// Asks whether releasing locks early is possible and worth it on this session: it may run
    /// ``flushAfterEarlyCommit`` (by name, not by signature: PostgreSQL 17 gave the function a fourth
    /// parameter), and its commits wait for their flush (with `synchronous_commit` off they release
    /// their locks at once anyway). Sent with the `BEGIN` of the session's first transaction that
    /// asks for ``LockRelease/beforeFlush``.
    static let earlyReleaseRead = PostgreSQLStatement(
        """
        SELECT current_setting('synchronous_commit') <> 'off'
            AND coalesce(bool_and(has_function_privilege(oid, 'EXECUTE')), false)
        FROM pg_catalog.pg_proc WHERE proname = 'pg_logical_emit_message' AND pronamespace = 'pg_catalog'::regnamespace
        """)

    /// Makes the commit that follows release its locks before its flush (for this transaction
    /// only).
    static let asynchronousCommit = PostgreSQLStatement("SET LOCAL synchronous_commit TO off", prepared: true)

    /// Sent after an early commit, in a transaction of its own (the pipeline's implicit one): a
    /// message in the log, with no table written and nothing for anyone to read, which makes the
    /// server flush the log at the transaction's end, the early commit with it.
    static let flushAfterEarlyCommit = PostgreSQLStatement(
        "SELECT pg_catalog.pg_logical_emit_message(true, 'commandkit', '')", prepared: true)

    /// Whether a commit asking for `release` releases its locks before its flush on this session.
    func releasesEarly(_ release: LockRelease) -> Bool {
        release == .beforeFlush && releasesLocksEarly == true
    }

    /// Keeps what ``earlyReleaseRead`` answered (until the session ends).
    func learnEarlyRelease(from rows: [PostgreSQLRow]) {
        releasesLocksEarly = (try? rows.first?.decode(Bool.self, at: 0)) == true
    }

    /// Commits the open transaction with `closing` sent first, releasing its locks before the flush,
    /// then flushes, all in one round trip; returns the closing statements' rows once the commit
    /// is on disk.
    ///
    /// A failure after the `COMMIT` (the connection lost during the flush) is thrown with a message
    /// that says the transaction committed: whether it is durable is not known.
    func commitReleasingLocksEarly(_ closing: [PostgreSQLStatement]) throws(PostgreSQLError) -> [[PostgreSQLRow]] {
        let statements = closing + [Self.asynchronousCommit, PostgreSQLStatement("COMMIT"), Self.flushAfterEarlyCommit]
        // The pipeline sends the deferred writes first: the flush's place counts them.
        let flushIndex = deferredWrites.count + statements.count - 1
        do {
            return Array(try pipeline(statements).prefix(closing.count))
        } catch {
            guard let failed = failedStatementIndex, failed >= flushIndex else { throw error }
            throw PostgreSQLError(
                error.code, "committed, but not known to be on disk: \(error.message)", sqlState: error.sqlState)
        }
    }
}
#endif

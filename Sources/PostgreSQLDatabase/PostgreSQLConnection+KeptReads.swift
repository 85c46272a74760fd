#if PostgreSQL
import CLibPQ

/// Reads that cost no round trip of their own: a read sent again before anything else is sent in
/// its transaction answers from the rows it returned, and reads known before a transaction begins
/// travel with its `BEGIN`. Inside a write transaction that holds a lock every writer takes first
/// (a durable history's header), each round trip is one that every other writer waits for.
extension PostgreSQLConnection {
    /// Sends `reads` with the next transaction's opening
    /// (``inTransaction(_:readOnly:releasingLocks:attempts:opening:_:)``), after its opening
    /// statements (a lock taken there is held before they run), and keeps their rows for
    /// ``read(_:)``.
    ///
    /// For the reads a call will make first, known before it begins: a change that names an album
    /// by its position reads that album in the round trip that locks the history. The next
    /// transaction takes them (and sends them again on each attempt), whatever it does.
    ///
    /// - Parameter reads: Statements that change nothing (`SELECT`s), replacing any queued before.
    package func readAhead(_ reads: [PostgreSQLStatement]) {
        readsAhead = reads
    }

    /// Runs `reads` and returns each one's rows, in order, sending only those whose rows are not
    /// kept: in one pipeline, after which they are kept too.
    ///
    /// A read's rows are kept inside the transaction that read them while only reads have been sent
    /// since (``read(_:)`` and ``readAhead(_:)``): any other statement on the connection (a write,
    /// the commit, a statement of another caller) ends them. A kept read therefore answers what the
    /// same read answered a moment before with nothing written in between, and a caller that reads
    /// one album three times inside a change waits for the server once. Outside a transaction
    /// nothing is kept.
    ///
    /// - Parameter reads: Statements that change nothing (`SELECT`s).
    /// - Returns: Each read's rows.
    /// - Throws: The first failing read's ``PostgreSQLError``.
    package func read(_ reads: [PostgreSQLStatement]) throws(PostgreSQLError) -> [[PostgreSQLRow]] {
        if !keptReadsHold { keptReads.removeAll(keepingCapacity: true) }
        let missing = reads.filter { keptReads[$0] == nil }
        guard !missing.isEmpty else { return reads.map { keptReads[$0] ?? [] } }
        let rows = try pipeline(missing)
        var answers = keptReads
        for (read, answer) in zip(missing, rows) { answers[read] = answer }
        if hasOpenTransaction {
            // Only reads were sent since the kept ones were read: they hold on, with these.
            keptReads = answers
            keptReadsRoundTrip = roundTrips
        }
        return reads.map { answers[$0] ?? [] }
    }

    /// Keeps `rows` as what `read` returns now: `read` ran last in the pipeline just sent, in the
    /// transaction open on the session (rows kept before that pipeline, which may have written, end).
    func keep(_ rows: [PostgreSQLRow], of read: PostgreSQLStatement) {
        guard hasOpenTransaction else { return }
        if keptReadsRoundTrip != roundTrips { keptReads.removeAll(keepingCapacity: true) }
        keptReads[read] = rows
        keptReadsRoundTrip = roundTrips
    }

    /// Whether the kept rows still hold: nothing has been sent since they were read, in the
    /// transaction that read them.
    private var keptReadsHold: Bool {
        keptReadsRoundTrip == roundTrips && hasOpenTransaction
    }
}
#endif

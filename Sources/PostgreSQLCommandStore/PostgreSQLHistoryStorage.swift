#if PostgreSQL
internal import CommandKit
package import CommandStore
package import Foundation
import PostgreSQLDatabase

/// The shared engine's `HistoryStorage` on PostgreSQL: one row per entry and a one-row header,
/// the layout of CommandStore's SQLite storage without its single-machine tricks; a branching
/// history parks the branches off its path in a table of their own
/// (`PostgreSQLHistoryStorage+Branches`).
///
/// Position `p` is sequence `base + p`; trimming deletes rows and advances `base`. The header
/// (count, index, clean index, undo limit, revision) is read at the start of every write
/// transaction, locked (``reload(locking:)``), and written once at its end when the operation
/// changed something (``flush()``), raising the revision by one. Entries are read without their
/// payload for texts, and decoded on demand, as on SQLite.
///
/// The writes of the path no later decision reads back (an entry's INSERT, UPDATE or DELETE, the
/// header's UPDATE) are not sent at once but kept (``pending``) and sent with the next statement, in one pipeline:
/// the next read of the history's tables, a savepoint, or the commit itself (the owner sends what
/// is left with `COMMIT`, ``takePending()``). The order of the history's statements is kept; the
/// receiver's statements, sent by the commands through the connection, may reach the server
/// before history writes of the same call, in the same transaction (a command does not read the
/// history's tables).
///
/// Every statement goes through ``run(_:)``, which keeps the first PostgreSQL error of the
/// transaction: the engine and the entries swallow some errors (an entry that does not decode is
/// recorded apart), and after a failed statement PostgreSQL refuses every other one in the
/// transaction, so the owner rethrows this first error, a serialization failure it then retries.
package final class PostgreSQLHistoryStorage: DurableHistoryStorage, StoredPayloadSource {
    package typealias Entry = DurableEntry
    package typealias Failure = any Error

    let connection: PostgreSQLConnection
    let commands: BoundCommandDecoder
    let statements: HistoryStatements

    private(set) var base: Int64 = 0
    package internal(set) var count = 0
    package private(set) var index = 0
    package private(set) var cleanIndex: Int? = 0
    /// Persisted for the owner; the engine keeps its own copy.
    package var undoLimit = 0 {
        didSet { if undoLimit != oldValue { changed = true } }
    }
    /// The revision as last read or written: every committed change raises it by one.
    private(set) var revision: Int64 = 0
    /// The author recorded with each new entry.
    var author: String?
    /// Whether the operation under way changed the history (its commit then takes a revision).
    var changed = false
    /// Whether running an entry sends the writes its command deferred (the connection's
    /// `sendLater`) at once: in a jump, whose steps would otherwise all fail as one at the commit.
    var sendsEachStepsWrites = false
    /// Whether a redo tail is parked as a branch rather than removed (stored in the header).
    package internal(set) var keepsBranches = false
    /// Whether this client's owner asked for branches (``startKeepingBranches()``).
    var branchesRequested = false
    /// The number the next recorded step takes: stored in the header, never reused.
    var nextNode: Int64 = 1
    /// The number of parked rows, counted when first asked (only the undo limit of a tree asks).
    var parkedRows: Int?
    /// The first PostgreSQL error since ``beginTransaction()`` (see the type's notes).
    private(set) var firstFailure: PostgreSQLError?
    /// Writes not sent yet: they go with the next statement, or with the commit.
    private(set) var pending: [PostgreSQLStatement] = []
    /// Where the header's UPDATE is among ``pending`` and the revision it returns (checked once
    /// it is sent, ``checkRevision(_:)``).
    private var pendingRevision: (position: Int, revision: Int64)?
    /// Whether a header UPDATE of this transaction returned another revision than the one taken
    /// (its row gone): the commit then leaves the cache uncommitted (``noteCommitted()``).
    private var headerUpdateMissed = false

    private var tokens = EntryTokenGenerator()
    private let encoder = PayloadEncoder()
    private let decoder = JSONDecoder()

    /// Entries read or written, by sequence, with their stored form and identity.
    var cache: [Int64: Cached] = [:]
    /// Whether the cache and header hold committed rows only (``noteCommitted()``): false from the
    /// start of a write until its commit, so a rolled-back write's rows are never kept.
    private(set) var cacheIsCommitted = false

    struct Cached {
        var entry: Entry
        var stored: StoredEntry
        var identity: EntryIdentity
        /// The entry's node in the tree.
        var node: Int64
    }

    init(connection: PostgreSQLConnection, commands: BoundCommandDecoder, statements: HistoryStatements) {
        self.connection = connection
        self.commands = commands
        self.statements = statements
    }

    /// Where the history is, for messages ("ada@db:5432/albums, history commandstore_history").
    var place: String { "\(connection.displayName), history \(statements.channel)" }

    // MARK: Statements

    /// Runs a statement, keeping the transaction's first PostgreSQL error.
    func run<T>(_ statement: () throws(PostgreSQLError) -> T) throws(PostgreSQLError) -> T {
        do {
            return try statement()
        } catch {
            if firstFailure == nil { firstFailure = error }
            throw error
        }
    }

    /// Runs a query (after the pending writes, in the same round trip) and returns its rows.
    ///
    /// The history's SQL is fixed (``HistoryStatements``): it is prepared once per session, so the
    /// server plans it once (`prepared: false` for a statement that cannot be prepared, a savepoint).
    func query(
        _ sql: String, _ parameters: [(any PostgreSQLValue)?] = [], prepared: Bool = true
    ) throws(PostgreSQLError) -> [PostgreSQLRow] {
        try run { () throws(PostgreSQLError) in
            let statement = PostgreSQLStatement(sql, parameters, prepared: prepared)
            guard !pending.isEmpty else { return try connection.pipeline([statement]).first ?? [] }
            let statements = pending + [statement]
            pending.removeAll(keepingCapacity: true)
            let results = try connection.pipeline(statements)
            checkRevision(results)
            return results.last ?? []
        }
    }

    /// Runs a statement now (after the pending writes, in the same round trip).
    func execute(
        _ sql: String, _ parameters: [(any PostgreSQLValue)?] = [], prepared: Bool = true
    ) throws(PostgreSQLError) {
        _ = try query(sql, parameters, prepared: prepared)
    }

    /// Keeps a write to send with the next statement (or with the commit).
    func send(later sql: String, _ parameters: [(any PostgreSQLValue)?]) {
        pending.append(PostgreSQLStatement(sql, parameters, prepared: true))
    }

    /// Hands over the writes not sent yet (the owner sends them with `COMMIT`, then passes their
    /// rows to ``checkRevision(_:)`` before ``noteCommitted()``), forgetting them here.
    func takePending() -> [PostgreSQLStatement] {
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }

    /// Forgets the writes not sent yet: the transaction or savepoint they belong to is rolled back.
    func dropPending() {
        pending.removeAll(keepingCapacity: true)
        pendingRevision = nil
    }

    /// Forgets the last transaction's first error and unsent writes: call as each transaction (or
    /// attempt) begins.
    func beginTransaction() {
        firstFailure = nil
        changed = false
        headerUpdateMissed = false
        sendsEachStepsWrites = false
        dropPending()
    }

    // MARK: The header

    /// Rereads the header (locking it until the transaction ends, for a write). The cached entries
    /// are kept when they are committed rows of the revision read (nobody changed the history
    /// since: a push then reads no row to merge with), and forgotten otherwise.
    func reload(locking: Bool) throws {
        try reload(header: try query(locking ? statements.selectHeaderForUpdate : statements.selectHeader))
    }

    /// Reads the header from the rows of ``HistoryStatements/selectHeader`` (or its locking form,
    /// sent by the owner with `BEGIN`), as ``reload(locking:)`` does.
    func reload(header rows: [PostgreSQLRow]) throws {
        let keptRevision = cacheIsCommitted ? revision : nil
        cacheIsCommitted = false
        changed = false
        guard let row = rows.first else {
            throw StoreError(.corruptDatabase, "\(place) has no header row (its tables were changed by hand?)")
        }
        guard let base = try row.decode(Int64.self, at: 0), let count = try row.decode(Int.self, at: 1),
            let index = try row.decode(Int.self, at: 2), let undoLimit = try row.decode(Int.self, at: 4),
            let revision = try row.decode(Int64.self, at: 5), count >= 0, (0...count).contains(index)
        else {
            throw StoreError(.corruptDatabase, "\(place) has a damaged header row")
        }
        let cleanIndex = try row.decode(Int.self, at: 3)
        if let cleanIndex, !(0...count).contains(cleanIndex) {
            throw StoreError(.corruptDatabase, "\(place) has a damaged header row")
        }
        guard let nextNode = try row.decode(Int64.self, at: 6), let keepsBranches = try row.decode(Bool.self, at: 7)
        else {
            throw StoreError(.corruptDatabase, "\(place) has a damaged header row")
        }
        if revision != keptRevision { cache.removeAll(keepingCapacity: true) }
        self.base = base
        self.count = count
        self.index = index
        self.cleanIndex = cleanIndex
        self.undoLimit = undoLimit
        self.revision = revision
        self.nextNode = nextNode
        self.keepsBranches = keepsBranches || branchesRequested
        parkedRows = nil
        changed = false
    }

    /// Records that the transaction that read or wrote the cache committed (or read only).
    func noteCommitted() {
        cacheIsCommitted = !headerUpdateMissed
        headerUpdateMissed = false
    }

    /// The revision as committed now: one statement, reading the header's one row.
    func committedRevision() throws -> Int64 {
        let rows = try query(statements.selectRevision)
        guard let revision = try rows.first?.decode(Int64.self, at: 0) else {
            throw StoreError(.corruptDatabase, "\(place) has no header row")
        }
        return revision
    }

    /// Writes the header when the operation changed the history, taking the next revision: kept
    /// with the pending writes, sent with the next statement or the commit.
    ///
    /// The header row is locked by this transaction (``reload(locking:)``), so the revision the
    /// UPDATE takes is the one read plus one: taken now, and checked against the row the UPDATE
    /// returns once it is sent (``checkRevision(_:)``).
    ///
    /// - Parameter notifying: Whether the same statement sends the NOTIFY of the new revision
    ///   (no statement of its own).
    func flush(notifying: Bool = false) {
        guard changed else { return }
        if notifying {
            send(
                later: statements.updateHeaderAndNotify,
                [base, count, index, cleanIndex, undoLimit, nextNode, keepsBranches, statements.channel])
        } else {
            send(later: statements.updateHeader, [base, count, index, cleanIndex, undoLimit, nextNode, keepsBranches])
        }
        revision += 1
        pendingRevision = (pending.count - 1, revision)
        changed = false
    }

    /// Once the pending writes are sent (`results`, their rows first, in order): checks the
    /// revision the header's UPDATE among them returned. A header row that was not there (changed
    /// by hand: this transaction holds its lock) leaves the cache uncommitted at the commit, so the
    /// next read rereads the header and reports it.
    func checkRevision(_ results: [[PostgreSQLRow]]) {
        guard let expected = pendingRevision else { return }
        pendingRevision = nil
        let rows = results.indices.contains(expected.position) ? results[expected.position] : []
        if (try? rows.first?.decode(Int64.self, at: 0)) != expected.revision { headerUpdateMissed = true }
    }

    // MARK: Entries

    func sequence(at position: Int) -> Int64 { base + Int64(position) }

    func load(at position: Int) throws -> Cached {
        precondition((0..<count).contains(position), "history position \(position) out of 0..<\(count)")
        if let cached = cache[sequence(at: position)] { return cached }
        // With its payload: an entry read alone is most often about to run.
        return try loadAround(position)
    }

    /// Reads the entry at `position` with its payload, and its neighbours on either side without
    /// theirs, in one statement, and caches those not cached yet: an undo reads the step it undoes,
    /// its payload and the step below (the next undo's record) in one round trip, a redo the one above.
    private func loadAround(_ position: Int) throws -> Cached {
        let sequence = sequence(at: position)
        let range = max(0, position - 1)..<min(count, position + 2)
        let rows = try query(
            statements.selectEntriesAround,
            [self.sequence(at: range.lowerBound), self.sequence(at: range.upperBound), sequence])
        try cache(rows, within: range, keeping: sequence)
        guard let found = cache[sequence] else {
            throw StoreError(.corruptDatabase, "\(place) has lost history entry \(position) (sequence \(sequence))")
        }
        guard found.stored.payload != nil else {
            throw StoreError(.corruptDatabase, "\(place) has history entry \(position) without its data")
        }
        return found
    }

    /// Caches the entries of `rows` (``HistoryStatements/selectEntriesAround``' columns, a payload
    /// last or `NULL`) at positions within `range`, keeping those cached already but the one with
    /// sequence `replaced`, which the rows' copy replaces.
    private func cache(_ rows: [PostgreSQLRow], within range: Range<Int>, keeping replaced: Int64? = nil) throws {
        for row in rows {
            guard let sequence = try row.decode(Int64.self, at: 10), range.contains(Int(sequence - base)),
                cache[sequence] == nil || sequence == replaced
            else { continue }
            let position = Int(sequence - base)
            var loaded = try cached(from: row, at: position)
            if let payload = try row.decode(Data.self, at: 11) {
                loaded = withStoredPayload(loaded, payload, at: position)
            }
            cache[sequence] = loaded
        }
    }

    /// Caches the entries an undo or a redo reads first, sent with the header's lock
    /// (``HistoryStatements/selectEntriesNextTo(currentIndexBelow:)``), once the header is read.
    func cacheEntriesNextToIndex(_ rows: [PostgreSQLRow]) throws {
        try cache(rows, within: 0..<count)
    }

    /// Reads every entry not cached yet, in one statement: a history's records after another
    /// client's commit (which empties the cache) cost one round trip, not one per entry.
    func loadAll() throws {
        guard (0..<count).contains(where: { cache[sequence(at: $0)] == nil }) else { return }
        let rows = try query(statements.selectEntries, [base, sequence(at: count)])
        guard rows.count == count else {
            throw StoreError(
                .corruptDatabase, "\(place) holds \(rows.count) history entries where its header counts \(count)")
        }
        for (position, row) in rows.enumerated() {
            let sequence = sequence(at: position)
            guard try row.decode(Int64.self, at: 10) == sequence else {
                throw StoreError(
                    .corruptDatabase, "\(place) has lost history entry \(position) (sequence \(sequence))")
            }
            if cache[sequence] == nil { cache[sequence] = try cached(from: row, at: position) }
        }
    }

    /// The entry in a row of ``HistoryStatements/selectEntries`` (or ``HistoryStatements/selectEntriesAround``),
    /// its payload not read.
    private func cached(from row: PostgreSQLRow, at position: Int) throws -> Cached {
        let sequence = sequence(at: position)
        guard let version = try row.decode(Int.self, at: 1), let text = try row.decode(String.self, at: 2),
            let actionText = try row.decode(String.self, at: 3), let significant = try row.decode(Bool.self, at: 5),
            let node = try row.decode(Int64.self, at: 9)
        else {
            throw StoreError(
                .corruptDatabase, "\(place) has a damaged history entry \(position) (sequence \(sequence))")
        }
        let stored = StoredEntry(
            kind: try row.decode(String.self, at: 0), version: version, text: text, actionText: actionText,
            mergeID: try row.decode(Int.self, at: 4), isSignificant: significant, payload: nil)
        let identity = EntryIdentity(
            token: try row.decode(Int64.self, at: 6), recordedAt: try row.decode(Int64.self, at: 7),
            author: try row.decode(String.self, at: 8))
        return Cached(
            entry: Entry(
                content: .stored(
                    stored,
                    Decoding(commands: commands, path: place, position: position, storage: self, sequence: sequence))),
            stored: stored, identity: identity, node: node)
    }

    /// The entry with its payload read (to run or rewrite it).
    private func loadWithPayload(at position: Int) throws -> Cached {
        precondition((0..<count).contains(position), "history position \(position) out of 0..<\(count)")
        let sequence = sequence(at: position)
        guard let cached = cache[sequence] else { return try loadAround(position) }
        guard cached.stored.payload == nil else { return cached }
        let loaded = withStoredPayload(cached, try payload(at: sequence, position: position), at: position)
        cache[sequence] = loaded
        return loaded
    }

    /// `loaded` with its payload, read apart.
    private func withStoredPayload(_ loaded: Cached, _ payload: Data, at position: Int) -> Cached {
        var loaded = loaded
        loaded.stored.payload = payload
        loaded.entry = Entry(
            content: .stored(
                loaded.stored,
                Decoding(
                    commands: commands, path: place, position: position, storage: self,
                    sequence: sequence(at: position))))
        return loaded
    }

    package func payload(at sequence: Int64, position: Int) throws -> Data {
        guard let row = try query(statements.selectPayload, [sequence]).first else {
            throw StoreError(.corruptDatabase, "\(place) has lost history entry \(position) (sequence \(sequence))")
        }
        guard let payload = try row.decode(Data.self, at: 0) else {
            throw StoreError(.corruptDatabase, "\(place) has history entry \(position) without its data")
        }
        return payload
    }

    /// What the history holds about the entry at a position: its identity, texts and time.
    package func record(at position: Int) throws -> HistoryRecord {
        let loaded = try load(at: position)
        return HistoryRecord(
            id: HistoryRecord.ID(sequence: sequence(at: position), token: loaded.identity.token),
            text: loaded.stored.text, actionText: loaded.stored.actionText,
            date: loaded.identity.recordedAt.map { Date(timeIntervalSince1970: Double($0) / 1000) },
            author: loaded.identity.author, kind: loaded.stored.kind)
    }

    /// The row's values after its sequence, in the column order of `insertEntry` and `updateEntry`.
    private func values(of stored: StoredEntry) -> [(any PostgreSQLValue)?] {
        [
            stored.kind, stored.version, stored.text, stored.actionText, stored.mergeID, stored.isSignificant,
            stored.payload,
        ]
    }

    // MARK: HistoryStorage

    package func entry(at position: Int) throws -> Entry {
        try load(at: position).entry
    }

    package func append(_ entry: Entry) throws {
        let stored = try StoredEntry(entry, encoder: encoder)
        let sequence = sequence(at: count)
        let identity = EntryIdentity(token: tokens.next(), recordedAt: EntryIdentity.now(), author: author)
        send(
            later: statements.insertEntry,
            [sequence] + values(of: stored) + [identity.token, identity.recordedAt, identity.author, nextNode])
        cache[sequence] = Cached(entry: entry, stored: stored, identity: identity, node: nextNode)
        nextNode += 1
        count += 1
        changed = true
    }

    package func replaceEntry(at position: Int, with entry: Entry) throws {
        let loaded = try load(at: position)
        try write(entry, at: position, identity: loaded.identity, node: loaded.node, unlessEqualTo: nil)
        changed = true
    }

    private func write(
        _ entry: Entry, at position: Int, identity: EntryIdentity, node: Int64, unlessEqualTo previous: StoredEntry?
    ) throws {
        let stored = try StoredEntry(entry, encoder: encoder)
        let sequence = sequence(at: position)
        if stored != previous {
            send(later: statements.updateEntry, [sequence] + values(of: stored))
        }
        cache[sequence] = Cached(entry: entry, stored: stored, identity: identity, node: node)
    }

    package func modifyEntry<Result>(at position: Int, _ body: (inout Entry) throws -> Result) throws -> Result {
        let loaded = try loadWithPayload(at: position)
        var entry = loaded.entry
        // Decoded first, as on SQLite: an entry obsolete as decoded is skipped, not run once more.
        try? entry.decode()
        changed = true
        let result = try body(&entry)
        // The step's own round trip: a write of its that fails is then its failure, named.
        if sendsEachStepsWrites { try connection.sendDeferredWrites() }
        try write(entry, at: position, identity: loaded.identity, node: loaded.node, unlessEqualTo: loaded.stored)
        return result
    }

    package func removeEntries(from position: Int) throws {
        if position == 0 { try removeAllBranches() }
        let first = sequence(at: position)
        try discardEntries(from: first, upTo: sequence(at: count))
        send(later: statements.deleteFrom, [first])
        cache = cache.filter { $0.key < first }
        if position < count { changed = true }
        count = position
    }

    package func removeFirstEntries(_ k: Int) throws {
        let newBase = sequence(at: k)
        try removeBranchesHanging(below: newBase)
        try discardEntries(from: base, upTo: newBase)
        send(later: statements.deleteBefore, [newBase])
        cache = cache.filter { $0.key >= newBase }
        base = newBase
        count -= k
        changed = true
    }

    package func removeEntry(at position: Int) throws {
        try adoptBranches(ofPathPosition: position)
        let sequence = sequence(at: position)
        send(later: statements.deleteOne, [sequence])
        send(later: statements.shiftDownStart, [sequence])
        send(later: statements.shiftDownFinish, [])
        cache.removeAll(keepingCapacity: true)
        count -= 1
        changed = true
    }

    package func setIndex(_ index: Int) throws {
        guard index != self.index else { return }
        self.index = index
        changed = true
    }

    package func setCleanIndex(_ cleanIndex: Int?) throws {
        guard cleanIndex != self.cleanIndex else { return }
        self.cleanIndex = cleanIndex
        changed = true
    }

    // MARK: Discard actions

    /// Runs the discard actions (`CommandRegistry.register(_:whenDiscarded:)`) of the entries at
    /// sequences `first ..< end`, about to be removed, macros' children included.
    private func discardEntries(from first: Int64, upTo end: Int64) throws {
        guard !commands.discardingKinds.isEmpty, first < end else { return }
        try runDiscardActions(of: try query(statements.selectRange, [first, end])) { sequence in
            "\(place): history entry \(Int(sequence - base)) (sequence \(sequence))"
        }
    }

    /// Runs the discard actions of the entry at `position`, which is about to be replaced: what it
    /// kept for its undo or redo leaves the history with it.
    func discardEntry(at position: Int) throws {
        let sequence = sequence(at: position)
        try discardEntries(from: sequence, upTo: sequence + 1)
    }

    /// Runs the discard actions of rows (an ID, kind, version and payload each) about to be
    /// deleted; rows of kinds without one are skipped.
    func runDiscardActions(of rows: [PostgreSQLRow], context describe: (Int64) -> String) throws {
        for row in rows {
            let context = describe(try row.decode(Int64.self, at: 0) ?? 0)
            let kind = try row.decode(String.self, at: 1)
            if let kind, !commands.discardingKinds.contains(kind) { continue }
            guard let payload = try row.decode(Data.self, at: 3) else {
                throw StoreError(.corruptDatabase, "\(context) has no data to discard")
            }
            guard let kind else {
                try discard(try decoder.decode([StoredEntry].self, from: payload), context: context)
                continue
            }
            try commands.discard(
                kind: kind, version: try row.decode(Int.self, at: 2) ?? 1, payload: payload, context: context)
        }
    }

    /// Runs the discard actions of a macro's children, nested macros included.
    private func discard(_ children: [StoredEntry], context: String) throws {
        for child in children {
            guard let payload = child.payload else { continue }
            if let kind = child.kind {
                try commands.discard(kind: kind, version: child.version, payload: payload, context: context)
            } else {
                try discard(try decoder.decode([StoredEntry].self, from: payload), context: context)
            }
        }
    }

    // MARK: Steps

    package func undoableSteps() throws -> Int {
        try stepStarts(from: 0, to: index)
    }

    /// Every step takes at least one entry, from the path above the index or, at the path's end,
    /// from the branch a redo follows.
    package func redoableEntriesAtMost() throws -> Int {
        guard index < count else { return 0 }
        guard keepsBranches else { return count - index }
        return count - index + (try parkedRowCount())
    }

    /// The path's steps above the index, then those the branches a redo follows would bring.
    package func redoableSteps() throws -> Int {
        guard index < count else { return 0 }
        let onPath = try stepStarts(from: index, to: count)
        guard keepsBranches else { return onPath }
        let end = Int64(try nodeID(at: count - 1).rawValue)
        // Bounded by the rows there are, so a damaged table whose parents form a cycle ends.
        let rows = try query(statements.followedSignificant, [end, try parkedRowCount()])
        return onPath + (try rows.first?.decode(Int.self, at: 0) ?? 0)
    }

    /// The entries at positions `start..<end` that begin a step (one statement, no payload read).
    private func stepStarts(from start: Int, to end: Int) throws -> Int {
        guard start < end else { return 0 }
        let rows = try query(statements.countStepStarts, [sequence(at: start), sequence(at: end)])
        return try rows.first?.decode(Int.self, at: 0) ?? 0
    }
}
#endif

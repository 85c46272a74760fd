internal import CommandKit
import Foundation
import SQLiteDatabase

/// The shared engine's `HistoryStorage` on SQLite: one row per entry, and a one-row header table.
///
/// Rows are keyed by a sequence number; position `p` is sequence `base + p` (from 0), so a push
/// appends its row at the end of the b-tree, SQLite's fast path (and, at the top, writes nothing
/// else). Each row also holds the entry's identity (a random number drawn when it is recorded) and
/// the time it was recorded, which ``record(at:)`` reports. Trimming the oldest
/// entries deletes their rows and advances `base`, so survivors are never renumbered. `count`,
/// `index`, the clean index and the undo limit live in the header row and in memory; the header is
/// written at most once per operation (``flushHeader(takingRevision:)``), inside the operation's
/// transaction, and only when it changed. At the top (`index == count`, the state after every push) the header
/// stores neither: `count` follows from the entry rows (the newest sequence), so a run of pushes
/// inserts rows and leaves the header alone. Entries are decoded one at a time, on demand, with a
/// few kept decoded: opening reads the header and one key, whatever the length. Reading an entry's
/// texts, merge ID or significance reads its row without the payload column (which can be large,
/// and SQLite then leaves its overflow pages alone); the payload is read when the entry must be
/// decoded (run, merged, verified) or rewritten.
///
/// The header also keeps the history's revision (store format 5): a number every committed write
/// transaction that changes the history raises by one, whichever connection commits it, so that
/// commits can be put in one order. It is stored with `revision_sequence`, the next entry's
/// sequence when it was written, and read as `revision + (base + count - revision_sequence)`: a
/// push at the top appends one row, which raises the revision by one with the header left alone
/// (the push's fast path); every other change writes the header, re-anchored when needed.
///
/// The owner (``DurableHistory``) runs each engine operation in a transaction and calls ``reload()``
/// after a rollback, since the in-memory header and cache may then be ahead of the file.
///
/// ## Performance notes
///
/// Measured per push (callgrind and `command-bench store commits`, BENCHMARKS.md "Durable
/// history"): the mutable properties skip the runtime's exclusivity checks (a twentieth of a
/// push; safe because the one owning `DurableHistory` refuses re-entrant calls, so no two accesses
/// overlap); the decoded-entry cache is direct-mapped by sequence rather than a dictionary (a
/// sixteenth); rows are bound from one reused array of typed `DatabaseValue`s rather than boxed
/// `any DatabaseValueConvertible` (a tenth); the file's data version, not a statement, tells
/// whether another connection committed (``reloadIfChangedElsewhere()``).
final class SQLiteHistoryStorage: HistoryStorage, StoredPayloadSource {
    typealias Entry = DurableEntry
    typealias Failure = any Error

    let database: Database
    /// The registered commands, bound to the receiver.
    let commands: BoundCommandDecoder

    // Exclusivity checks skipped: see "Performance notes".
    @exclusivity(unchecked) private(set) var base: Int64 = 0
    @exclusivity(unchecked) var count = 0
    @exclusivity(unchecked) private(set) var index = 0
    @exclusivity(unchecked) private(set) var cleanIndex: Int? = 0
    /// Persisted for the owner; the engine keeps its own copy.
    @exclusivity(unchecked) var undoLimit = 0 {
        didSet {
            headerIsDirty = true
            if undoLimit != oldValue { changedSinceBeginWrite = true }
        }
    }
    @exclusivity(unchecked) var headerIsDirty = false
    /// The history's revision as this connection last read or wrote it (see the type's notes).
    @exclusivity(unchecked) private(set) var revision = 0
    /// Whether the write under way has changed the history since ``beginWrite()``: its commit
    /// then takes the next revision.
    @exclusivity(unchecked) var changedSinceBeginWrite = false
    /// The header row's values as last read or written, to skip rewriting them unchanged.
    @exclusivity(unchecked) private var storedHeader: Header?
    /// Draws each new entry's identity token: seeded from the system's generator, so two processes
    /// appending at the same position draw different tokens.
    @exclusivity(unchecked) private var tokens = EntryTokenGenerator()
    /// Reused for each entry row written (see ``rowValues(_:sequence:identity:)``).
    @exclusivity(unchecked) private var rowBuffer: [DatabaseValue] = []
    /// The number the next recorded step takes (never reused, across processes: see ``reload()``).
    @exclusivity(unchecked) var nextNode: Int64 = 1
    /// The author recorded with each new entry (``DurableHistory/author``).
    @exclusivity(unchecked) var author: String?
    /// Whether rows were deleted since the header was written: the largest number left may then be
    /// below a number already given, so the header must keep ``nextNode`` (a push at the top, whose
    /// row holds the largest number, leaves the header alone).
    @exclusivity(unchecked) var nextNodeMustBeStored = false
    /// Whether a redo tail is parked as a branch rather than removed (format 6).
    @exclusivity(unchecked) var keepsBranches = false
    /// Whether this connection's owner asked for branches (``startKeepingBranches()``).
    @exclusivity(unchecked) var branchesRequested = false
    /// The number of parked rows, counted when first asked (only the undo limit of a tree asks).
    @exclusivity(unchecked) var parkedRows: Int?
    /// The tree's statements, prepared on first use.
    @exclusivity(unchecked) var treeStatements: TreeStatements?

    /// The header row's columns (count and index are `nil` at the top).
    private struct Header: Equatable {
        var base: Int64
        var count: Int64?
        var index: Int64?
        var cleanIndex: Int64?
        var undoLimit: Int64
        /// The revision when the header was written, and the next entry's sequence then.
        var revision: Int64
        var revisionSequence: Int64
        /// The number the next recorded step takes, and whether the history keeps branches (format 6).
        var nextNode: Int64
        var keepsBranches: Bool

        var values: [DatabaseValue] {
            [
                .integer(base),
                count.map { .integer($0) } ?? .null,
                index.map { .integer($0) } ?? .null,
                cleanIndex.map { .integer($0) } ?? .null,
                .integer(undoLimit),
                .integer(revision),
                .integer(revisionSequence),
                .integer(nextNode),
                .integer(keepsBranches ? 1 : 0),
            ]
        }

        /// The revision this header implies when the next entry's sequence is `nextSequence`
        /// (each row appended since it was written is one push), or `nil` on overflow (damage).
        func revision(atNextSequence nextSequence: Int64) -> Int64? {
            let appended = nextSequence.subtractingReportingOverflow(revisionSequence)
            let sum = revision.addingReportingOverflow(appended.partialValue)
            return appended.overflow || sum.overflow ? nil : sum.partialValue
        }
    }

    /// Recently read or written entries by sequence, with their stored form (to skip unchanged writes).
    /// Direct-mapped by sequence: neighbours (what the engine reads) never evict each other, and a
    /// look-up is an index, not a hash.
    @exclusivity(unchecked) private var cache = [CachedEntry?](repeating: nil, count: SQLiteHistoryStorage.cacheSlots)

    /// Cache slots: enough for the entries next to the index and a macro's neighbours.
    private static let cacheSlots = 8

    /// The cache slot of a sequence number.
    private static func cacheSlot(of sequence: Int64) -> Int {
        Int(UInt64(bitPattern: sequence) % UInt64(cacheSlots))
    }

    /// `stored.payload` is `nil` when the row was read for its texts only (then `entry` is
    /// `.stored` without a payload too); ``loadWithPayload(at:)`` completes both.
    private struct CachedEntry {
        let sequence: Int64
        let entry: Entry
        let stored: StoredEntry
        let identity: EntryIdentity
    }

    private let encoder: PayloadEncoder
    private let decoder = JSONDecoder()

    private let selectHeader: Statement
    /// The file's data version when the header was last read, or after our last commit.
    @exclusivity(unchecked) private var dataVersion: UInt32?
    /// `PRAGMA data_version`: it changes with other connections' commits only (not this one's,
    /// nor the application's own writes beside the history), and running it starts a read
    /// transaction, which is when SQLite notices those commits.
    private let pollDataVersion: Statement
    /// What `pollDataVersion` returned when the header was last read.
    @exclusivity(unchecked) private var otherConnectionsVersion: Int64?
    private let selectNewestSequence: Statement
    private let updateHeader: Statement
    /// Every column of an entry row but its payload.
    private let selectEntry: Statement
    private let selectPayload: Statement
    private let insertEntry: Statement
    private let updateEntry: Statement
    private let deleteFrom: Statement
    private let deleteBefore: Statement
    private let deleteOne: Statement
    private let shiftDownStart: Statement
    private let shiftDownFinish: Statement
    /// The rows in a range whose commands have a discard action, or are macros that may hold one;
    /// `nil` when no registered kind has one (then removing entries reads nothing).
    let selectDiscarding: Statement?

    init(database: Database, commands: BoundCommandDecoder) throws {
        self.database = database
        self.commands = commands
        // JSON as JSONDecoder reads it, written by an encoder of our own at a fraction of
        // JSONEncoder's cost. Keys in encoding order: a command that encodes a dictionary may
        // produce different bytes for an equal value, which costs a needless UPDATE, never a wrong one.
        self.encoder = PayloadEncoder()
        selectHeader = try StoreSchema.prepareHeaderQuery(database)
        selectNewestSequence = try database.prepare(
            "SELECT sequence FROM commandstore_history_entry ORDER BY sequence DESC LIMIT 1"
        )
        pollDataVersion = try database.prepare("PRAGMA data_version")
        updateHeader = try database.prepare(
            """
            UPDATE commandstore_history_header
            SET base = ?, count = ?, current_index = ?, clean_index = ?, undo_limit = ?, revision = ?, revision_sequence = ?,
                next_node = ?, keeps_branches = ?
            WHERE singleton = 1
            """
        )
        // The payload comes after these columns in the row: SQLite reads them without reading it.
        selectEntry = try database.prepare(
            """
            SELECT kind, version, text, action_text, merge_id, significant, step_id, recorded_at, author
            FROM commandstore_history_entry WHERE sequence = ?
            """
        )
        selectPayload = try database.prepare("SELECT payload FROM commandstore_history_entry WHERE sequence = ?")
        insertEntry = try database.prepare(
            """
            INSERT INTO commandstore_history_entry
                (kind, version, text, action_text, merge_id, significant, payload, sequence, step_id, recorded_at, node, author)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        )
        updateEntry = try database.prepare(
            """
            UPDATE commandstore_history_entry
            SET kind = ?, version = ?, text = ?, action_text = ?, merge_id = ?, significant = ?, payload = ?
            WHERE sequence = ?
            """
        )
        deleteFrom = try database.prepare(
            "DELETE FROM commandstore_history_entry WHERE sequence >= ?"
        )
        deleteBefore = try database.prepare(
            "DELETE FROM commandstore_history_entry WHERE sequence < ?"
        )
        deleteOne = try database.prepare("DELETE FROM commandstore_history_entry WHERE sequence = ?")
        // Two passes through negative numbers: shifting in place could collide on the primary key.
        shiftDownStart = try database.prepare(
            "UPDATE commandstore_history_entry SET sequence = -sequence WHERE sequence > ?"
        )
        shiftDownFinish = try database.prepare(
            "UPDATE commandstore_history_entry SET sequence = -sequence - 1 WHERE sequence < 0"
        )
        let discarding = commands.discardingKinds
        // One bound `?` per kind: the kinds themselves are bound, never spelled into the SQL.
        let placeholders = Array(repeating: "?", count: discarding.count).joined(separator: ", ")
        selectDiscarding =
            discarding.isEmpty
            ? nil
            : try database.prepare(
                """
                SELECT sequence, kind, version, payload FROM commandstore_history_entry
                WHERE sequence >= ? AND sequence < ?
                AND (kind IS NULL OR kind IN (\(placeholders)))
                ORDER BY sequence
                """
            )
        try reload()
    }

    /// Rereads the header and forgets decoded entries when the file changed since they were read
    /// or written. Call at the start of each operation's write transaction: another process may
    /// have pushed, undone or trimmed in between, and positions computed from a stale header would
    /// collide with its rows.
    ///
    /// The file's data version counts every commit, this connection's too: ``noteCommitted()``
    /// records the version each of our own commits leaves, so only a change made elsewhere (or
    /// by the application outside the history) rereads. Any change missed in between errs on the
    /// safe side: a reread.
    ///
    /// - Complexity: O(1): no statement; the header is reread only after a change made elsewhere.
    /// - Returns: Whether it reread (another connection committed since the last read).
    @discardableResult
    func reloadIfChangedElsewhere() throws -> Bool {
        let current = try database.dataVersion()
        guard current != dataVersion else { return false }
        try reload()
        return true
    }

    /// Whether another connection has committed since the header was last read: one statement,
    /// `PRAGMA data_version`, which outside a transaction starts and ends a read transaction of
    /// its own. This connection's own commits (the application writing beside the history) do not
    /// count, so an idle view that writes its own state never rereads for it.
    ///
    /// - Complexity: O(1): no table is read. Cheap enough to call ten times a second while a view
    ///   is open (BENCHMARKS.md, "Live changes").
    func changedElsewhere() throws -> Bool {
        try pollDataVersion.fetchOne()?.decode(Int64.self, at: 0) != otherConnectionsVersion
    }

    /// Records the data version our own commit left (call right after it, before any other
    /// transaction: a transaction is when another connection's commits are counted).
    func noteCommitted() {
        dataVersion = try? database.dataVersion()
    }

    /// Rereads the header and forgets decoded entries (after a rollback, or at open).
    ///
    /// Outside a transaction it opens a read transaction of its own: the header and the newest
    /// entry row must come from one snapshot, or another process's commit landing between the two
    /// reads would look like damage (entries past the count).
    func reload() throws {
        guard database.isInsideTransaction else {
            try database.inTransaction(.deferred) {
                try reload()
                return .commit
            }
            return
        }
        forgetCachedEntries { _ in true }
        headerIsDirty = false
        // Read before the header: a change counted by the reads below then shows next time. The
        // pragma's statement also starts the read transaction (deferred until the first read).
        otherConnectionsVersion = try pollDataVersion.fetchOne()?.decode(Int64.self, at: 0)
        dataVersion = try database.dataVersion()
        guard let row = try selectHeader.fetchOne() else {
            throw StoreError(
                .corruptDatabase,
                "\(database.path) has lost its durable history header row",
                path: database.path
            )
        }
        base = try row.decode(Int64.self, at: 0)
        if row[2].isNull {
            // At the top: the count is the number of entry rows, base ... newest sequence.
            let newest = try selectNewestSequence.fetchOne()?.decode(Int64.self, at: 0)
            count =
                try newest.map { newest in
                    // Wrapping-checked: `base` comes from the file, and a damaged one may hold any value.
                    let distance = newest.subtractingReportingOverflow(base)
                    guard newest >= base, !distance.overflow, distance.partialValue < Int64.max,
                        let count = Int(exactly: distance.partialValue + 1)
                    else {
                        throw StoreError(
                            .corruptDatabase,
                            "\(database.path) has durable history entries before its base (\(newest) < \(base))",
                            path: database.path
                        )
                    }
                    return count
                } ?? 0
            index = count
        } else {
            count = try row.decode(Int.self, at: 1)
            index = try row.decode(Int.self, at: 2)
            guard count >= 0, !base.addingReportingOverflow(Int64(count)).overflow else {
                throw StoreError(
                    .corruptDatabase,
                    "\(database.path) has an impossible durable history header (count \(count) from sequence \(base))",
                    path: database.path
                )
            }
            // Rows past the count exist only in a damaged file; the next header written "at the
            // top" would silently turn them into steps.
            if let newest = try selectNewestSequence.fetchOne()?.decode(Int64.self, at: 0),
                newest.subtractingReportingOverflow(base).overflow || newest - base >= Int64(count)
            {
                throw StoreError(
                    .corruptDatabase,
                    "\(database.path) has durable history entries past its count (\(count) from sequence \(base), newest \(newest))",
                    path: database.path
                )
            }
        }
        cleanIndex = try row.decode(Int?.self, at: 3)
        undoLimit = try row.decode(Int.self, at: 4)
        let header = Header(
            base: base,
            // As stored (anything but an integer, as in a damaged file, is rewritten at the next flush).
            count: { if case .integer(let value) = row[1] { value } else { nil } }(),
            index: { if case .integer(let value) = row[2] { value } else { nil } }(),
            cleanIndex: cleanIndex.map(Int64.init),
            undoLimit: Int64(undoLimit),
            revision: try row.decode(Int64.self, at: 5),
            revisionSequence: try row.decode(Int64.self, at: 6),
            nextNode: try row.decode(Int64.self, at: 7),
            keepsBranches: try row.decode(Bool.self, at: 8)
        )
        keepsBranches = header.keepsBranches || branchesRequested
        parkedRows = nil
        nextNodeMustBeStored = false
        // The header's number may predate pushes made at the top since (they leave the header alone):
        // the largest number in either table says what is taken.
        nextNode = max(header.nextNode, try largestNodeNumber() + 1)
        guard let implied = header.revision(atNextSequence: nextSequence), let revision = Int(exactly: implied) else {
            throw StoreError(
                .corruptDatabase,
                "\(database.path) has an impossible durable history revision (\(header.revision) at sequence "
                    + "\(header.revisionSequence), next sequence \(nextSequence))",
                path: database.path
            )
        }
        self.revision = revision
        storedHeader = header
        headerIsDirty = false
        guard count >= 0, (0...count).contains(index), cleanIndex.map({ (0...count).contains($0) }) ?? true else {
            throw StoreError(
                .corruptDatabase,
                "\(database.path) has an inconsistent durable history header (count \(count), index \(index), "
                    + "clean index \(cleanIndex.map(String.init) ?? "none"))",
                path: database.path
            )
        }
    }

    /// Starts counting the changes of one write transaction (call at its start, before any change):
    /// its commit takes the next revision if it changes the history.
    func beginWrite() {
        changedSinceBeginWrite = false
    }

    /// Writes the header if an operation changed it. Call inside the operation's transaction.
    ///
    /// At the top, count and index are stored as NULL (the entry rows say them): a push that keeps
    /// the history at the top changes nothing in the header, and this writes nothing.
    ///
    /// - Parameter takingRevision: Whether this flush ends the transaction's history calls (not a
    ///   call inside an open macro): if the history changed since ``beginWrite()``, the revision
    ///   becomes the next one. Within one transaction it is taken once.
    func flushHeader(takingRevision: Bool = true) throws {
        if takingRevision && changedSinceBeginWrite {
            revision += 1
            changedSinceBeginWrite = false
            headerIsDirty = true
        }
        guard headerIsDirty else { return }
        let atTop = index == count
        let next = nextSequence
        // Kept as stored while it still implies the revision (a push at the top: one more row is
        // one more revision), re-anchored at the next sequence otherwise.
        var revisionColumns = (revision: Int64(revision), sequence: next)
        if let storedHeader, storedHeader.revision(atNextSequence: next) == Int64(revision) {
            revisionColumns = (storedHeader.revision, storedHeader.revisionSequence)
        }
        // Compared as plain values: building the row's array for every push cost an allocation.
        let header = Header(
            base: base,
            count: atTop ? nil : Int64(count),
            index: atTop ? nil : Int64(index),
            cleanIndex: cleanIndex.map(Int64.init),
            undoLimit: Int64(undoLimit),
            revision: revisionColumns.revision,
            revisionSequence: revisionColumns.sequence,
            nextNode: nextNodeMustBeStored ? nextNode : storedHeader?.nextNode ?? nextNode,
            keepsBranches: keepsBranches
        )
        if header != storedHeader {
            try updateHeader.execute(values: header.values)
            storedHeader = header
            nextNodeMustBeStored = false
        }
        headerIsDirty = false
    }

    /// Drops the cached entries whose sequence matches.
    func forgetCachedEntries(where matches: (Int64) -> Bool) {
        for slot in cache.indices {
            if let cached = cache[slot], matches(cached.sequence) { cache[slot] = nil }
        }
    }

    func sequence(at position: Int) -> Int64 {
        base + Int64(position)
    }

    /// The sequence the next appended entry takes.
    private var nextSequence: Int64 { sequence(at: count) }

    private func remember(_ entry: Entry, _ stored: StoredEntry, _ identity: EntryIdentity, at sequence: Int64) {
        cache[Self.cacheSlot(of: sequence)] = CachedEntry(
            sequence: sequence, entry: entry, stored: stored, identity: identity)
    }

    /// The entry and its stored form at a position, read without the payload on a cache miss.
    ///
    /// The entry is `.stored` then: enough for its texts, merge ID and significance; decoding it
    /// reads the payload (``payload(at:position:)``).
    private func load(at position: Int) throws -> (entry: Entry, stored: StoredEntry, identity: EntryIdentity) {
        precondition((0..<count).contains(position), "history position \(position) out of 0..<\(count)")
        let sequence = sequence(at: position)
        if let cached = cache[Self.cacheSlot(of: sequence)], cached.sequence == sequence {
            return (cached.entry, cached.stored, cached.identity)
        }
        guard let row = try selectEntry.fetchOne([sequence]) else {
            throw StoreError(
                .corruptDatabase,
                "\(database.path) has lost durable history entry \(position) (sequence \(sequence))",
                path: database.path
            )
        }
        let stored = StoredEntry(
            kind: try row.decode(String?.self, at: 0),
            version: try row.decode(Int.self, at: 1),
            text: try row.decode(String.self, at: 2),
            // NULL: the same as the text (format 3 writes it so; earlier rows spell it out).
            actionText: try row.decode(String?.self, at: 3) ?? row.decode(String.self, at: 2),
            mergeID: try row.decode(Int?.self, at: 4),
            isSignificant: try row.decode(Bool.self, at: 5),
            payload: nil
        )
        let identity = EntryIdentity(
            token: try row.decode(Int64?.self, at: 6), recordedAt: try row.decode(Int64?.self, at: 7),
            author: try row.decode(String?.self, at: 8))
        let entry = Entry(content: .stored(stored, decoding(at: position, sequence: sequence)))
        remember(entry, stored, identity, at: sequence)
        return (entry, stored, identity)
    }

    /// The entry and its stored form at a position, payload included (to run or rewrite the entry).
    ///
    /// Completes a cached entry read for its texts: the texts come from the cache (the same row,
    /// since the cache is forgotten whenever rows move or the file changes), the payload is read.
    private func loadWithPayload(
        at position: Int
    ) throws -> (entry: Entry, stored: StoredEntry, identity: EntryIdentity) {
        var loaded = try load(at: position)
        guard loaded.stored.payload == nil else { return loaded }
        let sequence = sequence(at: position)
        loaded.stored.payload = try payload(at: sequence, position: position)
        loaded.entry = Entry(content: .stored(loaded.stored, decoding(at: position, sequence: sequence)))
        remember(loaded.entry, loaded.stored, loaded.identity, at: sequence)
        return loaded
    }

    private func decoding(at position: Int, sequence: Int64) -> Decoding {
        Decoding(commands: commands, path: database.path, position: position, storage: self, sequence: sequence)
    }

    /// The payload column of the entry row at a sequence.
    ///
    /// - Parameters:
    ///   - sequence: The row's sequence number.
    ///   - position: The entry's position, for messages.
    /// - Returns: The payload.
    /// - Throws: ``StoreError`` (`corruptDatabase`) when the row is gone or its payload is not a
    ///   blob (NULL or text, as in a damaged file); a database error when reading fails.
    func payload(at sequence: Int64, position: Int) throws -> Data {
        guard let row = try selectPayload.fetchOne([sequence]) else {
            throw StoreError(
                .corruptDatabase,
                "\(database.path) has lost durable history entry \(position) (sequence \(sequence))",
                path: database.path
            )
        }
        guard case .blob(let payload) = row[0] else {
            let problem = row[0].isNull ? "without its data" : "whose data is not a blob"
            throw StoreError(
                .corruptDatabase,
                "\(database.path) has durable history entry \(position) (sequence \(sequence)) \(problem)",
                path: database.path
            )
        }
        return payload
    }

    /// The row's values, in the column order of `insertEntry` and `updateEntry`, then the sequence,
    /// in `rowValues` (one array kept for every write), as typed values.
    ///
    /// An insert also binds the entry's identity columns (`identity`); an update leaves them alone.
    private func rowValues(
        _ stored: StoredEntry, sequence: Int64, identity: EntryIdentity? = nil, node: Int64? = nil
    ) -> [DatabaseValue] {
        rowBuffer.removeAll(keepingCapacity: true)
        rowBuffer.append(stored.kind.map { .text($0) } ?? .null)
        rowBuffer.append(.integer(Int64(stored.version)))
        rowBuffer.append(.text(stored.text))
        rowBuffer.append(stored.actionText == stored.text ? .null : .text(stored.actionText))
        rowBuffer.append(stored.mergeID.map { .integer(Int64($0)) } ?? .null)
        rowBuffer.append(.integer(stored.isSignificant ? 1 : 0))
        // Never nil: StoredEntry(_:encoder:) reads the payload of an entry read without it. Unwrapped
        // in place: binding it first cost every push a retain and a release.
        rowBuffer.append(.blob(stored.payload!))
        rowBuffer.append(.integer(sequence))
        if let identity {
            rowBuffer.append(identity.token.map { .integer($0) } ?? .null)
            rowBuffer.append(identity.recordedAt.map { .integer($0) } ?? .null)
        }
        if let node { rowBuffer.append(.integer(node)) }
        if let identity { rowBuffer.append(identity.author.map { .text($0) } ?? .null) }
        return rowBuffer
    }

    // MARK: HistoryStorage

    func entry(at position: Int) throws -> Entry {
        try load(at: position).entry
    }

    /// What the history holds about the entry at a position: its identity, texts and time.
    ///
    /// - Complexity: O(1): one indexed row without its payload, or none when cached.
    func record(at position: Int) throws -> HistoryRecord {
        let (_, stored, identity) = try load(at: position)
        return HistoryRecord(
            id: HistoryRecord.ID(sequence: sequence(at: position), token: identity.token),
            text: stored.text,
            actionText: stored.actionText,
            date: identity.recordedAt.map { Date(timeIntervalSince1970: Double($0) / 1000) },
            author: identity.author
        )
    }

    func append(_ entry: Entry) throws {
        let stored = try StoredEntry(entry, encoder: encoder)
        let sequence = sequence(at: count)
        let identity = EntryIdentity(token: tokens.next(), recordedAt: EntryIdentity.now(), author: author)
        try insertEntry.execute(values: rowValues(stored, sequence: sequence, identity: identity, node: nextNode))
        nextNode += 1
        count += 1
        headerIsDirty = true
        changedSinceBeginWrite = true
        remember(entry, stored, identity, at: sequence)
    }

    func replaceEntry(at position: Int, with entry: Entry) throws {
        changedSinceBeginWrite = true
        try write(entry, at: position, identity: try load(at: position).identity, unlessEqualTo: nil)
    }

    private func write(
        _ entry: Entry, at position: Int, identity: EntryIdentity, unlessEqualTo previous: StoredEntry?
    ) throws {
        let stored = try StoredEntry(entry, encoder: encoder)
        let sequence = sequence(at: position)
        if stored != previous {
            try updateEntry.execute(values: rowValues(stored, sequence: sequence))
        }
        // The row keeps its identity and time: a merged or rerun entry is still the same step.
        remember(entry, stored, identity, at: sequence)
    }

    func modifyEntry<Result>(at position: Int, _ body: (inout Entry) throws -> Result) throws -> Result {
        // With its payload: `body` runs or merges the entry, and the comparison below needs it.
        let loaded = try loadWithPayload(at: position)
        var entry = loaded.entry
        // Decoded before `body` looks at it: a stored entry whose command is obsolete as decoded
        // must be skipped and removed, as an `UndoStack` skips it, not run once more first (an
        // undecoded entry cannot say it is obsolete). Every caller runs or merges it anyway; one
        // that does not decode is left to `body` (a run reports it, a merge records apart).
        try? entry.decode()
        // A command runs (undo, redo, a merge): a change even when its stored bytes stay the same.
        changedSinceBeginWrite = true
        let result = try body(&entry)
        // Most commands do not change when they run again: skip the UPDATE when the bytes agree.
        try write(entry, at: position, identity: loaded.identity, unlessEqualTo: loaded.stored)
        return result
    }

    /// Runs the discard actions (``CommandRegistry/register(_:whenDiscarded:)``) of the entries at
    /// sequences `first ..< end`, which are about to be removed, macros' children included.
    private func discardEntries(from first: Int64, upTo end: Int64) throws {
        guard let selectDiscarding, first < end else { return }
        let arguments: [any DatabaseValueConvertible] = [first, end] + commands.discardingKinds
        try runDiscardActions(of: try selectDiscarding.fetchAll(arguments)) { sequence in
            "\(database.path): history entry \(Int(sequence - base)) (sequence \(sequence))"
        }
    }

    /// Runs the discard actions of rows (an ID, kind, version and payload each) about to be deleted;
    /// rows of kinds without one are skipped.
    func runDiscardActions(of rows: [Row], context describe: (Int64) -> String) throws {
        for row in rows {
            let context = describe(try row.decode(Int64.self, at: 0))
            let kind = try row.decode(String?.self, at: 1)
            if let kind, !commands.discardingKinds.contains(kind) { continue }
            guard case .blob(let payload) = row[3] else {
                throw StoreError(.corruptDatabase, "\(context) has no data to discard", path: database.path)
            }
            guard let kind else {
                let children = try decoder.decode([StoredEntry].self, from: payload)
                try discard(children, context: context)
                continue
            }
            try commands.discard(
                kind: kind, version: try row.decode(Int.self, at: 2), payload: payload, context: context)
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

    /// Runs the discard actions of the entry at `position`, which is about to be replaced: what it
    /// kept for its undo or redo leaves the history with it.
    func discardEntry(at position: Int) throws {
        let sequence = sequence(at: position)
        try discardEntries(from: sequence, upTo: sequence + 1)
    }

    func removeEntries(from position: Int) throws {
        nextNodeMustBeStored = true
        if position == 0 { try removeAllBranches() }
        let first = sequence(at: position)
        try discardEntries(from: first, upTo: sequence(at: count))
        try deleteFrom.execute([first])
        forgetCachedEntries { $0 >= first }
        if position < count { changedSinceBeginWrite = true }
        count = position
        headerIsDirty = true
    }

    func removeFirstEntries(_ k: Int) throws {
        nextNodeMustBeStored = true
        let newBase = sequence(at: k)
        try removeBranchesHanging(below: newBase)
        try discardEntries(from: base, upTo: newBase)
        try deleteBefore.execute([newBase])
        forgetCachedEntries { $0 < newBase }
        base = newBase
        count -= k
        headerIsDirty = true
        changedSinceBeginWrite = true
    }

    func removeEntry(at position: Int) throws {
        nextNodeMustBeStored = true
        try adoptBranches(ofPathPosition: position)
        let sequence = sequence(at: position)
        try deleteOne.execute([sequence])
        try shiftDownStart.execute([sequence])
        try shiftDownFinish.execute()
        forgetCachedEntries { _ in true }
        count -= 1
        headerIsDirty = true
        changedSinceBeginWrite = true
    }

    func setIndex(_ index: Int) throws {
        guard index != self.index else { return }
        self.index = index
        headerIsDirty = true
        changedSinceBeginWrite = true
    }

    func setCleanIndex(_ cleanIndex: Int?) throws {
        guard cleanIndex != self.cleanIndex else { return }
        self.cleanIndex = cleanIndex
        headerIsDirty = true
        changedSinceBeginWrite = true
    }
}

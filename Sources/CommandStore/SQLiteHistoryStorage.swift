internal import CommandKit
import Foundation

/// The shared engine's `HistoryStorage` on SQLite: one row per entry, one header row.
///
/// Rows are keyed by a sequence number; position `p` is sequence `base + p`. The header row, in the
/// same table, has the largest possible sequence number, so it lives on the page the newest entries
/// go to: a push dirties one history page instead of two. Trimming the oldest
/// entries deletes their rows and advances `base`, so survivors are never renumbered. `count`,
/// `index`, the clean index and the undo limit live in the header row and in memory; the header is
/// written once per operation (``flushHeader()``), inside the operation's transaction. Entries are
/// decoded one at a time, on demand, with a few kept decoded: opening reads the header only.
///
/// The owner (``DurableHistory``) runs each engine operation in a transaction and calls ``reload()``
/// after a rollback, since the in-memory header and cache may then be ahead of the file.
final class SQLiteHistoryStorage<Receiver>: HistoryStorage {
    typealias Entry = DurableEntry<Receiver>
    typealias Failure = any Error

    let database: Database
    let registry: CommandRegistry<Receiver>
    let receiver: Receiver

    private(set) var base: Int64 = 0
    private(set) var count = 0
    private(set) var index = 0
    private(set) var cleanIndex: Int? = 0
    /// Persisted for the owner; the engine keeps its own copy.
    var undoLimit = 0 {
        didSet { headerIsDirty = true }
    }
    private var headerIsDirty = false

    /// Recently read or written entries by sequence, with their stored form (to skip unchanged writes).
    private var cache: [Int64: (entry: Entry, stored: StoredEntry)] = [:]
    private static var cacheLimit: Int { 8 }

    private let encoder: JSONEncoder
    private let decoder = JSONDecoder()

    private let selectHeader: Statement
    /// `PRAGMA data_version`: changes when another connection (another process) commits.
    private let selectDataVersion: Statement
    /// The data version the header was read at.
    private var dataVersion: Int64?
    private let updateHeader: Statement
    private let selectEntry: Statement
    private let insertEntry: Statement
    private let updateEntry: Statement
    private let deleteFrom: Statement
    private let deleteBefore: Statement
    private let deleteOne: Statement
    private let shiftDownStart: Statement
    private let shiftDownFinish: Statement

    init(database: Database, registry: CommandRegistry<Receiver>, receiver: Receiver) throws {
        self.database = database
        self.registry = registry
        self.receiver = receiver
        // Keys in encoding order (not sorted: sorting costs a tenth of a push). A command that
        // encodes a dictionary may then produce different bytes for an equal value, which costs a
        // needless UPDATE after it runs, never a wrong one.
        self.encoder = JSONEncoder()
        selectHeader = try StoreSchema.prepareHeaderQuery(database)
        selectDataVersion = try database.prepare("PRAGMA data_version")
        updateHeader = try database.prepare(
            """
            UPDATE commandstore_history_entry SET base = ?, count = ?, current_index = ?, clean_index = ?, undo_limit = ?
            WHERE sequence = \(StoreSchema.headerSequence)
            """
        )
        selectEntry = try database.prepare(
            "SELECT kind, version, text, action_text, merge_id, significant, payload FROM commandstore_history_entry WHERE sequence = ?"
        )
        insertEntry = try database.prepare(
            """
            INSERT INTO commandstore_history_entry (kind, version, text, action_text, merge_id, significant, payload, sequence)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
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
            "DELETE FROM commandstore_history_entry WHERE sequence >= ? AND sequence < \(StoreSchema.headerSequence)"
        )
        deleteBefore = try database.prepare("DELETE FROM commandstore_history_entry WHERE sequence < ?")
        deleteOne = try database.prepare("DELETE FROM commandstore_history_entry WHERE sequence = ?")
        // Two passes through negative numbers: shifting in place could collide on the primary key.
        shiftDownStart = try database.prepare(
            "UPDATE commandstore_history_entry SET sequence = -sequence WHERE sequence > ? AND sequence < \(StoreSchema.headerSequence)"
        )
        shiftDownFinish = try database.prepare(
            "UPDATE commandstore_history_entry SET sequence = -sequence - 1 WHERE sequence < 0"
        )
        try reload()
    }

    /// Rereads the header and forgets decoded entries when another connection has committed since
    /// they were read. Call at the start of each operation's write transaction: another process
    /// may have pushed, undone or trimmed in between, and positions computed from a stale header
    /// would collide with its rows.
    ///
    /// - Complexity: O(1): one pragma; the header is reread only after another connection's commit.
    func reloadIfChangedElsewhere() throws {
        let current = try selectDataVersion.fetchOne()?.decode(Int64.self, at: 0)
        guard current != dataVersion else { return }
        try reload()
    }

    /// Rereads the header and forgets decoded entries (after a rollback, or at open).
    func reload() throws {
        cache.removeAll()
        headerIsDirty = false
        dataVersion = try selectDataVersion.fetchOne()?.decode(Int64.self, at: 0)
        guard let row = try selectHeader.fetchOne() else {
            throw StoreError(
                .corruptDatabase,
                "\(database.path) has lost its durable history header row",
                path: database.path
            )
        }
        base = try row.decode(Int64.self, at: 0)
        count = try row.decode(Int.self, at: 1)
        index = try row.decode(Int.self, at: 2)
        cleanIndex = try row.decode(Int?.self, at: 3)
        undoLimit = try row.decode(Int.self, at: 4)
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

    /// Writes the header if an operation changed it. Call inside the operation's transaction.
    func flushHeader() throws {
        guard headerIsDirty else { return }
        try updateHeader.execute([base, count, index, cleanIndex, undoLimit])
        headerIsDirty = false
    }

    private func sequence(at position: Int) -> Int64 {
        base + Int64(position)
    }

    private func remember(_ entry: Entry, _ stored: StoredEntry, at sequence: Int64) {
        if cache.count >= Self.cacheLimit, cache[sequence] == nil { cache.removeAll(keepingCapacity: true) }
        cache[sequence] = (entry, stored)
    }

    /// The entry and its stored form at a position.
    private func load(at position: Int) throws -> (entry: Entry, stored: StoredEntry) {
        precondition((0..<count).contains(position), "history position \(position) out of 0..<\(count)")
        let sequence = sequence(at: position)
        if let cached = cache[sequence] { return cached }
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
            actionText: try row.decode(String.self, at: 3),
            mergeID: try row.decode(Int?.self, at: 4),
            isSignificant: try row.decode(Bool.self, at: 5),
            payload: try row.decode(Data.self, at: 6)
        )
        let decoding = Decoding(registry: registry, receiver: receiver, path: database.path, context: "\(database.path): history entry \(position)")
        let entry = Entry(content: .stored(stored, decoding))
        remember(entry, stored, at: sequence)
        return (entry, stored)
    }

    private static func arguments(_ stored: StoredEntry) -> [any DatabaseValueConvertible] {
        [stored.kind, stored.version, stored.text, stored.actionText, stored.mergeID, stored.isSignificant, stored.payload]
    }

    // MARK: HistoryStorage

    func entry(at position: Int) throws -> Entry {
        try load(at: position).entry
    }

    func append(_ entry: Entry) throws {
        let stored = try StoredEntry(entry, encoder: encoder)
        let sequence = sequence(at: count)
        try insertEntry.execute(Self.arguments(stored) + [sequence])
        count += 1
        headerIsDirty = true
        remember(entry, stored, at: sequence)
    }

    func replaceEntry(at position: Int, with entry: Entry) throws {
        try write(entry, at: position, unlessEqualTo: nil)
    }

    private func write(_ entry: Entry, at position: Int, unlessEqualTo previous: StoredEntry?) throws {
        let stored = try StoredEntry(entry, encoder: encoder)
        let sequence = sequence(at: position)
        if stored != previous {
            try updateEntry.execute(Self.arguments(stored) + [sequence])
        }
        remember(entry, stored, at: sequence)
    }

    func modifyEntry<Result>(at position: Int, _ body: (inout Entry) throws -> Result) throws -> Result {
        let loaded = try load(at: position)
        var entry = loaded.entry
        let result = try body(&entry)
        // Most commands do not change when they run again: skip the UPDATE when the bytes agree.
        try write(entry, at: position, unlessEqualTo: loaded.stored)
        return result
    }

    func removeEntries(from position: Int) throws {
        let first = sequence(at: position)
        try deleteFrom.execute([first])
        cache = cache.filter { $0.key < first }
        count = position
        headerIsDirty = true
    }

    func removeFirstEntries(_ k: Int) throws {
        let newBase = sequence(at: k)
        try deleteBefore.execute([newBase])
        cache = cache.filter { $0.key >= newBase }
        base = newBase
        count -= k
        headerIsDirty = true
    }

    func removeEntry(at position: Int) throws {
        let sequence = sequence(at: position)
        try deleteOne.execute([sequence])
        try shiftDownStart.execute([sequence])
        try shiftDownFinish.execute()
        cache.removeAll(keepingCapacity: true)
        count -= 1
        headerIsDirty = true
    }

    func setIndex(_ index: Int) throws {
        guard index != self.index else { return }
        self.index = index
        headerIsDirty = true
    }

    func setCleanIndex(_ cleanIndex: Int?) throws {
        guard cleanIndex != self.cleanIndex else { return }
        self.cleanIndex = cleanIndex
        headerIsDirty = true
    }
}

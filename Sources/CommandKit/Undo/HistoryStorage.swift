/// Where a ``HistoryEngine`` keeps its entries, its index and its clean index.
///
/// The engine owns every rule (truncating the redo tail, merging, macros, the clean index,
/// limit trimming, obsolete removal, significance, texts); a storage only keeps data. Two
/// storages exist: `MemoryHistoryStorage` (a ring buffer, behind ``UndoStack``) and the
/// SQLite storage of `CommandStore`, which must be able to implement every requirement
/// lazily: the engine never walks the whole storage when it opens, pushes, undoes or redoes.
///
/// ## Positions
/// Positions are logical and zero-based: the oldest entry kept is at position 0 and the
/// newest at `count - 1`. After ``removeFirstEntries(_:)`` the survivors are renumbered
/// logically (the old position `k` becomes 0); a persistent storage does this with a base
/// offset instead of rewriting rows.
///
/// ## Index and clean index
/// `index` is the number of entries that are currently done (`0...count`): entries below it
/// have been redone, entries at or above it have been undone and form the redo tail.
/// `cleanIndex` is the index that was marked clean ("document saved"), or `nil` when no index
/// is clean any more. The storage only records these two values: the engine computes them and
/// calls ``setIndex(_:)`` / ``setCleanIndex(_:)``. It never relies on the storage adjusting
/// them as a side effect of removing entries, so a storage must not adjust them itself.
///
/// ## Operations and atomicity
/// One engine operation (one push, undo, redo, jump, outermost macro end, clear, …) calls
/// several requirements in a row. If a requirement throws, the engine stops the operation
/// immediately and rethrows. A persistent storage is expected to run each engine operation in
/// one transaction (its owner wraps the call) and to roll the whole operation back on any
/// error, including an error thrown by a command. The engine keeps no copy of `count`,
/// `index` or `cleanIndex`, so after a rollback nothing in the engine needs resynchronising,
/// except an open macro (see below).
///
/// ## Macros
/// The children of an open macro stay in memory inside the engine; they reach the storage
/// only as one ``append(_:)`` of `Entry.macro(text:children:)` when the outermost macro ends.
/// The redo tail is truncated when the outermost macro begins (its children change the
/// document). A persistent storage therefore wraps `beginMacro` … `endMacro` of the outermost
/// macro in one transaction.
///
/// ## Change log
/// - v1 (initial): the requirements below.
/// - v2: added ``readEntry(at:_:)`` (has a default implementation: nothing to do).
/// - v3: branches (``keepsBranches`` and the requirements after it), with default
///   implementations for a linear storage: nothing to do unless the storage keeps branches.
///
/// ## Branches
/// A storage that ``keepsBranches`` holds a tree (see ``HistoryNode``). Its positions are the
/// *current path*: from the oldest kept entry through the index to the end of the redo steps. The
/// other branches are *parked*: the engine parks a redo tail instead of removing it
/// (``parkEntries(from:)``) and brings a parked node back onto the path at its end
/// (``unparkEntry(_:)``) when it redoes into it or jumps to it. The engine keeps one invariant: at
/// the path's end (`index == count`) no parked node hangs off the last entry, so ``HistoryEngine/canRedo`` and
/// the redo texts read the path alone.
public protocol HistoryStorage {
    /// The entry type: a command that can redo and undo itself (against its receiver).
    associatedtype Entry: HistoryEntry
    /// The error the storage itself can throw (`Never` for memory).
    ///
    /// Declare it (`typealias Failure = any Error`) rather than letting it be inferred: a
    /// nested type named `Failure` in the conforming type would be picked up instead.
    associatedtype Failure: Error = any Error

    /// The number of entries kept (open macros not included).
    ///
    /// Read on every engine operation: must be O(1) (a persistent storage keeps it in its
    /// header, never `SELECT count(*)`).
    var count: Int { get }

    /// The number of entries that are done, in `0...count`. O(1), read on every operation.
    var index: Int { get }

    /// The clean index, or `nil` when there is none, in `0...count` when not `nil`. O(1).
    var cleanIndex: Int? { get }

    /// Returns the entry at a position, `0 ..< count`.
    ///
    /// Called to read texts, merge IDs and significance, typically for the entries just below
    /// and at the index. A persistent storage decodes one row here (it may cache a few).
    /// - Parameter position: A valid position.
    /// - Throws: `Failure` when the entry cannot be read (for example, it cannot be decoded).
    func entry(at position: Int) throws(Failure) -> Entry

    /// Runs `body` on the entry at a position without keeping a copy, and returns its result.
    ///
    /// Used for the engine's frequent reads (merge ID, significance, obsolescence, texts).
    /// The default implementation calls `body(try entry(at: position))`; the memory storage
    /// overrides it to lend the stored entry without copying it.
    /// - Throws: `Failure` when the entry cannot be read.
    func readEntry<Result>(at position: Int, _ body: (Entry) -> Result) throws(Failure) -> Result

    /// Stores `entry` at position `count`, making `count` one larger. Does not change `index`.
    ///
    /// Called by push (after the new entry ran) and at the end of the outermost macro. The
    /// engine has already removed the redo tail, so `index == count` when this is called.
    func append(_ entry: Entry) throws(Failure)

    /// Replaces the entry at a position (`0 ..< count`).
    ///
    /// Called after a successful merge into the entry on top, after redo/undo mutated an
    /// entry (through the default ``modifyEntry(at:_:)``), and when the engine renames an entry.
    func replaceEntry(at position: Int, with entry: Entry) throws(Failure)

    /// Removes the entries at `position ..< count` (the redo tail), making `count == position`.
    ///
    /// Called by push and by the outermost `beginMacro` when `index < count`; then
    /// `position == index`. Also called by `clear()` with `position == 0`.
    func removeEntries(from position: Int) throws(Failure)

    /// Removes the `k` oldest entries (limit trimming), `0 < k <= count`.
    ///
    /// The survivor at old position `k` becomes position 0. Called only when an undo limit is
    /// set, right after an append made `count` exceed it (usually `k == 1`), or when the limit
    /// is lowered. Must be O(k): a persistent storage deletes `k` rows and advances a base
    /// offset instead of renumbering the survivors.
    func removeFirstEntries(_ k: Int) throws(Failure)

    /// Removes one entry at `position` (`0 ..< count`); later entries move down by one.
    ///
    /// Called when an entry turned obsolete: the entry that just ran (at `index - 1` or
    /// `index`, or near it during a jump), or the entry on top after a merge. Entries after it
    /// are the (usually short) redo tail, so renumbering them is acceptable.
    func removeEntry(at position: Int) throws(Failure)

    /// Records the index, in `0...count`.
    func setIndex(_ index: Int) throws(Failure)

    /// Records the clean index (`nil`: no clean state), in `0...count` when not `nil`.
    func setCleanIndex(_ cleanIndex: Int?) throws(Failure)

    /// Runs `body` on the entry at a position and keeps what it did to the entry.
    ///
    /// The engine runs `redo()`/`undo()` through this requirement. The default implementation
    /// reads the entry with ``entry(at:)``, runs `body`, then writes the entry back with
    /// ``replaceEntry(at:with:)``; if `body` throws, nothing is written back (the enclosing
    /// transaction is rolled back anyway). The memory storage overrides it to mutate in place.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` or the storage throws.
    func modifyEntry<Result>(at position: Int, _ body: (inout Entry) throws -> Result) throws -> Result

    // MARK: Branches (v3)

    /// Whether the storage keeps branches (a tree): `false` (the default) for a linear history.
    var keepsBranches: Bool { get }

    /// The number of parked entries (the nodes off the current path). O(1).
    var parkedCount: Int { get }

    /// The node the entry at a position is, `0 ..< count`.
    func nodeID(at position: Int) throws(Failure) -> HistoryNode.ID

    /// The position of a node on the current path, or `nil` when it is parked or not in the tree.
    ///
    /// Node numbers grow along the path (a step is recorded after the one before it), so a storage
    /// may search the path by number.
    func pathPosition(of node: HistoryNode.ID) throws(Failure) -> Int?

    /// Moves the entries at `position ..< count` off the path, into the parked branches, keeping
    /// each one's node and parent; `count` becomes `position`. The default removes them
    /// (``removeEntries(from:)``), as a linear storage does.
    func parkEntries(from position: Int) throws(Failure)

    /// The parent of a parked node, or `nil` when the node is not parked.
    func parkedParent(of node: HistoryNode.ID) throws(Failure) -> HistoryNode.ID?

    /// The parked child of `node` (a path node, or ``HistoryNode/ID/root``) that was on the path
    /// most recently: the branch a redo follows (vim's rule). `nil` when none.
    func latestParkedChild(of node: HistoryNode.ID) throws(Failure) -> HistoryNode.ID?

    /// Moves a parked node, whose parent is the path's last node (or the root when the path is
    /// empty), onto the path at position `count`. Does not change `index`.
    func unparkEntry(_ node: HistoryNode.ID) throws(Failure)

    /// The oldest parked node (the smallest number), or `nil` when none is parked.
    func oldestParkedNode() throws(Failure) -> HistoryNode.ID?

    /// Removes a parked node and every node below it, without running them.
    func removeParkedBranch(_ node: HistoryNode.ID) throws(Failure)

    /// The node recorded just before (`before == true`) or just after `node` that is still in the
    /// tree, on any branch, or `nil` when none (``HistoryNode/ID/root`` is never returned).
    func chronologicalNeighbor(of node: HistoryNode.ID, before: Bool) throws(Failure) -> HistoryNode.ID?

    /// The newest node recorded at or before a time (milliseconds since 1970), or `nil`.
    func latestNode(recordedAtOrBefore time: Int64) throws(Failure) -> HistoryNode.ID?

    /// Every node of the tree, path and parked, oldest first.
    func nodes() throws(Failure) -> [HistoryNode]
}

extension HistoryStorage {
    /// Calls `body` on ``entry(at:)``: for storages that keep no entry to lend in place.
    public func readEntry<Result>(at position: Int, _ body: (Entry) -> Result) throws(Failure) -> Result {
        body(try entry(at: position))
    }

    /// Reads the entry with ``entry(at:)``, runs `body`, then writes the entry back with
    /// ``replaceEntry(at:with:)`` (nothing is written back if `body` throws).
    public func modifyEntry<Result>(
        at position: Int,
        _ body: (inout Entry) throws -> Result
    ) throws -> Result {
        var entry = try entry(at: position)
        let result = try body(&entry)
        try replaceEntry(at: position, with: entry)
        return result
    }
}

/// A linear storage's branch requirements: no branches; nodes numbered by position.
extension HistoryStorage {
    /// `false`: a linear history.
    public var keepsBranches: Bool { false }
    /// 0: nothing is ever parked.
    public var parkedCount: Int { 0 }
    /// The position plus one.
    public func nodeID(at position: Int) throws(Failure) -> HistoryNode.ID { HistoryNode.ID(position + 1) }
    /// The number less one, when on the path.
    public func pathPosition(of node: HistoryNode.ID) throws(Failure) -> Int? {
        node.rawValue >= 1 && node.rawValue <= count ? node.rawValue - 1 : nil
    }
    /// Removes the entries (``removeEntries(from:)``).
    public func parkEntries(from position: Int) throws(Failure) { try removeEntries(from: position) }
    /// `nil`: nothing is parked.
    public func parkedParent(of node: HistoryNode.ID) throws(Failure) -> HistoryNode.ID? { nil }
    /// `nil`: nothing is parked.
    public func latestParkedChild(of node: HistoryNode.ID) throws(Failure) -> HistoryNode.ID? { nil }
    /// Never called for a linear storage.
    public func unparkEntry(_ node: HistoryNode.ID) throws(Failure) {}
    /// `nil`: nothing is parked.
    public func oldestParkedNode() throws(Failure) -> HistoryNode.ID? { nil }
    /// Never called for a linear storage.
    public func removeParkedBranch(_ node: HistoryNode.ID) throws(Failure) {}
    /// The path neighbour.
    public func chronologicalNeighbor(of node: HistoryNode.ID, before: Bool) throws(Failure) -> HistoryNode.ID? {
        let next = node.rawValue + (before ? -1 : 1)
        return next >= 1 && next <= count ? HistoryNode.ID(next) : nil
    }
    /// `nil`: a linear storage records no times.
    public func latestNode(recordedAtOrBefore time: Int64) throws(Failure) -> HistoryNode.ID? { nil }
    /// The path, as nodes without times.
    public func nodes() throws(Failure) -> [HistoryNode] {
        var nodes: [HistoryNode] = []
        for position in 0..<count {
            let texts = try readEntry(at: position) { ($0.text, $0.actionText) }
            nodes.append(
                HistoryNode(
                    id: HistoryNode.ID(position + 1), parent: HistoryNode.ID(position), text: texts.0,
                    actionText: texts.1, recordedAt: nil, isOnPath: true))
        }
        return nodes
    }
}

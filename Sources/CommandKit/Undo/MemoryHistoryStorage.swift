/// The in-memory ``HistoryStorage``: a growable ring buffer of entries stored inline.
///
/// Entries live in one contiguous allocation that doubles when full, so a push costs no
/// allocation of its own (amortized), and removing the oldest entries (limit trimming) only
/// advances the head: O(k), never a shift of the survivors.
///
/// A class so the engine can mutate entries in place through a `let`; it is owned by exactly
/// one ``HistoryEngine`` and never shared, hence not `Sendable`.
final class MemoryHistoryStorage<Entry: HistoryEntry>: HistoryStorage {
    typealias Failure = Never

    // Exclusivity is not checked dynamically on these properties (the checks cost a third of
    // a push): the storage belongs to one engine, whose owner (`UndoStack`) refuses re-entrant
    // calls with a precondition, so no two accesses to them can overlap.

    /// Physical slots; `capacity` of them, `count` initialized starting at `head` (wrapping).
    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<Entry>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var head = 0

    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private(set) var index = 0
    @exclusivity(unchecked) private(set) var cleanIndex: Int? = 0

    /// How many entries limit trimming has removed from the front: the entry at position `p` is
    /// the `trimmed + p`-th entry ever kept, which a trim does not change.
    @exclusivity(unchecked) private(set) var trimmed = 0
    /// Counts removals other than trimming (redo tail, obsolete entries, clearing): an entry's
    /// ``UndoRecord/ID`` names its absolute position in one generation, so an entry recorded at
    /// the same position after a removal never has the ID of the one it replaced.
    @exclusivity(unchecked) private(set) var generation = 0

    /// Whether a redo tail is parked rather than removed (a tree).
    let keepsBranches: Bool
    /// The nodes and parked branches of a storage that keeps branches (empty and unused for a linear
    /// one: an optional's unwrapping cost each push a retain and a release).
    @exclusivity(unchecked) private let branches: MemoryBranches<Entry>

    /// Creates an empty, clean storage.
    /// - Parameter keepsBranches: Whether a redo tail is parked rather than removed (a tree).
    init(keepsBranches: Bool = false) {
        capacity = 0
        buffer = UnsafeMutablePointer<Entry>.allocate(capacity: 0)
        self.keepsBranches = keepsBranches
        branches = MemoryBranches()
    }

    deinit {
        deinitialize(0, count)
        buffer.deallocate()
    }

    /// The physical slot of a logical position (`0 ..< capacity` for positions `0 ..< capacity`).
    @inline(__always)
    private func slot(_ position: Int) -> Int {
        let physical = head &+ position
        return physical >= capacity ? physical &- capacity : physical
    }

    /// Deinitializes the entries at logical positions `from ..< to`.
    @inline(__always)
    private func deinitialize(_ from: Int, _ to: Int) {
        var position = from
        while position < to {
            (buffer + slot(position)).deinitialize(count: 1)
            position += 1
        }
    }

    private func grow() {
        let newCapacity = Swift.max(16, capacity &* 2)
        let newBuffer = UnsafeMutablePointer<Entry>.allocate(capacity: newCapacity)
        // Two segments: head ..< capacity, then the wrapped part 0 ..< rest.
        let first = Swift.min(count, capacity - head)
        newBuffer.moveInitialize(from: buffer + head, count: first)
        (newBuffer + first).moveInitialize(from: buffer, count: count - first)
        buffer.deallocate()
        buffer = newBuffer
        capacity = newCapacity
        head = 0
    }

    func entry(at position: Int) -> Entry {
        precondition(position >= 0 && position < count, "history position out of range")
        return buffer[slot(position)]
    }

    @inline(__always)
    func readEntry<Result>(at position: Int, _ body: (Entry) -> Result) -> Result {
        precondition(position >= 0 && position < count, "history position out of range")
        // Through an inout access: exclusivity lets the entry be lent in place, where a plain
        // read of the pointee is copied first (the callee could write through the pointer).
        return Self.lend(&buffer[slot(position)], to: body)
    }

    @inline(__always)
    private static func lend<Result>(_ entry: inout Entry, to body: (Entry) -> Result) -> Result {
        body(entry)
    }

    @inline(__always)
    func append(_ entry: Entry) {
        if count == capacity { grow() }
        (buffer + slot(count)).initialize(to: entry)
        count += 1
        if keepsBranches { branches.appendNew() }
    }

    func replaceEntry(at position: Int, with entry: Entry) {
        precondition(position >= 0 && position < count, "history position out of range")
        buffer[slot(position)] = entry
    }

    func removeEntries(from position: Int) {
        precondition(position >= 0 && position <= count, "history position out of range")
        if position < count { generation &+= 1 }
        deinitialize(position, count)
        if keepsBranches {
            if position == 0 { branches.removeAll() } else { branches.removePath(from: position) }
        }
        count = position
        if count == 0 { head = 0 }
    }

    func removeFirstEntries(_ k: Int) {
        precondition(k >= 0 && k <= count, "history trim out of range")
        deinitialize(0, k)
        if keepsBranches { branches.removePathFirst(k) }
        trimmed &+= k
        head = count == k ? 0 : slot(k)
        count -= k
    }

    func removeEntry(at position: Int) {
        precondition(position >= 0 && position < count, "history position out of range")
        (buffer + slot(position)).deinitialize(count: 1)
        if keepsBranches {
            branches.adoptChildren(ofPathPosition: position)
            branches.removePath(at: position)
        }
        generation &+= 1
        var hole = position
        while hole + 1 < count {
            (buffer + slot(hole)).moveInitialize(from: buffer + slot(hole + 1), count: 1)
            hole += 1
        }
        count -= 1
        if count == 0 { head = 0 }
    }

    @inline(__always)
    func setIndex(_ index: Int) {
        self.index = index
    }

    func setCleanIndex(_ cleanIndex: Int?) {
        self.cleanIndex = cleanIndex
    }

    @inline(__always)
    func modifyEntry<Result>(at position: Int, _ body: (inout Entry) throws -> Result) rethrows -> Result {
        precondition(position >= 0 && position < count, "history position out of range")
        return try body(&buffer[slot(position)])
    }

    // MARK: - Branches

    var parkedCount: Int { branches.parkedCount }

    func nodeID(at position: Int) -> HistoryNode.ID {
        precondition(position >= 0 && position < count, "history position out of range")
        guard keepsBranches else { return HistoryNode.ID(trimmed + position + 1) }
        return HistoryNode.ID(branches.node(at: position))
    }

    func pathPosition(of node: HistoryNode.ID) -> Int? {
        guard keepsBranches else {
            let position = node.rawValue - 1 - trimmed
            return position >= 0 && position < count ? position : nil
        }
        return branches.pathPosition(of: node.rawValue)
    }

    func parkEntries(from position: Int) {
        guard keepsBranches else { return removeEntries(from: position) }
        precondition(position >= 0 && position <= count, "history position out of range")
        guard position < count else { return }
        var moved: [Entry] = []
        moved.reserveCapacity(count - position)
        for p in position..<count { moved.append((buffer + slot(p)).move()) }
        branches.park(moved, from: position)
        generation &+= 1
        count = position
        if count == 0 { head = 0 }
    }

    func parkedParent(of node: HistoryNode.ID) -> HistoryNode.ID? {
        branches.parked[node.rawValue].map { HistoryNode.ID($0.parent) }
    }

    func latestParkedChild(of node: HistoryNode.ID) -> HistoryNode.ID? {
        branches.latestParkedChild(of: node.rawValue).map(HistoryNode.ID.init)
    }

    func unparkEntry(_ node: HistoryNode.ID) {
        guard keepsBranches else { return }
        let entry = branches.unpark(node.rawValue)
        if count == capacity { grow() }
        (buffer + slot(count)).initialize(to: entry)
        count += 1
    }

    func oldestParkedNode() -> HistoryNode.ID? {
        branches.oldestParked.map(HistoryNode.ID.init)
    }

    func removeParkedBranch(_ node: HistoryNode.ID) {
        branches.removeParkedBranch(node.rawValue)
    }

    func chronologicalNeighbor(of node: HistoryNode.ID, before: Bool) -> HistoryNode.ID? {
        guard keepsBranches else {
            let next = node.rawValue + (before ? -1 : 1)
            return pathPosition(of: HistoryNode.ID(next)) != nil ? HistoryNode.ID(next) : nil
        }
        return branches.chronologicalNeighbor(of: node.rawValue, before: before).map(HistoryNode.ID.init)
    }

    func latestNode(recordedAtOrBefore time: Int64) -> HistoryNode.ID? {
        keepsBranches ? branches.latestNode(recordedAtOrBefore: time).map(HistoryNode.ID.init) : nil
    }

    func nodes() -> [HistoryNode] {
        var nodes: [HistoryNode] = []
        for position in 0..<count {
            let id = nodeID(at: position)
            let parent = position == 0 ? HistoryNode.ID.root : nodeID(at: position - 1)
            let time = keepsBranches ? branches.time(at: position) : nil
            nodes.append(
                readEntry(at: position) {
                    HistoryNode(
                        id: id, parent: parent, text: $0.text, actionText: $0.actionText, recordedAt: time,
                        isOnPath: true)
                })
        }
        for (id, node) in branches.parked {
            nodes.append(
                HistoryNode(
                    id: HistoryNode.ID(id), parent: HistoryNode.ID(node.parent), text: node.entry.text,
                    actionText: node.entry.actionText, recordedAt: node.time, isOnPath: false))
        }
        return nodes.sorted { $0.id < $1.id }
    }
}

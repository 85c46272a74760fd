/// What a branching `MemoryHistoryStorage` keeps beside its ring of entries: each path entry's
/// node, and the parked branches (see ``HistoryStorage``'s "Branches").
///
/// Node numbers grow along the path and in time, so the path and the sorted list of parked numbers
/// are searched by bisection: no operation walks the tree, except ``nodes()``.
final class MemoryBranches<Entry> {
    /// A path entry's node number and recording time.
    struct PathNode {
        var id: Int
        var time: Int64
    }

    /// A parked node: its entry, its parent, its recording time, and when it left the path.
    struct Parked {
        var entry: Entry
        var parent: Int
        var time: Int64
        /// Raised at each park: the largest among siblings is the branch a redo follows.
        var visit: Int
    }

    /// The path's nodes: position `p` is `path[pathStart + p]`.
    private(set) var path: [PathNode] = []
    private var pathStart = 0
    private(set) var parked: [Int: Parked] = [:]
    /// Each node's parked children.
    private var children: [Int: [Int]] = [:]
    /// The parked numbers, ascending.
    private var parkedIDs: [Int] = []
    private var nextNode = 1
    private var visits = 0

    var parkedCount: Int { parkedIDs.count }

    func node(at position: Int) -> Int { path[pathStart + position].id }

    func time(at position: Int) -> Int64 { path[pathStart + position].time }

    /// The node before the entry at `position` on the path (0, the root, for the first).
    func parent(ofPathPosition position: Int) -> Int { position == 0 ? 0 : node(at: position - 1) }

    // MARK: Mirroring the ring

    func appendNew() {
        path.append(PathNode(id: nextNode, time: WallClock.milliseconds()))
        nextNode += 1
    }

    func removePath(from position: Int) {
        path.removeSubrange((pathStart + position)...)
    }

    func removePath(at position: Int) {
        path.remove(at: pathStart + position)
    }

    /// Forgets the `k` first path nodes, and the parked branches hanging off them or off the root:
    /// with the state they branch from gone, no jump can reach them.
    func removePathFirst(_ k: Int) {
        removeParkedChildren(of: 0)
        for position in 0..<k { removeParkedChildren(of: node(at: position)) }
        pathStart += k
        // Compact once most of the array is dead, so trimming stays O(k) amortized.
        if pathStart > 32, pathStart * 2 > path.count {
            path.removeFirst(pathStart)
            pathStart = 0
        }
    }

    func removeAll() {
        path.removeAll()
        pathStart = 0
        parked.removeAll()
        children.removeAll()
        parkedIDs.removeAll()
    }

    // MARK: Parking

    /// Parks `entries`, the path's entries from `position` on (oldest first), as one branch.
    func park(_ entries: [Entry], from position: Int) {
        visits += 1
        for (offset, entry) in entries.enumerated() {
            let node = path[pathStart + position + offset]
            let parent = parent(ofPathPosition: position + offset)
            parked[node.id] = Parked(entry: entry, parent: parent, time: node.time, visit: visits)
            children[parent, default: []].append(node.id)
            parkedIDs.insert(node.id, at: insertionIndex(of: node.id, in: parkedIDs))
        }
        removePath(from: position)
    }

    /// Takes a parked node off the parked branches and puts it at the path's end; returns its entry.
    func unpark(_ id: Int) -> Entry {
        guard let node = parked.removeValue(forKey: id) else { preconditionFailure("history node \(id) is not parked") }
        children[node.parent]?.removeAll { $0 == id }
        if children[node.parent]?.isEmpty == true { children[node.parent] = nil }
        parkedIDs.remove(at: insertionIndex(of: id, in: parkedIDs))
        path.append(PathNode(id: id, time: node.time))
        return node.entry
    }

    func latestParkedChild(of parent: Int) -> Int? {
        children[parent]?.max { parked[$0]!.visit < parked[$1]!.visit }
    }

    func removeParkedBranch(_ id: Int) {
        guard let node = parked.removeValue(forKey: id) else { return }
        children[node.parent]?.removeAll { $0 == id }
        if children[node.parent]?.isEmpty == true { children[node.parent] = nil }
        parkedIDs.remove(at: insertionIndex(of: id, in: parkedIDs))
        removeParkedChildren(of: id)
    }

    private func removeParkedChildren(of parent: Int) {
        for child in children[parent] ?? [] { removeParkedBranch(child) }
    }

    var oldestParked: Int? { parkedIDs.first }

    // MARK: Searching

    func pathPosition(of id: Int) -> Int? {
        var low = pathStart
        var high = path.count
        while low < high {
            let middle = (low + high) / 2
            if path[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < path.count && path[low].id == id ? low - pathStart : nil
    }

    func chronologicalNeighbor(of id: Int, before: Bool) -> Int? {
        let onPath = neighbor(of: id, before: before, count: path.count - pathStart) {
            self.path[self.pathStart + $0].id
        }
        let offPath = neighbor(of: id, before: before, count: parkedIDs.count) { self.parkedIDs[$0] }
        switch (onPath, offPath) {
        case (let a?, let b?): return before ? max(a, b) : min(a, b)
        case (let a?, nil): return a
        case (nil, let b?): return b
        case (nil, nil): return nil
        }
    }

    /// The largest number below `id` (or smallest above) in an ascending sequence.
    private func neighbor(of id: Int, before: Bool, count: Int, _ number: (Int) -> Int) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if before ? number(middle) < id : number(middle) <= id { low = middle + 1 } else { high = middle }
        }
        if before { return low > 0 ? number(low - 1) : nil }
        return low < count ? number(low) : nil
    }

    func latestNode(recordedAtOrBefore time: Int64) -> Int? {
        let onPath = last(count: path.count - pathStart) { self.path[self.pathStart + $0].time <= time }
            .map { path[pathStart + $0].id }
        let offPath = last(count: parkedIDs.count) { self.parked[self.parkedIDs[$0]]!.time <= time }
            .map { parkedIDs[$0] }
        return [onPath, offPath].compactMap { $0 }.max()
    }

    /// The last index of `0 ..< count` where `isBefore` holds (it holds on a prefix).
    private func last(count: Int, where isBefore: (Int) -> Bool) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(middle) { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? low - 1 : nil
    }

    private func insertionIndex(of id: Int, in sorted: [Int]) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

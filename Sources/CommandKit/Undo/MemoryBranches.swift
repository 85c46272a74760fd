/// What a branching `MemoryHistoryStorage` keeps beside its ring of entries: each path entry's
/// node, and the parked branches (see ``HistoryStorage``'s "Branches").
///
/// Node numbers grow along the path and in time, so the path and the sorted list of parked numbers
/// are searched by bisection: no operation walks the tree, except ``nodes()``. A path entry costs
/// four bytes here (its time, to the second); its number is kept in runs (``Run``).
///
/// Exclusivity is not checked dynamically on its properties (the checks cost a push more than the
/// branches themselves): it belongs to one storage, whose stack refuses re-entrant calls.
final class MemoryBranches<Entry> {
    /// A run of path positions whose node numbers follow each other (`id`, `id + 1`, …): steps
    /// pushed one after another, the common case, take one run, so a path entry costs no memory
    /// for its number.
    struct Run {
        /// The first position of the run, counted from the first entry ever kept.
        var start: Int
        var id: Int
        var count: Int
    }

    /// A parked node: its entry, its parent, its recording time, and when it left the path.
    struct Parked {
        var entry: Entry
        var parent: Int
        var time: Int64
        /// Raised at each park: the largest among siblings is the branch a redo follows.
        var visit: Int
    }

    /// The path's node numbers, as runs of absolute positions (position `p` is `pathStart + p`),
    /// but the last one, ``openRun``.
    @exclusivity(unchecked) private var runs: [Run] = []
    /// The run a push extends, kept out of ``runs`` so that extending it touches no array (a
    /// count of 0: none).
    @exclusivity(unchecked) private var openRun = Run(start: 0, id: 0, count: 0)
    /// Each path entry's recording time in whole seconds after ``epoch``: four bytes an entry,
    /// from the first entry ever kept (``pathStart`` is the path's first). A raw buffer, not an
    /// array: an array's append checks uniqueness and capacity, a fifth of a push's extra cost.
    @exclusivity(unchecked) private var times = UnsafeMutablePointer<UInt32>.allocate(capacity: 16)
    @exclusivity(unchecked) private var timesCount = 0
    @exclusivity(unchecked) private var timesCapacity = 16
    @exclusivity(unchecked) private var pathStart = 0
    /// The recording times' origin, in seconds since 1970.
    private let epoch = WallClock.seconds()
    @exclusivity(unchecked) private(set) var parked: [Int: Parked] = [:]
    /// Each node's parked children.
    @exclusivity(unchecked) private var children: [Int: [Int]] = [:]
    /// The parked numbers, ascending.
    @exclusivity(unchecked) private var parkedIDs: [Int] = []
    @exclusivity(unchecked) private var nextNode = 1
    @exclusivity(unchecked) private var visits = 0

    deinit { times.deallocate() }

    var parkedCount: Int { parkedIDs.count }

    /// The number of path entries.
    private var pathCount: Int { timesCount - pathStart }

    func node(at position: Int) -> Int {
        let absolute = pathStart + position
        if openRun.count > 0, absolute >= openRun.start { return openRun.id + (absolute - openRun.start) }
        var low = 0
        var high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].start <= absolute { low = middle + 1 } else { high = middle }
        }
        let run = runs[low - 1]
        return run.id + (absolute - run.start)
    }

    /// The recording time of a path entry, in milliseconds since 1970 (to the second).
    func time(at position: Int) -> Int64 { (epoch + Int64(times[pathStart + position])) * 1000 }

    /// The node before the entry at `position` on the path (0, the root, for the first).
    func parent(ofPathPosition position: Int) -> Int { position == 0 ? 0 : node(at: position - 1) }

    // MARK: Mirroring the ring

    @inline(__always)
    private func appendPath(id: Int, seconds: UInt32) {
        // The open run always ends at the last entry (every edit of the path closes it first).
        if openRun.count > 0, openRun.id &+ openRun.count == id {
            openRun.count &+= 1
        } else {
            closeRun()
            openRun = Run(start: timesCount, id: id, count: 1)
        }
        if timesCount == timesCapacity { growTimes() }
        times[timesCount] = seconds
        timesCount &+= 1
    }

    private func growTimes() {
        let larger = UnsafeMutablePointer<UInt32>.allocate(capacity: timesCapacity * 2)
        larger.moveInitialize(from: times, count: timesCount)
        times.deallocate()
        times = larger
        timesCapacity *= 2
    }

    /// Moves ``openRun`` into ``runs``, for the operations that edit the runs.
    private func closeRun() {
        guard openRun.count > 0 else { return }
        runs.append(openRun)
        openRun.count = 0
    }

    @inline(__always)
    func appendNew() {
        appendPath(id: nextNode, seconds: UInt32(clamping: WallClock.seconds() - epoch))
        nextNode += 1
    }

    func removePath(from position: Int) {
        closeRun()
        let absolute = pathStart + position
        timesCount = absolute
        while let last = runs.last, last.start >= absolute { runs.removeLast() }
        if let last = runs.last, last.start + last.count > absolute {
            runs[runs.count - 1].count = absolute - last.start
        }
    }

    /// Before the path entry at `position` goes (it turned obsolete): the branches growing from
    /// it grow from its parent now, the same state (an obsolete step changes nothing).
    func adoptChildren(ofPathPosition position: Int) {
        let removed = node(at: position)
        guard let orphans = children.removeValue(forKey: removed) else { return }
        let parent = parent(ofPathPosition: position)
        for orphan in orphans { parked[orphan]?.parent = parent }
        children[parent, default: []] += orphans
    }

    func removePath(at position: Int) {
        // Rare (an obsolete entry): the entries after it are renumbered, so their runs are rebuilt.
        let later = (position + 1..<pathCount).map { (node(at: $0), times[pathStart + $0]) }
        removePath(from: position)
        for (id, seconds) in later { appendPath(id: id, seconds: seconds) }
    }

    /// Forgets the `k` first path nodes, and the parked branches hanging off them or off the root:
    /// with the state they branch from gone, no jump can reach them.
    func removePathFirst(_ k: Int) {
        removeParkedChildren(of: 0)
        for position in 0..<k { removeParkedChildren(of: node(at: position)) }
        pathStart += k
        // Compact once most of the arrays are dead, so trimming stays O(k) amortized.
        if pathStart > 32, pathStart * 2 > timesCount {
            closeRun()
            times.update(from: times + pathStart, count: timesCount - pathStart)  // overlapping: a memmove
            timesCount -= pathStart
            runs = runs.compactMap { run in
                var run = run
                run.start -= pathStart
                if run.start < 0 {
                    run.id -= run.start
                    run.count += run.start
                    run.start = 0
                }
                return run.count > 0 ? run : nil
            }
            pathStart = 0
        }
    }

    func removeAll() {
        runs.removeAll()
        openRun.count = 0
        timesCount = 0
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
            let id = node(at: position + offset)
            let parent = parent(ofPathPosition: position + offset)
            parked[id] = Parked(entry: entry, parent: parent, time: time(at: position + offset), visit: visits)
            children[parent, default: []].append(id)
            parkedIDs.insert(id, at: insertionIndex(of: id, in: parkedIDs))
        }
        removePath(from: position)
    }

    /// Takes a parked node off the parked branches and puts it at the path's end; returns its entry.
    func unpark(_ id: Int) -> Entry {
        guard let node = parked.removeValue(forKey: id) else { preconditionFailure("history node \(id) is not parked") }
        children[node.parent]?.removeAll { $0 == id }
        if children[node.parent]?.isEmpty == true { children[node.parent] = nil }
        parkedIDs.remove(at: insertionIndex(of: id, in: parkedIDs))
        appendPath(id: id, seconds: UInt32(clamping: node.time / 1000 - epoch))
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
        var low = 0
        var high = pathCount
        while low < high {
            let middle = (low + high) / 2
            if node(at: middle) < id { low = middle + 1 } else { high = middle }
        }
        return low < pathCount && node(at: low) == id ? low : nil
    }

    func chronologicalNeighbor(of id: Int, before: Bool) -> Int? {
        let onPath = neighbor(of: id, before: before, count: pathCount) { self.node(at: $0) }
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
        let onPath = last(count: pathCount) { self.time(at: $0) <= time }.map { node(at: $0) }
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

internal import CommandKit
import SQLiteDatabase

/// How many steps an undo or redo of several steps could take, counted from the rows without
/// running a command, so that ``DurableHistory/undo(steps:expecting:)`` and
/// ``DurableHistory/redo(steps:expecting:)`` refuse a count the history cannot hold before doing
/// any of it (issue 27, H3: `undo 1000000` on a 100,000-step history undid every step, holding
/// the write lock for seconds, and then rolled it all back).
///
/// A step is a significant entry and the insignificant ones after it (a run of insignificant
/// entries at the bottom is a step of its own), as `HistoryEngine` counts them.
extension SQLiteHistoryStorage {
    /// The most steps a redo could take now, from the header alone (and, in a tree, the number of
    /// parked rows): every step takes at least one entry, from the path above the index or, at
    /// the path's end, from the branch a redo follows. A count above it is sure to be refused.
    package func redoableEntriesAtMost() throws -> Int {
        guard index < count else { return 0 }
        guard keepsBranches else { return count - index }
        return count - index + (try parkedRowCount())
    }

    /// The steps below the index: what ``HistoryEngine/undo()`` could undo one after the other.
    ///
    /// - Complexity: One statement reading the rows below the index (no payload decoded).
    package func undoableSteps() throws -> Int {
        try stepStarts(from: 0, to: index)
    }

    /// The steps above the index: the path's, then those a redo would bring onto it from the
    /// branches it follows at the path's end (the latest visited child, each time).
    ///
    /// - Complexity: One statement reading the rows above the index, and in a tree one following
    ///   the branch below the path's end by its index.
    package func redoableSteps() throws -> Int {
        guard index < count else { return 0 }
        let onPath = try stepStarts(from: index, to: count)
        guard keepsBranches else { return onPath }
        let end = try nodeID(at: count - 1).rawValue
        // Bounded by the rows there are, so a damaged file whose parents form a cycle ends.
        let limit = try parkedRowCount()
        let followed = try database.cachedStatement(
            """
            WITH RECURSIVE followed(node, significant, depth) AS (
                SELECT node, significant, 1 FROM commandstore_history_branch
                    WHERE node = (SELECT node FROM commandstore_history_branch WHERE parent = ?1
                                  ORDER BY visit DESC, node DESC LIMIT 1)
                UNION ALL
                SELECT b.node, b.significant, followed.depth + 1 FROM followed JOIN commandstore_history_branch b
                    ON b.node = (SELECT c.node FROM commandstore_history_branch c WHERE c.parent = followed.node
                                 ORDER BY c.visit DESC, c.node DESC LIMIT 1)
                    WHERE followed.depth < ?2
            )
            SELECT coalesce(sum(significant <> 0), 0) FROM followed
            """
        ).fetchOne([end, limit])
        // The path's last step goes on through the insignificant rows it brings; each
        // significant one begins a step.
        return onPath + (try followed?.decode(Int.self, at: 0) ?? 0)
    }

    /// The entries at positions `start..<end` that begin a step: the one at `start` (a step
    /// begins there: the bottom, or the index), and every significant one after it.
    private func stepStarts(from start: Int, to end: Int) throws -> Int {
        guard start < end else { return 0 }
        let row = try database.cachedStatement(
            """
            SELECT count(*) FROM commandstore_history_entry
            WHERE sequence >= ?1 AND sequence < ?2 AND (sequence = ?1 OR significant <> 0)
            """
        ).fetchOne([sequence(at: start), sequence(at: end)])
        return try row?.decode(Int.self, at: 0) ?? 0
    }

    /// The number of parked rows, counted now (``parkedCount`` turns a failure into 0, which
    /// would make a bound too small).
    private func parkedRowCount() throws -> Int {
        if let parkedRows { return parkedRows }
        let counted = try tree().countParked.fetchOne()?.decode(Int.self, at: 0) ?? 0
        parkedRows = counted
        return counted
    }
}

package import CommandKit
import SQLiteDatabase

/// The tree of a branching durable history (store format 6): the path is the entry table, as for
/// a linear history; the branches off it are rows of `commandstore_history_branch`, each with its
/// parent node and the revision at which it left the path (`visit`: the largest among siblings is
/// the branch a redo follows). Parking and unparking move rows between the two tables with one
/// `INSERT … SELECT` and one `DELETE`; every look-up is by an index (node, or parent and visit),
/// so no operation reads the whole tree except ``nodes()``.
struct TreeStatements {
    let largestNode: Statement
    let nodeAt: Statement
    let sequenceOfNode: Statement
    let park: Statement
    let deleteParkedFromPath: Statement
    let parkedParent: Statement
    let latestChild: Statement
    let unpark: Statement
    let deleteUnparked: Statement
    let countParked: Statement
    let oldestParked: Statement
    let removeBranch: Statement
    let removeHanging: Statement
    let removeAllParked: Statement
    let neighborBefore: Statement
    let neighborAfter: Statement
    let latestAtOrBefore: Statement
    let pathNodes: Statement
    let pathNodeNumbers: Statement
    let parkedNodes: Statement
    let adopt: Statement
    /// The rows `removeBranch`, `removeHanging` and `removeAllParked` delete, for their discard actions.
    let branchRows: Statement
    let hangingRows: Statement
    let allParkedRows: Statement

    init(_ database: Database) throws {
        largestNode = try database.prepare(
            """
            SELECT max(coalesce((SELECT max(node) FROM commandstore_history_entry), 0),
                       coalesce((SELECT max(node) FROM commandstore_history_branch), 0))
            """)
        nodeAt = try database.prepare("SELECT node FROM commandstore_history_entry WHERE sequence = ?")
        sequenceOfNode = try database.prepare("SELECT sequence FROM commandstore_history_entry WHERE node = ?")
        // Each row's parent is the node of the row before it on the path (the first one's: bound).
        // A row keeps every column when it moves between the tables (spelled out: SQL is never built).
        park = try database.prepare(
            """
            INSERT INTO commandstore_history_branch (node, parent, visit, kind, version, text, action_text, merge_id, significant, step_id, recorded_at, author, payload)
            SELECT node, lag(node, 1, ?) OVER (ORDER BY sequence), ?, kind, version, text, action_text, merge_id, significant, step_id, recorded_at, author, payload
            FROM commandstore_history_entry WHERE sequence >= ?
            """)
        deleteParkedFromPath = try database.prepare("DELETE FROM commandstore_history_entry WHERE sequence >= ?")
        parkedParent = try database.prepare("SELECT parent FROM commandstore_history_branch WHERE node = ?")
        latestChild = try database.prepare(
            "SELECT node FROM commandstore_history_branch WHERE parent = ? ORDER BY visit DESC, node DESC LIMIT 1")
        unpark = try database.prepare(
            """
            INSERT INTO commandstore_history_entry (sequence, node, kind, version, text, action_text, merge_id, significant, step_id, recorded_at, author, payload)
            SELECT ?, node, kind, version, text, action_text, merge_id, significant, step_id, recorded_at, author, payload FROM commandstore_history_branch WHERE node = ?
            """)
        deleteUnparked = try database.prepare("DELETE FROM commandstore_history_branch WHERE node = ?")
        countParked = try database.prepare("SELECT count(*) FROM commandstore_history_branch")
        oldestParked = try database.prepare("SELECT min(node) FROM commandstore_history_branch")
        removeBranch = try database.prepare(
            """
            WITH RECURSIVE below(node) AS (
                SELECT ? UNION ALL
                SELECT b.node FROM commandstore_history_branch b JOIN below ON b.parent = below.node
            )
            DELETE FROM commandstore_history_branch WHERE node IN below
            """)
        // The branches hanging off the root or off path rows below a sequence (about to be trimmed).
        removeHanging = try database.prepare(
            """
            WITH RECURSIVE below(node) AS (
                SELECT node FROM commandstore_history_branch WHERE parent = 0
                    OR parent IN (SELECT node FROM commandstore_history_entry WHERE sequence < ?)
                UNION ALL
                SELECT b.node FROM commandstore_history_branch b JOIN below ON b.parent = below.node
            )
            DELETE FROM commandstore_history_branch WHERE node IN below
            """)
        removeAllParked = try database.prepare("DELETE FROM commandstore_history_branch")
        adopt = try database.prepare("UPDATE commandstore_history_branch SET parent = ? WHERE parent = ?")
        branchRows = try database.prepare(
            """
            WITH RECURSIVE below(node) AS (
                SELECT ? UNION ALL
                SELECT b.node FROM commandstore_history_branch b JOIN below ON b.parent = below.node
            )
            SELECT node, kind, version, payload FROM commandstore_history_branch WHERE node IN below
            """)
        hangingRows = try database.prepare(
            """
            WITH RECURSIVE below(node) AS (
                SELECT node FROM commandstore_history_branch WHERE parent = 0
                    OR parent IN (SELECT node FROM commandstore_history_entry WHERE sequence < ?)
                UNION ALL
                SELECT b.node FROM commandstore_history_branch b JOIN below ON b.parent = below.node
            )
            SELECT node, kind, version, payload FROM commandstore_history_branch WHERE node IN below
            """)
        allParkedRows = try database.prepare("SELECT node, kind, version, payload FROM commandstore_history_branch")
        neighborBefore = try database.prepare(
            """
            SELECT max(coalesce((SELECT max(node) FROM commandstore_history_entry WHERE node < ?1), 0),
                       coalesce((SELECT max(node) FROM commandstore_history_branch WHERE node < ?1), 0))
            """)
        neighborAfter = try database.prepare(
            """
            SELECT min(coalesce((SELECT min(node) FROM commandstore_history_entry WHERE node > ?1), 9223372036854775807),
                       coalesce((SELECT min(node) FROM commandstore_history_branch WHERE node > ?1), 9223372036854775807))
            """)
        // Newest first by node (numbers follow time): stops at the first step recorded by then.
        latestAtOrBefore = try database.prepare(
            """
            SELECT max(coalesce((SELECT node FROM commandstore_history_entry WHERE recorded_at <= ?1
                                 ORDER BY node DESC LIMIT 1), 0),
                       coalesce((SELECT node FROM commandstore_history_branch WHERE recorded_at <= ?1
                                 ORDER BY node DESC LIMIT 1), 0))
            """)
        pathNodes = try database.prepare(
            """
            SELECT node, lag(node, 1, 0) OVER (ORDER BY sequence), text, coalesce(action_text, text), recorded_at, author
            FROM commandstore_history_entry ORDER BY sequence
            """)
        // From the node index alone (it holds the sequence, the row's key): nothing else of the rows.
        pathNodeNumbers = try database.prepare(
            """
            SELECT sequence, node FROM commandstore_history_entry INDEXED BY commandstore_history_entry_node
            ORDER BY node
            """)
        parkedNodes = try database.prepare(
            "SELECT node, parent, text, coalesce(action_text, text), recorded_at, author FROM commandstore_history_branch"
        )
    }
}

extension SQLiteHistoryStorage {
    /// The tree's statements, prepared on first use (a linear history never prepares them).
    func tree() throws -> TreeStatements {
        if let treeStatements { return treeStatements }
        let statements = try TreeStatements(database)
        treeStatements = statements
        return statements
    }

    /// Makes the history keep branches from now on: stored with the next change's header, and
    /// meanwhile kept across rereads (``reload()``).
    func startKeepingBranches() {
        branchesRequested = true
        keepsBranches = true
        headerIsDirty = true
    }

    package var parkedCount: Int {
        if let parkedRows { return parkedRows }
        let counted = (try? tree().countParked.fetchOne()?.decode(Int.self, at: 0)) ?? 0
        parkedRows = counted
        return counted
    }

    /// The largest node number in either table (0 when both are empty).
    func largestNodeNumber() throws -> Int64 {
        try tree().largestNode.fetchOne()?.decode(Int64?.self, at: 0) ?? 0
    }

    package func nodeID(at position: Int) throws -> HistoryNode.ID {
        precondition((0..<count).contains(position), "history position \(position) out of 0..<\(count)")
        let sequence = sequence(at: position)
        guard let node = try tree().nodeAt.fetchOne([sequence])?.decode(Int.self, at: 0) else {
            throw StoreError(
                .corruptDatabase, "\(database.path) has lost durable history entry \(position) (sequence \(sequence))",
                path: database.path)
        }
        return HistoryNode.ID(node)
    }

    /// Every path entry's node, oldest first, read from the node index without touching a payload.
    ///
    /// Node numbers grow along the path (a child is always recorded after its parent), so the
    /// index's order is the path's; a file where it is not is read entry by entry instead.
    func pathNodeIDs() throws -> [HistoryNode.ID] {
        var nodes: [HistoryNode.ID] = []
        nodes.reserveCapacity(count)
        var expected = sequence(at: 0)
        var inOrder = true
        try tree().pathNodeNumbers.readEachRow { columns in
            let sequence = try columns.integer(at: 0)
            inOrder = inOrder && sequence == expected
            expected += 1
            nodes.append(HistoryNode.ID(Int(try columns.integer(at: 1))))
        }
        guard !inOrder || nodes.count != count else { return nodes }
        return try (0..<count).map { try nodeID(at: $0) }
    }

    package func pathPosition(of node: HistoryNode.ID) throws -> Int? {
        guard let sequence = try tree().sequenceOfNode.fetchOne([node.rawValue])?.decode(Int64.self, at: 0) else {
            return nil
        }
        let position = Int(sequence - base)
        return (0..<count).contains(position) ? position : nil
    }

    package func parkEntries(from position: Int) throws {
        guard keepsBranches else { return try removeEntries(from: position) }
        guard position < count else { return }
        let first = sequence(at: position)
        let parent = position == 0 ? 0 : try nodeID(at: position - 1).rawValue
        // The revision this transaction commits as: later than every earlier park.
        try tree().park.execute([parent, revision + 1, first])
        try tree().deleteParkedFromPath.execute([first])
        forgetCachedEntries { $0 >= first }
        parkedRows = parkedRows.map { $0 + (count - position) }
        count = position
        headerIsDirty = true
        changedSinceBeginWrite = true
    }

    package func parkedParent(of node: HistoryNode.ID) throws -> HistoryNode.ID? {
        guard keepsBranches else { return nil }
        return try tree().parkedParent.fetchOne([node.rawValue]).map { HistoryNode.ID(try $0.decode(Int.self, at: 0)) }
    }

    package func latestParkedChild(of node: HistoryNode.ID) throws -> HistoryNode.ID? {
        guard keepsBranches else { return nil }
        return try tree().latestChild.fetchOne([node.rawValue]).map { HistoryNode.ID(try $0.decode(Int.self, at: 0)) }
    }

    package func unparkEntry(_ node: HistoryNode.ID) throws {
        let sequence = sequence(at: count)
        try tree().unpark.execute([sequence, Int64(node.rawValue)])
        try tree().deleteUnparked.execute([node.rawValue])
        forgetCachedEntries { $0 == sequence }
        parkedRows = parkedRows.map { $0 - 1 }
        count += 1
        headerIsDirty = true
        changedSinceBeginWrite = true
    }

    package func oldestParkedNode() throws -> HistoryNode.ID? {
        guard keepsBranches else { return nil }
        return try tree().oldestParked.fetchOne()?.decode(Int?.self, at: 0).map(HistoryNode.ID.init)
    }

    package func removeParkedBranch(_ node: HistoryNode.ID) throws {
        try discardParked(try tree().branchRows, [node.rawValue])
        try tree().removeBranch.execute([node.rawValue])
        parkedRows = nil
        nextNodeMustBeStored = true
        headerIsDirty = true
        changedSinceBeginWrite = true
    }

    /// Before the rows below `sequence` are trimmed: removes the branches no state can reach then.
    func removeBranchesHanging(below sequence: Int64) throws {
        guard keepsBranches else { return }
        try discardParked(try tree().hangingRows, [sequence])
        try tree().removeHanging.execute([sequence])
        parkedRows = nil
        nextNodeMustBeStored = true
    }

    /// Before the path entry at `position` goes (it turned obsolete): the branches growing from it
    /// grow from its parent now, the same state (an obsolete step changes nothing).
    func adoptBranches(ofPathPosition position: Int) throws {
        guard keepsBranches else { return }
        let removed = try nodeID(at: position).rawValue
        let parent = position == 0 ? 0 : try nodeID(at: position - 1).rawValue
        try tree().adopt.execute([parent, removed])
    }

    /// When the whole history is cleared.
    func removeAllBranches() throws {
        guard keepsBranches else { return }
        try discardParked(try tree().allParkedRows, [])
        try tree().removeAllParked.execute()
        parkedRows = 0
        nextNodeMustBeStored = true
    }

    /// Runs the discard actions of the parked rows a query selects (only when a registered kind has
    /// one: otherwise nothing is read), before they are deleted for good.
    private func discardParked(_ query: Statement, _ arguments: [any DatabaseValueConvertible]) throws {
        guard selectDiscarding != nil else { return }
        try runDiscardActions(of: try query.fetchAll(arguments)) { node in
            "\(database.path): history step \(node) (on a branch)"
        }
    }

    package func chronologicalNeighbor(of node: HistoryNode.ID, before: Bool) throws -> HistoryNode.ID? {
        let statement = before ? try tree().neighborBefore : try tree().neighborAfter
        guard let found = try statement.fetchOne([node.rawValue])?.decode(Int64.self, at: 0),
            found > 0, found < Int64.max
        else { return nil }
        return HistoryNode.ID(Int(found))
    }

    package func latestNode(recordedAtOrBefore time: Int64) throws -> HistoryNode.ID? {
        guard let found = try tree().latestAtOrBefore.fetchOne([time])?.decode(Int.self, at: 0), found > 0 else {
            return nil
        }
        return HistoryNode.ID(found)
    }

    package func nodes() throws -> [HistoryNode] {
        var nodes: [HistoryNode] = []
        for row in try tree().pathNodes.fetchAll() {
            nodes.append(try Self.node(row, isOnPath: true))
        }
        for row in try tree().parkedNodes.fetchAll() {
            nodes.append(try Self.node(row, isOnPath: false))
        }
        return nodes.sorted { $0.id < $1.id }
    }

    private static func node(_ row: Row, isOnPath: Bool) throws -> HistoryNode {
        HistoryNode(
            id: HistoryNode.ID(try row.decode(Int.self, at: 0)),
            parent: HistoryNode.ID(try row.decode(Int.self, at: 1)),
            text: try row.decode(String.self, at: 2), actionText: try row.decode(String.self, at: 3),
            recordedAt: try row.decode(Int64?.self, at: 4), author: try row.decode(String?.self, at: 5),
            isOnPath: isOnPath)
    }
}

#if PostgreSQL
package import CommandKit
import CommandStore
import PostgreSQLDatabase

/// The tree of a branching history on PostgreSQL (schema version 2), as CommandStore's SQLite
/// storage keeps it: the path is the entry table; parking and unparking move rows between it and
/// the branch table with one `INSERT … SELECT` and one `DELETE` (``HistoryStatements``).
extension PostgreSQLHistoryStorage {
    /// Makes the history keep branches from now on: stored with the next change's header, and
    /// meanwhile kept across rereads.
    func startKeepingBranches() {
        branchesRequested = true
        keepsBranches = true
    }

    package var parkedCount: Int {
        (try? parkedRowCount()) ?? 0
    }

    /// The number of parked rows, counted now (``parkedCount`` turns a failure into 0).
    func parkedRowCount() throws -> Int {
        guard keepsBranches else { return 0 }
        if let parkedRows { return parkedRows }
        let counted = try query(statements.countParked).first?.decode(Int.self, at: 0) ?? 0
        parkedRows = counted
        return counted
    }

    package func nodeID(at position: Int) throws -> HistoryNode.ID {
        HistoryNode.ID(Int(try load(at: position).node))
    }

    package func pathPosition(of node: HistoryNode.ID) throws -> Int? {
        guard
            let sequence = try query(statements.sequenceOfNode, [Int64(node.rawValue)]).first?.decode(Int64.self, at: 0)
        else { return nil }
        let position = Int(sequence - base)
        return (0..<count).contains(position) ? position : nil
    }

    package func parkEntries(from position: Int) throws {
        guard keepsBranches else { return try removeEntries(from: position) }
        guard position < count else { return }
        let first = sequence(at: position)
        let parent = position == 0 ? 0 : Int64(try nodeID(at: position - 1).rawValue)
        // The revision this transaction commits as: later than every earlier park.
        try execute(statements.park, [parent, revision + 1, first])
        try execute(statements.deleteFrom, [first])
        cache = cache.filter { $0.key < first }
        parkedRows = parkedRows.map { $0 + (count - position) }
        count = position
        changed = true
    }

    package func parkedParent(of node: HistoryNode.ID) throws -> HistoryNode.ID? {
        guard keepsBranches else { return nil }
        return try query(statements.parkedParent, [Int64(node.rawValue)]).first
            .map { HistoryNode.ID(try $0.decode(Int.self, at: 0) ?? 0) }
    }

    package func latestParkedChild(of node: HistoryNode.ID) throws -> HistoryNode.ID? {
        guard keepsBranches else { return nil }
        return try query(statements.latestChild, [Int64(node.rawValue)]).first
            .map { HistoryNode.ID(try $0.decode(Int.self, at: 0) ?? 0) }
    }

    package func unparkEntry(_ node: HistoryNode.ID) throws {
        let sequence = sequence(at: count)
        try execute(statements.unpark, [sequence, Int64(node.rawValue)])
        try execute(statements.deleteParked, [Int64(node.rawValue)])
        cache[sequence] = nil
        parkedRows = parkedRows.map { $0 - 1 }
        count += 1
        changed = true
    }

    package func oldestParkedNode() throws -> HistoryNode.ID? {
        guard keepsBranches else { return nil }
        return try query(statements.oldestParked).first?.decode(Int.self, at: 0).map(HistoryNode.ID.init)
    }

    package func removeParkedBranch(_ node: HistoryNode.ID) throws {
        try discardParked(statements.branchRows, [Int64(node.rawValue)])
        try execute(statements.removeBranch, [Int64(node.rawValue)])
        parkedRows = nil
        changed = true
    }

    /// Before the rows below `sequence` are trimmed: removes the branches no state can reach then.
    func removeBranchesHanging(below sequence: Int64) throws {
        guard keepsBranches else { return }
        try discardParked(statements.hangingRows, [sequence])
        try execute(statements.removeHanging, [sequence])
        parkedRows = nil
    }

    /// Before the path entry at `position` goes (it turned obsolete): the branches growing from it
    /// grow from its parent now, the same state (an obsolete step changes nothing).
    func adoptBranches(ofPathPosition position: Int) throws {
        guard keepsBranches else { return }
        let removed = Int64(try nodeID(at: position).rawValue)
        let parent = position == 0 ? 0 : Int64(try nodeID(at: position - 1).rawValue)
        try execute(statements.adopt, [parent, removed])
    }

    /// When the whole history is cleared.
    func removeAllBranches() throws {
        guard keepsBranches else { return }
        try discardParked(statements.allParkedRows, [])
        try execute(statements.removeAllParked)
        parkedRows = 0
    }

    /// Runs the discard actions of the parked rows a query selects (only when a registered kind has
    /// one: otherwise nothing is read), before they are deleted for good.
    private func discardParked(_ sql: String, _ parameters: [(any PostgreSQLValue)?]) throws {
        guard !commands.discardingKinds.isEmpty else { return }
        try runDiscardActions(of: try query(sql, parameters)) { node in
            "\(place): history step \(node) (on a branch)"
        }
    }

    package func chronologicalNeighbor(of node: HistoryNode.ID, before: Bool) throws -> HistoryNode.ID? {
        let sql = before ? statements.neighborBefore : statements.neighborAfter
        guard let found = try query(sql, [Int64(node.rawValue)]).first?.decode(Int.self, at: 0), found > 0 else {
            return nil
        }
        return HistoryNode.ID(found)
    }

    package func latestNode(recordedAtOrBefore time: Int64) throws -> HistoryNode.ID? {
        guard let found = try query(statements.latestAtOrBefore, [time]).first?.decode(Int.self, at: 0), found > 0
        else { return nil }
        return HistoryNode.ID(found)
    }

    package func nodes() throws -> [HistoryNode] {
        var nodes = try query(statements.pathNodes).map { try Self.node($0, isOnPath: true) }
        if keepsBranches {
            nodes += try query(statements.parkedNodes).map { try Self.node($0, isOnPath: false) }
        }
        return nodes.sorted { $0.id < $1.id }
    }

    private static func node(_ row: PostgreSQLRow, isOnPath: Bool) throws -> HistoryNode {
        HistoryNode(
            id: HistoryNode.ID(try row.decode(Int.self, at: 0) ?? 0),
            parent: HistoryNode.ID(try row.decode(Int.self, at: 1) ?? 0),
            text: try row.decode(String.self, at: 2) ?? "", actionText: try row.decode(String.self, at: 3) ?? "",
            recordedAt: try row.decode(Int64.self, at: 4), author: try row.decode(String.self, at: 5),
            isOnPath: isOnPath)
    }
}
#endif

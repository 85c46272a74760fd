#if PostgreSQL
import CommandKit
import CommandStore
import Foundation
@testable import PostgreSQLCommandStore
import PostgreSQLDatabase
import PostgreSQLTestSupport
import Synchronization
import TestSupport
import Testing
import UndoModelTesting

/// A branching `PostgreSQLHistory`: the engine's tree model on the server, the tree across
/// clients and reopening, a jump refused when another client moved the history, and a database
/// made by the linear release (schema version 1) opened and migrated.
@Suite(
    .enabled(
        if: PostgreSQLTestServer.isEnabled, "COMMANDKIT_POSTGRES_URL names no server (Scripts/postgres.sh start)"))
struct BranchingHistoryTests {
    /// The tree model's command: appends its number as a line (undo removes the last line), with
    /// the texts the model checks (`a<number>`).
    struct TreeStep: PersistentCommand {
        static let kind = "test.tree-step"
        var value: Int
        var text: String { "c\(value)" }
        var actionText: String { "a\(value)" }

        func redo(on lines: PostgreSQLLines) throws {
            try lines.connection.execute("INSERT INTO line (value) VALUES ($1)", [String(value)])
            try lines.tick(.redo)
        }

        func undo(on lines: PostgreSQLLines) throws {
            try lines.connection.execute("DELETE FROM line WHERE position = (SELECT max(position) FROM line)")
            try lines.tick(.undo)
        }
    }

    static var registry: CommandRegistry<PostgreSQLLines> {
        var registry = PostgreSQLLines.registry
        registry.register(TreeStep.self)
        return registry
    }

    /// Appends its number as a line (undo removes the last line), through the shared receiver.
    func push(_ value: Int, on client: Client) throws {
        try client.history.push(PostgreSQLLine(line: "\(value)"))
    }

    func values(_ client: Client) throws -> [Int] {
        try client.lines.lines().compactMap { Int($0) }
    }

    @Test func randomSequencesMatchTheReferenceTree() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        var made = 0
        let result = TreeModelTest.run(sequences: 60, exactRollback: true) {
            made += 1
            let lines = try PostgreSQLLines(connection: try database.connect())
            try lines.connection.execute("DELETE FROM line")
            // One history per sequence, under its own prefix, beside the others in the schema.
            let history = try PostgreSQLHistory(
                connection: lines.connection, receiver: lines, registry: Self.registry,
                tablePrefix: "tree\(made)", keepsBranches: true)
            return TreeModelTest.Subject(
                history: history, push: { try history.push(TreeStep(value: $0)) },
                document: { try lines.lines().compactMap { Int($0) } },
                failAfter: { count in lines.failCountdown = count })
        }
        if let failure = result.failure { Issue.record("\(failure)") }
        #expect(result.checkedSteps > 500)
    }

    /// Every client sees the tree: a branch parked by one is reachable from another, and from a
    /// history opened later (which keeps branches whatever it asks for).
    @Test func branchesAreSharedAndSurviveReopening() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        let ada = try Client(database, keepsBranches: true)
        for value in 1...5 { try push(value, on: ada) }
        try ada.history.undo(steps: 3)
        try push(9, on: ada)
        let grace = try Client(database)
        #expect(grace.history.keepsBranches)
        #expect(try values(grace) == [1, 2, 9])
        #expect(try grace.history.nodes().map(\.id.rawValue) == [1, 2, 3, 4, 5, 6])
        #expect(try grace.history.nodes().filter(\.isOnPath).map(\.id.rawValue) == [1, 2, 6])
        #expect(try (0..<grace.history.count).map { try grace.history.node(at: $0).rawValue } == [1, 2, 6])
        let jump = try grace.history.jump(to: HistoryNode.ID(5))
        #expect(jump.undone.map(\.id.rawValue) == [6] && jump.redone.map(\.id.rawValue) == [3, 4, 5])
        #expect(try values(ada) == [1, 2, 3, 4, 5])
        #expect(ada.history.currentNode == HistoryNode.ID(5))
        #expect(try ada.history.chronologicalNeighbor(before: false) == HistoryNode.ID(6))
        #expect(try ada.history.tree().current == HistoryNode.ID(5))
    }

    /// Another client moved the history after this one looked: the jump changes nothing.
    @Test func aJumpFromAStaleViewIsRefused() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        let mine = try Client(database, keepsBranches: true)
        try push(1, on: mine)
        try push(2, on: mine)
        try mine.history.undo()
        try push(3, on: mine)
        let shown = mine.history.currentNode
        let theirs = try Client(database)
        try theirs.history.undo()
        let error = #expect(throws: StoreError.self) { try mine.history.jump(to: HistoryNode.ID(2), expecting: shown) }
        #expect(error?.code == .historyChanged)
        #expect(try values(mine) == [1])
        try mine.history.jump(to: HistoryNode.ID(2), expecting: mine.history.currentNode)
        #expect(try values(mine) == [1, 2])
        #expect(throws: UndoError.self) { try mine.history.jump(to: HistoryNode.ID(42)) }
    }

    /// Node numbers are never reused, even by another client after a branch was pruned.
    @Test func numbersAreNeverReusedAcrossClients() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        let first = try Client(database, keepsBranches: true)
        try push(1, on: first)
        try push(2, on: first)
        let second = try Client(database)
        try push(3, on: second)
        try push(4, on: first)
        #expect(try first.history.nodes().map(\.id.rawValue) == [1, 2, 3, 4])
        // A branch pruned by the limit takes its numbers with it; the next step still takes 6.
        try first.history.undo()
        try push(5, on: first)
        try second.history.setUndoLimit(4)
        try push(6, on: second)
        #expect(try first.history.nodes().map(\.id.rawValue) == [2, 3, 5, 6])
    }

    /// A time names the state recorded then, on any branch, decided inside the transaction.
    @Test func aTimeNamesItsState() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        let client = try Client(database, keepsBranches: true)
        try push(1, on: client)
        try push(2, on: client)
        let nodes = try client.history.nodes()
        let time = try #require(nodes.last?.recordedAt)
        #expect(try client.history.node(recordedAtOrBefore: time) == HistoryNode.ID(2))
        #expect(try client.history.node(recordedAtOrBefore: 0) == .root)
        let reached = try client.history.jump(toStateRecordedAtOrBefore: 0)
        #expect(reached.node == .root && reached.jump.undone.map(\.id.rawValue) == [2, 1])
        #expect(try values(client).isEmpty)
    }

    /// A database the linear release made (schema version 1, two steps, one undone) opens: its
    /// entries take nodes sequence + 1, and it can start keeping branches.
    @Test func aLinearDatabaseIsMigrated() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        let connection = try database.connect()
        let lines = try PostgreSQLLines(connection: connection)
        let statements = try HistoryStatements(prefix: "commandstore_history")
        try connection.migrate(
            PostgreSQLSchema(identifier: statements.channel, migrations: [statements.migrations[0]]))
        for (sequence, line) in ["a", "b"].enumerated() {
            let payload = try JSONEncoder().encode(PostgreSQLLine(line: line))
            try connection.execute(
                """
                INSERT INTO commandstore_history_entry
                    (sequence, kind, version, text, action_text, merge_id, significant, payload, token, recorded_at)
                VALUES ($1, 'test.line', 1, $2, 'Add Line', NULL, true, $3, $4, 0)
                """, [Int64(sequence), "Add \(line)", payload, Int64(sequence + 100)])
        }
        try connection.execute("INSERT INTO line (value) VALUES ('a')")
        try connection.execute("UPDATE commandstore_history_header SET count = 2, current_index = 1, revision = 3")
        let history = try PostgreSQLHistory(
            connection: connection, receiver: lines, registry: PostgreSQLLines.registry, keepsBranches: true)
        #expect(try connection.schemaVersion(of: "commandstore_history") == 2)
        #expect(history.count == 2 && history.index == 1 && history.redoText == "Add Line")
        #expect(try history.nodes().map(\.id.rawValue) == [1, 2])
        try history.push(PostgreSQLLine(line: "c"))
        #expect(try lines.lines() == ["a", "c"])
        #expect(try history.nodes().map { "\($0.id)<\($0.parent)\($0.isOnPath ? "" : "p")" } == ["1<0", "2<1p", "3<1"])
        try history.jump(to: HistoryNode.ID(2))
        #expect(try lines.lines() == ["a", "b"])
    }

    /// Three clients push, undo and jump to random nodes at once, each jump expecting the node it
    /// read; under serializable isolation a waiter runs again. No step is lost or doubled, the
    /// tree stays a tree, and the lines are the path's done steps.
    @Test(arguments: [PostgreSQLConnection.Isolation.serializable, .readCommitted])
    func concurrentTimeTravelKeepsOneTree(isolation: PostgreSQLConnection.Isolation) throws {
        let seed: UInt64 = 0x7EE5_2026_0028
        print("concurrentTimeTravelKeepsOneTree seed=\(seed) isolation=\(isolation)")
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        _ = try Client(database, keepsBranches: true)  // creates the tables before the writers race to
        let writers = 3
        let outcome = Mutex<(pushed: [String], refused: Int, errors: [String])>(([], 0, []))
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            var random = SplitMix64(seed: seed &+ UInt64(writer))
            do {
                let client = try Client(database, isolation: isolation, keepsBranches: true)
                var pushed: [String] = []
                var refused = 0
                for step in 0..<30 {
                    switch random.next() % 10 {
                    case 0..<5:
                        let line = "w\(writer)-\(step)"
                        try client.history.push(PostgreSQLLine(line: line))
                        pushed.append(line)
                    case 5..<7:
                        try client.history.undo()
                    default:
                        let seen = client.history.currentNode
                        let nodes = [HistoryNode.ID.root] + (try client.history.nodes().map(\.id))
                        let target = nodes[Int(random.next() % UInt64(nodes.count))]
                        do {
                            try client.history.jump(to: target, expecting: seen)
                        } catch let error as StoreError where error.code == .historyChanged {
                            refused += 1
                        }
                    }
                }
                outcome.withLock {
                    $0.pushed += pushed
                    $0.refused += refused
                }
            } catch {
                outcome.withLock { $0.errors.append("writer \(writer): \(error)") }
            }
        }
        let result = outcome.withLock { $0 }
        #expect(result.errors.isEmpty, "\(result.errors)")
        let reader = try Client(database)
        let (nodes, current) = try reader.history.tree()
        func line(_ node: HistoryNode) -> String { String(node.text.dropFirst("Add ".count)) }
        // Every push is one node, once; every parent is in the tree.
        #expect(nodes.map(line).sorted() == result.pushed.sorted())
        let byID = Dictionary(uniqueKeysWithValues: nodes.map { ($0.id, $0) })
        #expect(nodes.allSatisfy { $0.parent == .root || byID[$0.parent] != nil })
        // The path is a chain from the root, and the lines are its steps up to the current one.
        let path = nodes.filter(\.isOnPath)
        #expect(zip([HistoryNode.ID.root] + path.map(\.id), path).allSatisfy { $0 == $1.parent })
        var done: [String] = []
        var node = current
        while node != .root, let found = byID[node] {
            done.insert(line(found), at: 0)
            node = found.parent
        }
        #expect(try reader.lines.lines() == done)
        print("concurrent time travel (\(isolation)): \(result.refused) stale jumps refused")
    }
}
#endif

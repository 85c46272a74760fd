import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing
import UndoModelTesting

/// A branching `DurableHistory`: the engine's tree model on SQLite, the tree across reopening and
/// connections, and a jump refused when another connection moved the history.
@Suite struct BranchingHistoryTests {
    /// Appends its number (undo removes it), running the receiver's hook first (failure injection).
    struct TreeStep: PersistentCommand {
        static let kind = "test.tree-step"
        var value: Int
        var text: String { "c\(value)" }
        var actionText: String { "a\(value)" }
        func redo(on list: NumberList) throws {
            try list.hook?()
            try list.append(value)
        }
        func undo(on list: NumberList) throws {
            try list.hook?()
            try list.removeLast()
        }
    }

    static var registry: CommandRegistry<NumberList> {
        var registry = NumberList.registry
        registry.register(TreeStep.self)
        return registry
    }

    func open(_ path: String, keepsBranches: Bool = true) throws -> (Database, NumberList, DurableHistory<NumberList>) {
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database.openStore(path: path, schemas: [NumberList.schema], configuration: configuration)
        let list = NumberList(database: db)
        return (
            db, list,
            try DurableHistory(database: db, receiver: list, registry: Self.registry, keepsBranches: keepsBranches)
        )
    }

    @Test func randomSequencesMatchTheReferenceTree() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var made = 0
        let result = TreeModelTest.run(sequences: 150, exactRollback: true) {
            made += 1
            let (_, list, history) = try open(directory.file("tree-\(made).sqlite"))
            return TreeModelTest.Subject(
                history: history, push: { try history.push(TreeStep(value: $0)) }, document: { try list.values() },
                failAfter: { count in
                    var remaining = count
                    list.hook =
                        count == 0
                        ? nil
                        : {
                            remaining -= 1
                            if remaining == 0 { throw Failing.Failure() }
                        }
                })
        }
        if let failure = result.failure { Issue.record("\(failure)") }
        #expect(result.checkedSteps > 1_500)
    }

    /// The tree survives the process: reopened, every branch is still reachable.
    @Test func branchesSurviveReopening() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        do {
            let (db, _, history) = try open(path)
            for value in 1...5 { try history.push(TreeStep(value: value)) }
            try history.undo(steps: 3)
            try history.push(TreeStep(value: 9))
            db.close()
        }
        let (_, list, history) = try open(path, keepsBranches: false)
        #expect(history.keepsBranches)
        #expect(try list.values() == [1, 2, 9])
        #expect(try history.nodes().map(\.id.rawValue) == [1, 2, 3, 4, 5, 6])
        // The path's records carry their nodes: 9 is step 6 at position 3.
        let read = try history.records()
        #expect(read.records.map(\.text) == ["c1", "c2", "c9"])
        #expect(read.nodes.map(\.rawValue) == [1, 2, 6] && read.index == 3)
        let jump = try history.jump(to: HistoryNode.ID(5))
        #expect(jump.undone.map(\.id.rawValue) == [6] && jump.redone.map(\.id.rawValue) == [3, 4, 5])
        #expect(try list.values() == [1, 2, 3, 4, 5])
        #expect(try history.records().nodes.map(\.rawValue) == [1, 2, 3, 4, 5])
        #expect(try history.chronologicalNeighbor(before: false) == HistoryNode.ID(6))
    }

    /// Another connection moved the history after this one looked: the jump changes nothing.
    @Test func aJumpFromAStaleViewIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        let (_, list, mine) = try open(path)
        try mine.push(TreeStep(value: 1))
        try mine.push(TreeStep(value: 2))
        try mine.undo()
        try mine.push(TreeStep(value: 3))
        let shown = mine.currentNode
        let (_, _, theirs) = try open(path)
        try theirs.undo()
        #expect(throws: StoreError.self) { try mine.jump(to: HistoryNode.ID(2), expecting: shown) }
        #expect(try list.values() == [1])
        try mine.refresh()
        try mine.jump(to: HistoryNode.ID(2), expecting: mine.currentNode)
        #expect(try list.values() == [1, 2])
    }

    /// Node numbers are never reused, even by another connection after a branch was pruned.
    @Test func numbersAreNeverReusedAcrossConnections() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        let (_, _, first) = try open(path)
        try first.push(TreeStep(value: 1))
        try first.push(TreeStep(value: 2))
        let (_, _, second) = try open(path)
        try second.push(TreeStep(value: 3))
        try first.push(TreeStep(value: 4))
        #expect(try first.nodes().map(\.id.rawValue) == [1, 2, 3, 4])
    }
}

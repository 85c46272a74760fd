import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// Issue 27, H3: `undo(steps:)` and `redo(steps:)` with more steps than the history holds are
/// refused before any command runs (they used to undo every step, holding the write lock, then
/// roll it all back), with the message the step-by-step refusal gives, and change nothing.
@Suite struct ManyStepRefusalTests {
    /// Appends its number (undo removes it), counting every run in the receiver's hook.
    struct CountedStep: PersistentCommand {
        static let kind = "test.counted-step"
        var value: Int
        var significant = true
        var text: String { "Step \(value)" }
        var isSignificant: Bool { significant }
        func redo(on list: NumberList) throws {
            try list.hook?()
            try list.append(value)
        }
        func undo(on list: NumberList) throws {
            try list.hook?()
            try list.removeLast()
        }
    }

    /// An open history whose commands count their runs in `runs`.
    final class Fixture {
        let db: Database
        let list: NumberList
        let history: DurableHistory<NumberList>
        var runs = 0

        init(keepsBranches: Bool = false) throws {
            var registry = NumberList.registry
            registry.register(CountedStep.self)
            db = try Database.openStore(path: ":memory:", schemas: [NumberList.schema])
            list = NumberList(database: db)
            history = try DurableHistory(database: db, receiver: list, registry: registry, keepsBranches: keepsBranches)
            list.hook = { [unowned self] in runs += 1 }
        }

        func push(_ values: ClosedRange<Int>, significant: Bool = true) throws {
            for value in values { try history.push(CountedStep(value: value, significant: significant)) }
        }

        /// What a refusal must leave exactly as it was.
        var snapshot: Snapshot {
            get throws {
                Snapshot(
                    values: try list.values(), index: history.index, count: history.count,
                    revision: history.revision,
                    changes: try db.fetchOne("SELECT total_changes()")!.decode(Int.self, at: 0))
            }
        }

        /// Runs `body`, which must be refused with `code` and `message` without running a command
        /// or writing a row.
        func expectRefusal(
            _ code: StoreError.Code, _ message: String, sourceLocation: SourceLocation = #_sourceLocation,
            _ body: () throws -> Void
        ) throws {
            let before = try snapshot
            runs = 0
            #expect(sourceLocation: sourceLocation) {
                try body()
            } throws: { error in
                (error as? StoreError)?.code == code && (error as? StoreError)?.message == message
            }
            #expect(runs == 0, "commands ran before the refusal", sourceLocation: sourceLocation)
            #expect(try snapshot == before, sourceLocation: sourceLocation)
        }
    }

    struct Snapshot: Equatable {
        var values: [Int]
        var index: Int
        var count: Int
        var revision: Int
        /// `total_changes()`: rows written by the connection, rolled back or not.
        var changes: Int
    }

    @Test func moreStepsThanTheHistoryHoldsAreRefusedBeforeAnyCommandRuns() throws {
        let f = try Fixture()
        try f.push(1...200)
        try f.expectRefusal(.nothingToUndo, "cannot undo 1000000 steps: only 200 can be undone") {
            try f.history.undo(steps: 1_000_000)
        }
        try f.expectRefusal(.nothingToUndo, "cannot undo 201 steps: only 200 can be undone") {
            try f.history.undo(steps: 201)
        }
        try f.expectRefusal(.nothingToRedo, "nothing to redo") { try f.history.redo(steps: 2) }
        try f.history.undo(steps: 150)
        try f.expectRefusal(.nothingToRedo, "cannot redo 151 steps: only 150 can be redone") {
            try f.history.redo(steps: 151)
        }
        try f.expectRefusal(.nothingToUndo, "cannot undo 51 steps: only 50 can be undone") {
            try f.history.undo(steps: 51)
        }
        // The counts that fit still work, all of them.
        f.runs = 0
        try f.history.redo(steps: 150)
        #expect(try f.runs == 150 && f.list.values() == Array(1...200))
    }

    /// Insignificant entries make fewer steps than entries: a count the header cannot rule out runs
    /// and is refused (rolled back) as before; a count above the entries is refused before running,
    /// and both say how many steps there are.
    @Test func theRefusalCountsStepsNotEntries() throws {
        let f = try Fixture()
        try f.push(1...1)
        try f.push(2...3, significant: false)
        try f.push(4...4)
        try f.push(5...5, significant: false)
        // Steps: [1, 2, 3] and [4, 5].
        try f.expectRefusal(.nothingToUndo, "cannot undo 6 steps: only 2 can be undone") {
            try f.history.undo(steps: 6)
        }
        let before = try f.snapshot
        do {
            try f.history.undo(steps: 3)
            Issue.record("undo of 3 steps where 2 can be undone succeeded")
        } catch let error as StoreError {
            #expect(error.message == "cannot undo 3 steps: only 2 can be undone")
        }
        #expect(try f.snapshot.values == before.values)
        try f.history.undo(steps: 2)
        #expect(try f.list.values().isEmpty)
        try f.expectRefusal(.nothingToRedo, "cannot redo 6 steps: only 2 can be redone") {
            try f.history.redo(steps: 6)
        }
        try f.history.redo(steps: 2)
        #expect(try f.list.values() == [1, 2, 3, 4, 5])
    }

    /// In a tree a redo goes on into the branch it follows at the path's end: those steps count,
    /// and a count above every entry it could reach is refused before any command runs.
    @Test func aTreeCountsTheStepsARedoWouldFollow() throws {
        let f = try Fixture(keepsBranches: true)
        try f.push(1...4)  // nodes 1...4
        try f.history.undo(steps: 3)
        try f.push(5...5)  // node 5; 2, 3, 4 parked under 1
        _ = try f.history.jump(to: HistoryNode.ID(2))
        // The path is 1, 2, 3 (3 brought on by the jump's end), with 4 parked below 3 and 5 below 1.
        #expect(try f.list.values() == [1, 2] && f.history.index == 2 && f.history.count == 3)
        // 3 steps are not ruled out by the entries a redo could reach (1 on the path, 2 parked),
        // so they run and are rolled back; the message counts 3 and 4, the steps there are.
        do {
            try f.history.redo(steps: 3)
            Issue.record("redo of 3 steps where 2 can be redone succeeded")
        } catch let error as StoreError {
            #expect(error.message == "cannot redo 3 steps: only 2 can be redone")
        }
        try f.expectRefusal(.nothingToRedo, "cannot redo 4 steps: only 2 can be redone") {
            try f.history.redo(steps: 4)
        }
        try f.history.redo(steps: 2)
        #expect(try f.list.values() == [1, 2, 3, 4])
        try f.expectRefusal(.nothingToUndo, "cannot undo 5 steps: only 4 can be undone") {
            try f.history.undo(steps: 5)
        }
    }
}

import CommandKit
import Testing
import UndoModelTesting

/// A branching ``UndoStack``: the tree model (Tests/UndoModelTesting) and the rules of the
/// "Time travel" article, one by one.
@Suite struct BranchingUndoStackTests {
    @Test func randomSequencesMatchTheReferenceTree() throws {
        let result = TreeModelTest.run(
            sequences: 5_000, exactRollback: false, makeHistory: { UndoStack(keepsBranches: true) },
            push: { try $0.push($1) })
        if let failure = result.failure { Issue.record("\(failure)") }
        #expect(result.checkedSteps > 50_000)
    }

    /// Undo three steps, type one character: the three steps stay reachable.
    @Test func aPushAfterUndoKeepsTheRedoStepsAsABranch() throws {
        let list = NumberList()
        let stack = UndoStack(keepsBranches: true)
        for value in 1...4 { try stack.push(list.append(value)) }
        try stack.undo(steps: 3)
        try stack.push(list.append(9))
        #expect(list.values == [1, 9])
        #expect(!stack.canRedo && stack.count == 2)
        #expect(stack.nodes().map(\.id.rawValue) == [1, 2, 3, 4, 5])
        #expect(stack.nodes().filter { !$0.isOnPath }.map(\.id.rawValue) == [2, 3, 4])

        let jump = try stack.jump(to: HistoryNode.ID(4))
        #expect(list.values == [1, 2, 3, 4])
        #expect(jump.undone.map(\.id) == [HistoryNode.ID(5)] && jump.redone.map(\.id.rawValue) == [2, 3, 4])
        // Back to the new branch by time: g- from 4 is 3, g+ from 4 is 5.
        try stack.jumpToLaterState()
        #expect(list.values == [1, 9] && stack.currentNode == HistoryNode.ID(5))
        try stack.jumpToEarlierState()
        #expect(list.values == [1, 2, 3, 4])
    }

    /// vim's rule: redo follows the branch visited last.
    @Test func redoFollowsTheBranchVisitedLast() throws {
        let list = NumberList()
        let stack = UndoStack(keepsBranches: true)
        try stack.push(list.append(1))  // 1
        try stack.push(list.append(2))  // 2
        try stack.undo()
        try stack.push(list.append(3))  // 3, beside 2
        try stack.jump(to: HistoryNode.ID(2))
        try stack.undo()
        try stack.redo()
        #expect(list.values == [1, 2])
        try stack.jump(to: HistoryNode.ID(3))
        try stack.jump(to: .root)
        try stack.redo()
        try stack.redo()
        #expect(list.values == [1, 3])
    }

    /// A command that throws part of the way: everything the jump did is run back, and the error
    /// names the step.
    @Test func aJumpWhoseCommandThrowsLeavesTheStackAsItWas() throws {
        let list = NumberList()
        let stack = UndoStack(keepsBranches: true)
        try stack.push(list.append(1))
        try stack.push(list.append(2))
        try stack.push(list.append(3))
        try stack.undo(steps: 2)
        try stack.push(list.append(4))
        stack.setClean()  // saved here: the jump parks this branch, the run back restores it
        list.failOn = 3
        let error = #expect(throws: HistoryJumpError.self) { try stack.jump(to: HistoryNode.ID(3)) }
        #expect(error?.step == HistoryNode.ID(3) && error?.wasUndoing == false)
        #expect(list.values == [1, 4] && stack.currentNode == HistoryNode.ID(4))
        #expect(stack.isClean && stack.cleanIndex == 2)
        list.failOn = nil
        try stack.jump(to: HistoryNode.ID(3))
        #expect(list.values == [1, 2, 3])
    }

    @Test func aStaleExpectationIsRefused() throws {
        let list = NumberList()
        let stack = UndoStack(keepsBranches: true)
        try stack.push(list.append(1))
        let shown = stack.currentNode
        try stack.push(list.append(2))
        #expect(throws: UndoError.self) { try stack.jump(to: .root, expecting: shown) }
        #expect(list.values == [1, 2])
        #expect(throws: UndoError.self) { try stack.jump(to: HistoryNode.ID(99)) }
    }

    /// The limit counts every node: the oldest branch off the path goes first, whole.
    @Test func theUndoLimitPrunesTheOldestBranchFirst() throws {
        let list = NumberList()
        let stack = UndoStack(undoLimit: 4, keepsBranches: true)
        try stack.push(list.append(1))
        try stack.push(list.append(2))
        try stack.undo()
        try stack.push(list.append(3))  // 2 parked
        try stack.push(list.append(4))
        try stack.push(list.append(5))  // five nodes: branch 2 goes
        #expect(stack.nodes().map(\.id.rawValue) == [1, 3, 4, 5])
        try stack.push(list.append(6))  // then the oldest of the path
        #expect(stack.nodes().map(\.id.rawValue) == [3, 4, 5, 6])
        #expect(list.values == [1, 3, 4, 5, 6])
    }

    /// A merge goes only into a leaf: the node a branch grew from stays what it was.
    @Test func aMergeNeverChangesANodeWithABranch() throws {
        let list = NumberList()
        let stack = UndoStack(keepsBranches: true)
        try stack.push(list.append(1, mergeable: true))
        try stack.push(list.append(2, mergeable: true))  // merged into 1
        #expect(stack.count == 1)
        try stack.push(list.append(3))
        try stack.undo()
        try stack.push(list.append(4, mergeable: true))  // 3 parked: 1 is no leaf, no merge
        #expect(stack.count == 2 && stack.nodes().count == 3)
    }

    /// A step that turns obsolete goes; the branches that grew from it grow from its parent (the
    /// same state) and stay reachable.
    @Test func theBranchesOfAStepThatTurnsObsoleteStayReachable() throws {
        let list = NumberList()
        let stack = UndoStack(keepsBranches: true)
        var vanishing = VanishingStep()
        vanishing.list = list
        try stack.push(vanishing)  // 1, obsolete after its next undo
        try stack.push(list.append(2))  // 2
        try stack.undo()
        try stack.push(list.append(3))  // 3; 2 parked under 1
        try stack.undo(steps: 2)  // 1 undone: obsolete, removed
        #expect(stack.nodes().map(\.id.rawValue) == [2, 3])
        #expect(stack.nodes().map(\.parent) == [.root, .root])
        try stack.jump(to: HistoryNode.ID(2))
        #expect(list.values == [2])
    }

    /// Off by default: a push after undo discards the redo steps, as before.
    @Test func aLinearStackStillDiscardsTheRedoSteps() throws {
        let list = NumberList()
        let stack = UndoStack()
        try stack.push(list.append(1))
        try stack.push(list.append(2))
        try stack.undo()
        try stack.push(list.append(3))
        #expect(!stack.keepsBranches && stack.nodes().count == 2)
        #expect(throws: UndoError.self) { try stack.jump(to: HistoryNode.ID(5)) }
    }
}

/// A step that changes nothing and turns obsolete once undone.
private struct VanishingStep: UndoCommand {
    var list: NumberList?
    var isObsolete = false
    var text: String { "vanishing" }
    func redo() throws {}
    mutating func undo() throws { isObsolete = true }
}

/// A list of numbers edited by commands, with a value whose redo throws.
private final class NumberList {
    var values: [Int] = []
    var failOn: Int?

    struct Failure: Error {}

    func append(_ value: Int, mergeable: Bool = false) -> some UndoCommand {
        AppendValue(recorder: self, values: [value], mergeable: mergeable)
    }

    struct AppendValue: UndoCommand {
        let recorder: NumberList
        var values: [Int]
        let mergeable: Bool
        var text: String { "append \(values)" }
        var mergeID: Int? { mergeable ? 1 : nil }
        func redo() throws {
            if let fail = recorder.failOn, values.contains(fail) { throw Failure() }
            recorder.values += values
        }
        func undo() throws { recorder.values.removeLast(values.count) }
        mutating func merge(with other: AppendValue) -> Bool {
            values += other.values
            return true
        }
    }
}

import CommandKit
import Testing
import UndoModelTesting

/// The engine's seam, proved from outside: a storage and a history written against CommandKit's
/// public API only (this target does not `@testable import` it) pass the engine's model-based test,
/// and the kit's controls and groups work on them.
@Suite struct PublicEngineTests {
    @Test func aStorageWrittenOutsideTheKitPassesTheModelTest() {
        let result = HistoryModelTest.run(
            sequences: 10_000, makeHistory: { ArrayHistory() }, push: { try $0.push($1) })
        if let failure = result.failure { Issue.record("\(failure)") }
        #expect(result.checkedSteps > 100_000)
    }

    /// A history that keeps no branches gets `jump(to:expecting:)` from the protocol: all or
    /// nothing there too, the error naming the step that threw.
    @Test func theDefaultJumpRunsBackWhatItDidWhenAStepThrows() throws {
        final class Log {
            var values: [Int] = []
            var failingUndo: Int?
        }
        struct Append: UndoCommand {
            struct Failure: Error {}
            let log: Log
            let value: Int
            var text: String { "Append \(value)" }
            func redo() throws { log.values.append(value) }
            func undo() throws {
                if log.failingUndo == value { throw Failure() }
                log.values.removeLast()
            }
        }
        let log = Log()
        let history = ArrayHistory()
        for value in 1...4 { try history.push(Append(log: log, value: value)) }
        log.failingUndo = 2
        let error = #expect(throws: HistoryJumpError.self) { try history.jump(to: .root, expecting: nil) }
        #expect(error?.step == HistoryNode.ID(2) && error?.wasUndoing == true && error?.text == "Append 2")
        #expect(history.index == 4 && log.values == [1, 2, 3, 4])
        log.failingUndo = nil
        let jump = try history.jump(to: HistoryNode.ID(1), expecting: HistoryNode.ID(4))
        #expect(jump.undone.map(\.text) == ["Append 4", "Append 3", "Append 2"] && log.values == [1])
    }

    @Test func theKitsControlsAndGroupsTakeTheHistory() throws {
        let history = ArrayHistory()
        let document = ProbeDocument()
        let group = UndoGroup()
        group.setActiveStack(history)
        let undo = group.makeUndoControl()
        try history.push(UndoMacro("Both", children: []))
        #expect(undo.title == "Undo Both" && undo.isEnabled)
        #expect(undo.sendAction())
        #expect(history.index == 0 && !undo.isEnabled)
        #expect(document.applied.isEmpty)
    }
}

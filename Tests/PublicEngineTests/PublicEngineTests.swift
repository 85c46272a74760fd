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

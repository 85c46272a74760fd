import CommandKit
import Testing
import UndoModelTesting

/// The engine's model-based test (Tests/UndoModelTesting) on the in-memory stack.
@Suite struct UndoStackModelTests {
    static let sequences = 10_000

    @Test func randomSequencesMatchTheReferenceModel() throws {
        let result = HistoryModelTest.run(
            sequences: Self.sequences, makeHistory: { UndoStack() }, push: { try $0.push($1) })
        if let failure = result.failure { Issue.record("\(failure)") }
        #expect(result.checkedSteps > Self.sequences * 10)
    }
}

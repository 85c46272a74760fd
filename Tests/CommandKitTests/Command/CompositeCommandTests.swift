import CommandKit
import Testing

@Suite struct CompositeCommandTests {
    @Test func runsChildrenInOrder() throws {
        let journal = Journal()
        let composite = CompositeCommand {
            Record(tag: "a", journal: journal)
            CompositeCommand([Record(tag: "b", journal: journal), Record(tag: "c", journal: journal)])
            ClosureCommand { journal.lines.append("d") }
        }
        try composite.execute()
        #expect(journal.lines == ["a", "b", "c", "d"])
    }

    @Test func stopsAtFirstFailureAndRethrowsIt() {
        let journal = Journal()
        let composite = CompositeCommand([
            Record(tag: "a", journal: journal),
            Record(tag: "b", journal: journal, fails: true),
            Record(tag: "c", journal: journal),
        ])
        #expect(throws: TestError(tag: "b")) { try composite.execute() }
        #expect(journal.lines == ["a"])
    }

    @Test func asyncCompositeMixesSyncAndAsyncChildren() async throws {
        let journal = Journal()
        let composite = AsyncCompositeCommand {
            Record(tag: "sync", journal: journal)
            AsyncRecord(tag: "async", journal: journal)
            AsyncClosureCommand("closure") { journal.lines.append("closure") }
        }
        try await composite.execute()
        #expect(journal.lines == ["sync", "async", "closure"])
    }

    @Test func asyncCompositeStopsAtFirstFailure() async {
        let journal = Journal()
        let composite = AsyncCompositeCommand([
            AsyncRecord(tag: "a", journal: journal, fails: true),
            Record(tag: "b", journal: journal),
        ])
        await #expect(throws: TestError(tag: "a")) { try await composite.execute() }
        #expect(journal.lines.isEmpty)
    }

    @Test func closureCommandRethrowsItsClosuresError() {
        let command = ClosureCommand("boom") { throw TestError(tag: "boom") }
        #expect(command.description == "boom")
        #expect(throws: TestError(tag: "boom")) { try command.execute() }
    }

    @Test func syncCommandIsUsableWhereAsyncCommandsAre() async throws {
        let journal = Journal()
        let command: any AsyncCommand = Record(tag: "x", journal: journal)
        try await command.execute()
        #expect(journal.lines == ["x"])
    }
}

import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// A record's identity as text and back, the way a page hands back the step it showed: the same
/// identity, so the history accepts it as the expectation; anything else is no identity at all.
@Suite struct RecordIdentityTextTests {
    @Test func anIdentityReadBackFromItsTextIsTheSameAndExpectsTheSameStep() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let opened = try HistoryRevisionTests.open(directory.file("ids.sqlite"))
        defer { opened.db.close() }
        try opened.history.push(Append(value: 1))
        try opened.history.push(Append(value: 2))
        let record = try #require(opened.history.undoRecord)
        let text = record.id.description
        let parsed = try #require(HistoryRecord.ID(text))
        #expect(parsed == record.id)
        #expect(parsed.description == text)

        // An identity of a step that is no longer next is refused; the parsed one is accepted.
        let older = try #require(HistoryRecord.ID(try opened.history.record(at: 0).id.description))
        #expect(throws: StoreError.self) { try opened.history.undo(steps: 1, expecting: older) }
        try opened.history.undo(steps: 1, expecting: parsed)
        #expect(try opened.list.values() == [1])
    }

    @Test(arguments: [
        "", ":", "12", "12:", ":abc", "-1:abc", "12:xyz", "12:ABC", "12:0abc", "12:abc:1", "1 2:abc",
        "12:10000000000000000",
    ])
    func textThatIsNoIdentity(_ text: String) {
        #expect(HistoryRecord.ID(text) == nil)
    }

    @Test func anIdentityWithoutATokenReadsBack() throws {
        let parsed = try #require(HistoryRecord.ID("7:-"))
        #expect(parsed.description == "7:-")
    }
}

#if PostgreSQL
import CommandKit
import CommandStore
import Foundation
import PostgreSQLCommandStore
import PostgreSQLDatabase
import PostgreSQLTestSupport
import Testing

/// `PostgreSQLHistory.replaceCommand(choosing:)`: the choice is made in the write transaction,
/// from the state committed then; a replacement is one change (a revision the other clients
/// follow), and a choice of nothing, or a refused one, writes nothing.
@Suite(
    .enabled(if: PostgreSQLTestServer.isEnabled, "COMMANDKIT_POSTGRES_URL names no server (Scripts/postgres.sh start)"))
struct ReplaceCommandTests {
    /// What a choice that refuses throws.
    private struct Refusal: Error {}

    @Test func aReplacementKeepsTheEntryAndIsOneChangeOtherClientsFollow() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        let ada = try Client(database, author: "ada")
        let grace = try Client(database, author: "grace")
        try ada.history.push(PostgreSQLLine(line: "a1"))
        let first = try ada.history.record(at: 0)
        // Grace's push is not in ada's cache: the choice sees it (count 2), as committed.
        try grace.history.push(PostgreSQLLine(line: "g1"))
        let revision = grace.history.revision
        var seen: (index: Int, count: Int)?
        let replaced = try ada.history.replaceCommand { index, count in
            seen = (index, count)
            return (0, PostgreSQLLine(line: "z"))
        }
        #expect(replaced && seen?.index == 2 && seen?.count == 2)
        #expect(ada.history.revision == revision + 1)
        // The receiver is untouched, the entry keeps its identity and author.
        #expect(try ada.lines.lines() == ["a1", "g1"])
        let record = try ada.history.record(at: 0)
        #expect(record.id == first.id && record.author == "ada" && record.text == "Add z")
        #expect(try grace.history.text(at: 0) == "Add z" && grace.history.revision == revision + 1)
    }

    @Test func aChoiceOfNothingOrARefusedOneWritesNothing() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        let ada = try Client(database)
        try ada.history.push(PostgreSQLLine(line: "a1"))
        let revision = ada.history.revision
        #expect(
            try ada.history.replaceCommand { _, _ -> (position: Int, replacement: PostgreSQLLine)? in nil } == false)
        #expect(throws: Refusal.self) {
            try ada.history.replaceCommand { _, _ -> (position: Int, replacement: PostgreSQLLine)? in throw Refusal() }
        }
        let outside = #expect(throws: StoreError.self) {
            try ada.history.replaceCommand { _, count in (count, PostgreSQLLine(line: "z")) }
        }
        #expect(outside?.code == .historyChanged)
        let other = try Client(database)
        #expect(other.history.revision == revision && ada.history.revision == revision)
        #expect(try other.history.text(at: 0) == "Add a1")
    }
}
#endif

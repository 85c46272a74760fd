#if PostgreSQL
import AlbumLibrary
import CommandKit
import CommandStore
import Foundation
import PostgreSQLDatabase
import PostgreSQLTestSupport
import Testing

/// `HistoryRepairTests` on a PostgreSQL server: a library changed by psql (here a second
/// connection that knows nothing of the history) so that a stored step no longer applies; undo
/// and redo refuse it in one line naming the step, and `repairHistory()` sets that step aside as
/// one change of the history, which the other clients follow.
@Suite(.enabled(if: PostgreSQLTestServer.isEnabled)) struct PostgreSQLHistoryRepairTests {
    /// A seeded library in a schema of its own, two clients of it ("ada", "grace"), and psql.
    private func withSessions(
        _ body: (_ ada: LibrarySession, _ grace: LibrarySession, _ psql: PostgreSQLConnection) throws -> Void
    ) throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        try LibrarySession.create(postgreSQL: database.url)
        let ada = try LibrarySession.open(postgreSQL: database.url, author: "ada")
        let grace = try LibrarySession.open(postgreSQL: database.url, author: "grace")
        try ada.library.seedDefaultsIfNeeded()
        // What `psql` would be: a connection that knows nothing of the history.
        let psql = try database.connect()
        try body(ada, grace, psql)
    }

    /// `DELETE FROM album WHERE title = $1` as typed in psql.
    private func deleteOutside(_ title: String, _ psql: PostgreSQLConnection) throws {
        #expect(try psql.execute("DELETE FROM album WHERE title = $1", [title]) == 1)
    }

    /// The history's revision as committed, read by psql (nothing cached by a client).
    private func committedRevision(_ psql: PostgreSQLConnection) throws -> Int {
        let rows = try psql.query("SELECT revision FROM albums_history_header")
        return try #require(try rows.first?.decode(Int.self, at: 0))
    }

    @Test func anUndoThatNoLongerAppliesIsRefusedNamingTheStepAndRepairSetsItAside() throws {
        try withSessions { ada, grace, psql in
            try ada.edit(.position(1), changes: AlbumChanges(genre: "Glam"))
            try ada.delete(.position(5))  // American Pie
            try deleteOutside("It's My Life", psql)  // 3 albums left: position 5 is past the end
            let before = try ada.library.albums()
            let refusal = try #require(throws: LibraryError.self) { try ada.undo() }
            #expect(refusal.code == .stepNoLongerApplies)
            #expect(
                refusal.message
                    == "cannot undo step 2 “Delete “American Pie””: position 5 is out of range (1...4); the library was "
                    + "changed outside albums since (`albums history --repair` lets the history go on without this step)"
            )
            #expect(try ada.library.albums() == before)

            let revision = try committedRevision(psql)
            let repaired = try ada.repairHistory()
            #expect(repaired.step.rawValue == 2 && repaired.text == "Delete “American Pie”" && repaired.wasUndo)
            #expect(repaired.reason == "position 5 is out of range (1...4)")
            #expect(try committedRevision(psql) == revision + 1 && ada.history.revision == revision + 1)
            #expect(try ada.library.albums() == before)
            let texts = ["Edit “Best of Bowie”", "Delete “American Pie” (skipped: it no longer applied)"]
            #expect(try ada.historySteps().records.map(\.text) == texts)
            // The other client follows: it sees the repaired history, and its undo passes over the step.
            #expect(try grace.refresh())
            #expect(try grace.historySteps().records.map(\.text) == texts)
            #expect(try grace.undo(count: 2).count == 2)
            #expect(try ada.library.album(at: 1).genre == "Pop")
            try ada.redo(count: 2)
            #expect(try grace.library.album(at: 1).genre == "Glam")
            #expect(try grace.library.count() == 3)
        }
    }

    @Test func aJumpGivesTheSameNamedRefusal() throws {
        try withSessions { ada, grace, psql in
            try ada.delete(.position(5))  // American Pie
            try grace.edit(.position(1), changes: AlbumChanges(genre: "Glam"))
            try deleteOutside("It's My Life", psql)
            let before = try ada.library.albums()
            let plain = try #require(throws: LibraryError.self) { try ada.undo(count: 2) }
            #expect(plain.message.hasPrefix("cannot undo step 1 “Delete “American Pie””: position 5 is out of range"))
            let jump = try #require(throws: LibraryError.self) { try ada.jump(to: .step(HistoryNode.ID(0))) }
            #expect(jump.code == .stepNoLongerApplies && jump.message == plain.message, "\(jump.message)")
            #expect(try ada.library.albums() == before)
            // The way out the message names works, whichever client takes it.
            try grace.repairHistory()
            #expect(try ada.jump(to: .step(HistoryNode.ID(0))).jump.undone.count == 2)
        }
    }

    @Test func anUndoMineGivesTheSameNamedRefusal() throws {
        try withSessions { ada, grace, psql in
            try ada.edit(.position(1), changes: AlbumChanges(genre: "Glam"))
            try grace.add(Album(title: "Low", artist: "David Bowie"))
            try deleteOutside("Best of Bowie", psql)  // the album ada's edit changed
            let before = try ada.library.albums()
            let plain = try #require(throws: LibraryError.self) { try ada.undo(count: 2) }
            #expect(plain.code == .stepNoLongerApplies)
            let mine = try #require(throws: LibraryError.self) { try ada.undoMine(author: "ada") }
            #expect(mine.code == .stepNoLongerApplies && mine.message == plain.message, "\(mine.message)")
            #expect(mine.message.hasPrefix("cannot undo step 1 “Edit “Best of Bowie””: "), "\(mine.message)")
            #expect(try ada.library.albums() == before)
        }
    }

    @Test func aRedoThatNoLongerAppliesIsRefusedAndRepaired() throws {
        try withSessions { ada, _, psql in
            try ada.delete(.position(5))
            try ada.undo()
            try deleteOutside("American Pie", psql)
            try deleteOutside("Staring at the Sun", psql)
            let refusal = try #require(throws: LibraryError.self) { try ada.redo() }
            #expect(refusal.code == .stepNoLongerApplies)
            #expect(refusal.message.hasPrefix("cannot redo step 1 “Delete “American Pie””: "), "\(refusal.message)")
            let repaired = try ada.repairHistory()
            #expect(!repaired.wasUndo && repaired.step.rawValue == 1)
            try ada.redo()
            #expect(try ada.library.count() == 3)
        }
    }

    @Test func aMacroStepIsRunChildByChildAndSetAsideWhole() throws {
        try withSessions { ada, _, psql in
            try ada.history.beginMacro("Delete 2 albums")
            try ada.delete(.position(5))
            try ada.delete(.position(4))
            try ada.history.endMacro()
            try deleteOutside("Best of Bowie", psql)
            try deleteOutside("It's My Life", psql)
            let refusal = try #require(throws: LibraryError.self) { try ada.undo() }
            #expect(refusal.message.hasPrefix("cannot undo step 1 “Delete 2 albums”: position 4 is out of range"))
            let repaired = try ada.repairHistory()
            #expect(repaired.text == "Delete 2 albums")
            #expect(try ada.undo().map(\.text) == ["Delete 2 albums (skipped: it no longer applied)"])
            #expect(try ada.library.count() == 1)
        }
    }

    @Test func aHistoryWhoseStepsAllApplyIsNotRepairedAndNothingIsWritten() throws {
        try withSessions { ada, grace, psql in
            try ada.delete(.position(1))
            try ada.move(.position(1), to: 3)
            try ada.undo()
            let albums = try ada.library.albums()
            let steps = try ada.historySteps()
            let revision = try committedRevision(psql)
            #expect(try grace.refresh())
            let refusal = try #require(throws: LibraryError.self) { try ada.repairHistory() }
            #expect(refusal.code == .nothingToChange)
            #expect(refusal.message == "every step of the history applies: nothing to repair")
            // The trial undos and redos were rolled back, and no revision was taken.
            #expect(try committedRevision(psql) == revision && ada.history.revision == revision)
            #expect(try grace.refresh() == false)
            #expect(try ada.library.albums() == albums)
            let after = try ada.historySteps()
            #expect(after.records == steps.records && after.current == steps.current)
        }
    }

    @Test func repairingACoverStepReleasesTheImageItKept() throws {
        try withSessions { ada, _, psql in
            try ada.setCover(.position(1), to: CoverTests.cover("first"))
            try ada.setCover(.position(1), to: CoverTests.cover("second"))  // keeps "first" for its undo
            let first = try CoverTests.cover("first").hash
            func storedImages() throws -> [String] {
                try psql.query("SELECT sha256 FROM cover_image ORDER BY id").map {
                    try #require(try $0.decode(String.self, at: 0))
                }
            }
            #expect(try storedImages() == [first, try CoverTests.cover("second").hash])
            // The album deleted in psql: neither cover step applies any more.
            try deleteOutside("Best of Bowie", psql)
            let refusal = try #require(throws: LibraryError.self) { try ada.undo() }
            #expect(refusal.code == .stepNoLongerApplies)

            let repaired = try ada.repairHistory()
            #expect(repaired.text == "Set the cover of “Best of Bowie”" && repaired.step.rawValue == 2)
            // The image the second step kept for its undo went with the step, in its transaction.
            #expect(try !storedImages().contains(first))
            #expect(try psql.query("SELECT count(*) FROM kept_cover").first?.decode(Int.self, at: 0) == 0)
            try ada.repairHistory()
            let steps = try ada.historySteps().records.map(\.text)
            #expect(steps.allSatisfy { $0.hasSuffix("(skipped: it no longer applied)") }, "\(steps)")
        }
    }
}
#endif

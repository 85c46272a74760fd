import AlbumLibrary
import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// A library changed by another program (the sqlite3 shell, here a plain SQLite connection) so
/// that a stored step no longer applies: undo and redo refuse it in one line naming the step and
/// why, and `repairHistory()` sets that step aside as one recorded change, losing nothing else.
@Suite struct HistoryRepairTests {
    private func withSession(_ body: (LibrarySession, Database) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repair-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("library.sqlite").path
        let session = try LibrarySession.open(path: path)
        defer { session.close() }
        try session.library.seedDefaultsIfNeeded()
        // What `sqlite3 library.sqlite` would be: a connection that knows nothing of the history.
        let shell = try Database(path: path)
        defer { shell.close() }
        try body(session, shell)
    }

    /// `DELETE FROM album WHERE title = ?` as typed in the shell.
    private func deleteOutside(_ title: String, _ shell: Database) throws {
        try shell.execute("DELETE FROM album WHERE title = ?", [title])
    }

    @Test func anUndoThatNoLongerAppliesIsRefusedNamingTheStepAndRepairSetsItAside() throws {
        try withSession { session, shell in
            try session.edit(.position(1), changes: AlbumChanges(genre: "Glam"))
            try session.delete(.position(5))  // American Pie
            try deleteOutside("It's My Life", shell)  // 3 albums left: position 5 is past the end
            let before = try session.library.albums()
            let refusal = try #require(throws: LibraryError.self) { try session.undo() }
            #expect(refusal.code == .stepNoLongerApplies)
            #expect(
                refusal.message
                    == "cannot undo step 2 “Delete “American Pie””: position 5 is out of range (1...4); the library was "
                    + "changed outside albums since (`albums history --repair` lets the history go on without this step)"
            )
            #expect(try session.library.albums() == before)

            let revision = session.history.revision
            let repaired = try session.repairHistory()
            #expect(repaired.step.rawValue == 2 && repaired.text == "Delete “American Pie”" && repaired.wasUndo)
            #expect(repaired.reason == "position 5 is out of range (1...4)")
            #expect(session.history.revision == revision + 1)
            #expect(try session.library.albums() == before)
            let steps = try session.historySteps()
            #expect(
                steps.records.map(\.text) == [
                    "Edit “Best of Bowie”", "Delete “American Pie” (skipped: it no longer applied)",
                ])
            // The history goes on: past the set-aside step, the edit is undone and redone as ever.
            #expect(try session.undo(count: 2).count == 2)
            #expect(try session.library.album(at: 1).genre == "Pop")
            try session.redo(count: 2)
            #expect(try session.library.album(at: 1).genre == "Glam")
            #expect(try session.library.count() == 3)
        }
    }

    /// `undo --to` and "undo mine" name a step that no longer applies as plain undo does, rather
    /// than passing on the failed step's own error.
    @Test func aJumpGivesTheSameNamedRefusal() throws {
        try withSession { session, shell in
            try session.delete(.position(5))  // American Pie
            try session.edit(.position(1), changes: AlbumChanges(genre: "Glam"))
            try deleteOutside("It's My Life", shell)  // 3 albums left: position 5 is past the end
            let before = try session.library.albums()
            let plain = try #require(throws: LibraryError.self) { try session.undo(count: 2) }
            let jump = try #require(throws: LibraryError.self) { try session.jump(to: .step(HistoryNode.ID(0))) }
            #expect(jump.code == .stepNoLongerApplies && jump.message == plain.message, "\(jump.message)")
            #expect(jump.message.hasPrefix("cannot undo step 1 “Delete “American Pie””: position 5 is out of range"))
            #expect(try session.library.albums() == before)
            // The way out the message names works.
            try session.repairHistory()
            #expect(try session.jump(to: .step(HistoryNode.ID(0))).jump.undone.count == 2)
        }
    }

    @Test func anUndoMineGivesTheSameNamedRefusal() throws {
        try withSession { session, shell in
            session.history.author = "ada"
            try session.edit(.position(1), changes: AlbumChanges(genre: "Glam"))
            session.history.author = "grace"
            try session.add(Album(title: "Low", artist: "David Bowie"))
            try deleteOutside("Best of Bowie", shell)  // the album ada's edit changed
            let before = try session.library.albums()
            let plain = try #require(throws: LibraryError.self) { try session.undo(count: 2) }
            #expect(plain.code == .stepNoLongerApplies)
            let mine = try #require(throws: LibraryError.self) { try session.undoMine(author: "ada") }
            #expect(mine.code == .stepNoLongerApplies && mine.message == plain.message, "\(mine.message)")
            #expect(mine.message.hasPrefix("cannot undo step 1 “Edit “Best of Bowie””: "), "\(mine.message)")
            #expect(try session.library.albums() == before)
        }
    }

    @Test func aRedoThatNoLongerAppliesIsRefusedAndRepaired() throws {
        try withSession { session, shell in
            try session.delete(.position(5))
            try session.undo()
            try deleteOutside("American Pie", shell)
            try deleteOutside("Staring at the Sun", shell)
            let refusal = try #require(throws: LibraryError.self) { try session.redo() }
            #expect(refusal.code == .stepNoLongerApplies)
            #expect(refusal.message.hasPrefix("cannot redo step 1 “Delete “American Pie””: "), "\(refusal.message)")
            let repaired = try session.repairHistory()
            #expect(!repaired.wasUndo && repaired.step.rawValue == 1)
            try session.redo()
            #expect(try session.library.count() == 3)
        }
    }

    @Test func aMacroStepIsRunChildByChildAndSetAsideWhole() throws {
        try withSession { session, shell in
            try session.history.beginMacro("Delete 2 albums")
            try session.delete(.position(5))
            try session.delete(.position(4))
            try session.history.endMacro()
            try deleteOutside("Best of Bowie", shell)
            try deleteOutside("It's My Life", shell)
            let refusal = try #require(throws: LibraryError.self) { try session.undo() }
            #expect(refusal.message.hasPrefix("cannot undo step 1 “Delete 2 albums”: position 4 is out of range"))
            let repaired = try session.repairHistory()
            #expect(repaired.text == "Delete 2 albums")
            #expect(try session.undo().map(\.text) == ["Delete 2 albums (skipped: it no longer applied)"])
            #expect(try session.library.count() == 1)
        }
    }

    @Test func aHistoryWhoseStepsAllApplyIsNotRepaired() throws {
        try withSession { session, _ in
            try session.delete(.position(1))
            try session.move(.position(1), to: 3)
            try session.undo()
            let revision = session.history.revision
            let refusal = try #require(throws: LibraryError.self) { try session.repairHistory() }
            #expect(refusal.code == .nothingToChange)
            #expect(refusal.message == "every step of the history applies: nothing to repair")
            #expect(session.history.revision == revision)
        }
    }

    @Test func anEditedRowIsCaughtByTheIdCheck() throws {
        try withSession { session, shell in
            try session.edit(.position(2), changes: AlbumChanges(year: 1999))
            // Another album's id put in its place: the edit's undo would restore the wrong album.
            try shell.execute("UPDATE album SET id = ? WHERE title = ?", [UUID().uuidString, "It's My Life"])
            let refusal = try #require(throws: LibraryError.self) { try session.undo() }
            #expect(refusal.code == .stepNoLongerApplies)
            #expect(refusal.message.contains("the library no longer matches its history"), "\(refusal.message)")
            try session.repairHistory()
            try session.undo()
            #expect(try session.library.album(at: 2).year == 1999)
        }
    }
    @Test func repairingACoverStepReleasesTheImageItKept() throws {
        try withSession { session, shell in
            try session.setCover(.position(1), to: CoverTests.cover("first"))
            try session.setCover(.position(1), to: CoverTests.cover("second"))  // keeps "first" for its undo
            let first = try CoverTests.cover("first").hash
            func storedImages() throws -> [String] {
                try shell.fetchAll("SELECT sha256 FROM cover_image ORDER BY id").map {
                    try $0.decode(String.self, at: 0)
                }
            }
            #expect(try storedImages() == [first, try CoverTests.cover("second").hash])
            // The album deleted in the shell: neither cover step applies any more.
            try deleteOutside("Best of Bowie", shell)
            let refusal = try #require(throws: LibraryError.self) { try session.undo() }
            #expect(refusal.code == .stepNoLongerApplies)

            let repaired = try session.repairHistory()
            #expect(repaired.text == "Set the cover of “Best of Bowie”" && repaired.step.rawValue == 2)
            // The image the second step kept for its undo went with the step, in its transaction.
            #expect(try !storedImages().contains(first))
            #expect(try shell.fetchOne("SELECT count(*) FROM kept_cover")?.decode(Int.self, at: 0) == 0)
            // The first step's own repair comes next, and the history goes on.
            try session.repairHistory()
            let steps = try session.historySteps().records.map(\.text)
            #expect(steps.allSatisfy { $0.hasSuffix("(skipped: it no longer applied)") }, "\(steps)")
        }
    }
}

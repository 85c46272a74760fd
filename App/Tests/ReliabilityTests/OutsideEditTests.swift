import Foundation
import SQLiteDatabase
import Testing

/// A library edited with another program (as with the sqlite3 shell: a plain SQLite connection
/// deleting a row): undo refuses the step that no longer applies, in one line naming it and the way
/// out, and `albums history --repair` lets the history go on without it, losing nothing else.
@Suite struct OutsideEditTests {
    @Test func undoRefusesAStepAnOutsideDeleteBrokeAndHistoryRepairSetsItAside() async throws {
        let folder = try ChildProcess.makeFolder("outside-edit")
        defer { try? FileManager.default.removeItem(at: folder) }
        let albums = AlbumsCLI(database: folder.appendingPathComponent("library.sqlite").path)
        _ = try await albums("init")
        #expect(try await albums("edit", "1", "--genre", "Glam").status == 0)
        #expect(try await albums("delete", "5").status == 0)
        // `sqlite3 library.sqlite "DELETE FROM album WHERE title = 'It''s My Life'"`.
        let shell = try Database(path: albums.database)
        try shell.execute("DELETE FROM album WHERE title = ?", ["It's My Life"])
        shell.close()

        let refused = try await albums("undo")
        #expect(refused.status == 1, "\(refused)")
        #expect(
            refused.error
                == "albums: cannot undo step 2 “Delete “American Pie””: position 5 is out of range (1...4); the library "
                + "was changed outside albums since (`albums history --repair` lets the history go on without this step)\n"
        )
        #expect(try await albums("undo").error == refused.error, "refused the same way every time")

        let repaired = try await albums("history", "--repair")
        #expect(repaired.status == 0, "\(repaired)")
        #expect(
            repaired.output
                == "Set aside step 2, “Delete “American Pie””: its undo no longer applied "
                + "(position 5 is out of range (1...4)); undo and redo now pass over it\n")
        let history = try await albums("history")
        #expect(history.output.contains("Delete “American Pie” (skipped: it no longer applied)"), "\(history)")
        #expect(history.output.contains("Edit “Best of Bowie”"), "\(history)")
        // The history goes on: the set-aside step, then the edit, are undone; nothing else changed.
        #expect(try await albums("undo", "2").status == 0)
        let listed = try await albums("--json", "show", "1")
        #expect(listed.output.contains("\"genre\" : \"Pop\""), "\(listed)")
        #expect(try await albums("history", "--repair").error.contains("nothing to repair"))
    }
}

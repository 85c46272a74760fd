import AlbumLibrary
import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// Bulk steps keep their albums in the library's `bulk_album` table (schema version 5), not in
/// the history row; each way is one statement; steps recorded before keep working.
@Suite struct BulkStagingTests {
    private static func makeSession() throws -> (LibrarySession, URL, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bulk-staging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("library.sqlite").path
        return (try LibrarySession.open(path: path), folder, path)
    }

    private static func query(_ text: String) throws -> AlbumSelection { .matching(try AlbumQuery(parsing: text)) }

    /// The stored payload of the latest step, and its command version.
    private static func latestPayload(_ session: LibrarySession) throws -> (bytes: Int, version: Int) {
        let row = try #require(
            try session.database.fetchOne(
                "SELECT length(payload), version FROM commandstore_history_entry ORDER BY rowid DESC LIMIT 1"))
        return (try row.decode(Int.self, at: 0), try row.decode(Int.self, at: 1))
    }

    /// FTS5's own check that the search index holds exactly the album table's search texts.
    private static func checkSearchIndex(_ session: LibrarySession) throws {
        try session.database.execute(
            "INSERT INTO album_search (album_search, rank) VALUES ('integrity-check', 1)")
    }

    @Test func aBulkDeleteKeepsItsAlbumsInTheTableAndItsHistoryRowStaysSmall() throws {
        let (session, folder, _) = try Self.makeSession()
        defer { try? FileManager.default.removeItem(at: folder) }
        try session.importAlbums(
            (0..<3_000).map { Album(title: "Album \($0)", artist: "Artist \($0 % 10)", genre: "G\($0 % 3)") })
        let before = try session.library.albums()
        let deleted = try session.deleteAlbums(try Self.query(#"artist:"artist 7""#))
        #expect(deleted.count == 300 && deleted.members.count == 300)
        let payload = try Self.latestPayload(session)
        #expect(payload.version == 2)
        #expect(payload.bytes < 200, "the row names a batch: \(payload.bytes) bytes")
        #expect(try session.library.stagedBulkAlbumCount() == 300)
        _ = try session.undo()
        #expect(try session.library.albums() == before)
        try Self.checkSearchIndex(session)
        // Undone, the step keeps its albums for the redo.
        #expect(try session.library.stagedBulkAlbumCount() == 300)
        // Trimmed by the undo limit, the step leaves the history, and its albums with it.
        _ = try session.redo()
        _ = try session.deleteAlbums(try Self.query(#"artist:"artist 3""#))
        #expect(try session.library.stagedBulkAlbumCount() == 600)
        try session.history.setUndoLimit(1)
        #expect(try session.library.stagedBulkAlbumCount() == 300)
        try session.history.clear()
        #expect(try session.library.stagedBulkAlbumCount() == 0)
        #expect(try session.library.count() == 2_400)
    }

    @Test func undoOfABulkEditRestoresExactlyTheOldFieldsAndTheSearchIndexFindsThem() throws {
        let (session, folder, path) = try Self.makeSession()
        defer { try? FileManager.default.removeItem(at: folder) }
        let albums = [
            Album(title: #"He said "hi" \ left"#, artist: "Ä", genre: "Bop", year: 1959),
            Album(title: "Ünïcødé 🎵 日本", artist: "B", genre: "Bop"),
            Album(title: "Plain", artist: "C", genre: "Pop", year: 2001),
            Album(
                title: "Cover", artist: "D", genre: "Bop", coverURL: URL(string: "https://example.com/a%20b?c=\"d\"")),
        ]
        try session.importAlbums(albums)
        let before = try session.library.albums()
        var changes = AlbumChanges()
        changes.genre = "Free Jazz"
        changes.year = 1970
        let edit = try session.editAlbums(try Self.query("genre:bop"), changes: changes)
        #expect(edit.text == "Edit 3 albums")
        let edited = try before.map { $0.genre == "Bop" ? try $0.applying(changes) : $0 }
        #expect(try session.library.albums() == edited)
        #expect(
            try session.library.albums(matching: "free jazz", order: .position).map(\.album)
                == edited.filter { $0.genre == "Free Jazz" })
        #expect(try session.library.albums(matching: "bop", order: .position).isEmpty)
        try Self.checkSearchIndex(session)

        _ = try session.undo()
        #expect(try session.library.albums() == before)
        #expect(
            try session.library.albums(matching: "bop", order: .position).map(\.album)
                == before.filter { $0.genre == "Bop" })
        #expect(try session.library.albums(matching: "free jazz", order: .position).isEmpty)
        #expect(try session.library.albums(matching: "🎵", order: .position).count == 1)
        try Self.checkSearchIndex(session)

        // Read back from the history in a new session: the redo reads the kept albums.
        session.close()
        let reopened = try LibrarySession.open(path: path)
        defer { reopened.close() }
        _ = try reopened.redo()
        #expect(try reopened.library.albums() == edited)
        try Self.checkSearchIndex(reopened)
        _ = try reopened.undo()
        #expect(try reopened.library.albums() == before)
    }

    /// An edit of the year alone leaves the search texts and their index alone, and undoes exactly.
    @Test func anEditOfTheYearAloneUndoesExactly() throws {
        let (session, folder, path) = try Self.makeSession()
        defer { try? FileManager.default.removeItem(at: folder) }
        try session.importAlbums(
            (0..<30).map { Album(title: "T\($0)", artist: "Ä\($0 % 3)", genre: "G", year: $0 % 2 == 0 ? 1990 : nil) })
        let before = try session.library.albums()
        let texts = try session.database.fetchAll("SELECT search_text FROM album ORDER BY sort_key").map {
            try $0.decode(String.self, at: 0)
        }
        var changes = AlbumChanges()
        changes.removesYear = true
        let edit = try session.editAlbums(try Self.query("artist:ä1"), changes: changes)
        #expect(edit.count == 5, "of the ten by Ä1, the five with a year")
        let edited = try before.map { $0.artist == "Ä1" ? try $0.applying(changes) : $0 }
        #expect(try session.library.albums() == edited)
        #expect(
            try session.database.fetchAll("SELECT search_text FROM album ORDER BY sort_key").map {
                try $0.decode(String.self, at: 0)
            } == texts)
        _ = try session.undo()
        #expect(try session.library.albums() == before)
        session.close()
        let reopened = try LibrarySession.open(path: path)
        defer { reopened.close() }
        _ = try reopened.redo()
        #expect(try reopened.library.albums() == edited)
        _ = try reopened.undo()
        #expect(try reopened.library.albums() == before)
        try Self.checkSearchIndex(reopened)
    }

    @Test func bulkStepsReadBackFromTheHistoryUndoAndRedoExactly() throws {
        let (session, folder, path) = try Self.makeSession()
        defer { try? FileManager.default.removeItem(at: folder) }
        try session.importAlbums(
            (0..<40).map {
                Album(title: "T\($0)", artist: "A\($0 % 4)", genre: ["Pop", "Jazz"][$0 % 2], year: 1990 + $0)
            })
        var snapshots = [try session.library.albums()]
        _ = try session.deleteAlbums(try Self.query("artist:a1"))
        snapshots.append(try session.library.albums())
        var changes = AlbumChanges()
        changes.removesYear = true
        changes.artist = "Z"
        _ = try session.editAlbums(try Self.query("genre:jazz"), changes: changes)
        snapshots.append(try session.library.albums())
        _ = try session.moveAlbums(try Self.query("title:t3"), to: 1)
        snapshots.append(try session.library.albums())
        session.close()

        let reopened = try LibrarySession.open(path: path)
        defer { reopened.close() }
        for index in stride(from: 2, through: 0, by: -1) {
            _ = try reopened.undo()
            #expect(try reopened.library.albums() == snapshots[index], "undo to \(index)")
        }
        _ = try reopened.redo(count: 3)
        #expect(try reopened.library.albums() == snapshots[3])
        try Self.checkSearchIndex(reopened)
    }

    /// An album put back in the meantime (another program, or a step the history does not know)
    /// makes the undo refuse, changing nothing; `history --repair` then sets the step aside.
    @Test func anUndoThatWouldRepeatAnIdIsRefusedAndChangesNothing() throws {
        let (session, folder, _) = try Self.makeSession()
        defer { try? FileManager.default.removeItem(at: folder) }
        try session.importAlbums((0..<6).map { Album(title: "T\($0)", artist: "A", genre: $0 < 3 ? "X" : "Y") })
        let deleted = try session.deleteAlbums(try Self.query("genre:x"))
        let back = try #require(deleted.members.first?.album)
        // Behind the history's back, as the sqlite3 shell would.
        try session.database.execute(
            "INSERT INTO album (id, sort_key, title, artist, genre, search_text) VALUES (?, 1, ?, ?, ?, '')",
            [back.id.uuidString, back.title, back.artist, back.genre])
        let now = try session.library.albums()
        #expect { try session.undo() } throws: { error in
            (error as? LibraryError)?.message.contains(back.id.uuidString) == true
        }
        #expect(try session.library.albums() == now)
        #expect(session.undoText == "Delete 3 albums")
        // Repaired, the step is set aside, and the albums it kept go with it.
        #expect(try session.library.stagedBulkAlbumCount() == 3)
        let repaired = try session.repairHistory()
        #expect(repaired.text == "Delete 3 albums" && repaired.wasUndo)
        #expect(try session.library.stagedBulkAlbumCount() == 0)
        #expect(try session.library.albums() == now)
    }

    /// A library of schema version 4 (Tests/Fixtures/bulk4-library.sqlite, written at commit
    /// 9b00cf1): its bulk steps hold their albums in the history row (command version 1), and
    /// they still undo and redo, the deleted album's stored cover image included.
    @Test func bulkStepsRecordedBeforeTheTableStillUndoAndRedo() throws {
        let (folder, path, exported) = try LibraryFormatMigrationTests.copyOfFixture("bulk4")
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try AlbumFile.decode(
            Data(contentsOf: LibraryFormatMigrationTests.fixtures.appendingPathComponent("bulk4-before-library.json")))

        let session = try LibrarySession.open(path: path)
        defer { session.close() }
        #expect(try session.database.schemaVersion(of: "albums") == 5)
        #expect(try session.library.albums() == exported)
        #expect(session.undoText == "Edit 5 albums" && session.redoText == "Move 2 albums to position 1")

        // The move, redone from its row and undone again.
        _ = try session.redo()
        #expect(try session.library.albums().prefix(2).map(\.artist) == ["Sting", "U2"])
        _ = try session.undo()
        #expect(try session.library.albums() == exported)

        // The edit and the delete, undone from their rows: the nine albums and the cover are back.
        _ = try session.undo(count: 2)
        #expect(try session.library.albums() == before)
        let mingus = try #require(before.first { $0.title == "Mingus Ah Um" })
        #expect(try session.library.coverSummary(of: mingus.id)?.byteCount == 67)
        #expect(try session.library.albums(matching: "jazz", order: .position).count == 3)
        try Self.checkSearchIndex(session)
        #expect(try session.library.stagedBulkAlbumCount() == 0)

        _ = try session.redo(count: 3)
        #expect(try session.library.albums().map(\.title).prefix(2) == ["Nothing Like The Sun", "Staring at the Sun"])
        #expect(try session.library.coverSummary(of: mingus.id) == nil)
        _ = try session.undo(count: 3)
        #expect(try session.library.albums() == before)
        #expect(try session.library.coverSummary(of: mingus.id)?.byteCount == 67)

        // A new bulk step in the migrated library keeps its albums in the table.
        _ = try session.deleteAlbums(try Self.query("genre:jazz"))
        #expect(try session.library.stagedBulkAlbumCount() == 3)
        #expect(try Self.latestPayload(session).version == 2)
        _ = try session.undo()
        #expect(try session.library.albums() == before)
        #expect(try session.library.coverSummary(of: mingus.id)?.byteCount == 67)
    }
}

import AlbumLibrary
import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// A library written by the code of store format 3 (Tests/Fixtures, written at commit 7beac68)
/// opens with today's code: the history moves to format 5 (a header table, entry identities, a
/// revision) at open, and every album and step survives, undoable and redoable.
@Suite struct LibraryFormatMigrationTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A copy of fixture `name`-library.sqlite in a new folder (the caller removes it), and the
    /// albums its `name`-library.json says it holds.
    static func copyOfFixture(_ name: String) throws -> (folder: URL, path: String, exported: [Album]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("library.sqlite").path
        try FileManager.default.copyItem(
            atPath: fixtures.appendingPathComponent("\(name)-library.sqlite").path, toPath: path)
        let exported = try AlbumFile.decode(Data(contentsOf: fixtures.appendingPathComponent("\(name)-library.json")))
        return (folder, path, exported)
    }

    @Test func aFormat3LibraryMigratesAtOpenAndKeepsItsAlbumsAndHistory() throws {
        let (folder, path, exported) = try Self.copyOfFixture("format3")
        defer { try? FileManager.default.removeItem(at: folder) }

        let session = try LibrarySession.open(path: path)
        defer { session.close() }
        #expect(try session.database.schemaVersion(of: "commandstore") == 7)
        #expect(try session.library.albums() == exported)
        let history = try session.historySteps()
        #expect(
            history.records.map(\.text) == [
                "Add “Fixture One”", "Add “Fixture Two”", "Delete “Best of Bowie”", "Move “It's My Life”",
            ])
        #expect(history.current == 3)
        // Migrated entries carry no time; their identities still tell them apart.
        #expect(history.records.allSatisfy { $0.date == nil })
        #expect(Set(history.records.map(\.id)).count == 4)

        // Format 5's revision starts at 0; each change from then on raises it by one.
        #expect(session.history.revision == 0)

        #expect(try session.redo().map(\.text) == ["Move “It's My Life”"])
        #expect(try session.undo(count: 4).count == 4)
        #expect(try session.library.albums().map(\.title) == Album.defaults().map(\.title))
        #expect(try session.redo(count: 4).count == 4)
        try session.add(Album(title: "After the migration", artist: "A"))
        #expect(session.history.revision == 4)
        let after = try session.historySteps()
        #expect(after.records.count == 5 && after.records.last?.date != nil)
    }

    /// A library of store format 4 (Tests/Fixtures, written at commit e9580fe: a header table, no
    /// revision) moves to format 5 at open: every album and step is kept, the undone import's
    /// staged albums too, and the revision starts at 0 and counts the changes from then on.
    @Test func aFormat4LibraryMigratesAtOpenKeepsItsStepsAndStartsItsRevisionAtZero() throws {
        let (folder, path, exported) = try Self.copyOfFixture("format4")
        defer { try? FileManager.default.removeItem(at: folder) }

        let session = try LibrarySession.open(path: path)
        defer { session.close() }
        #expect(try session.database.schemaVersion(of: "commandstore") == 7)
        #expect(try session.library.albums() == exported)
        let history = try session.historySteps()
        #expect(
            history.records.map(\.text) == [
                "Add “Fixture One”", "Edit “Best of Bowie”", "Delete “It's My Life”", "Move “Best of Bowie”",
                "Import 2 albums",
            ])
        #expect(history.current == 4)
        #expect(session.history.revision == 0)

        #expect(try session.redo().map(\.text) == ["Import 2 albums"])
        #expect(try session.library.albums().suffix(2).map(\.title) == ["Fixture Two", "Fixture Three"])
        #expect(session.history.revision == 1)
        #expect(try session.undo(count: 5).count == 5)
        #expect(try session.library.albums().map(\.title) == Album.defaults().map(\.title))
        #expect(session.history.revision == 2)
        #expect(try session.redo(count: 4).count == 4)
        #expect(try session.library.albums() == exported)
        #expect(session.history.revision == 3)
    }

    /// Edits are stored at version 2 since they can remove the year or the cover; steps stored at
    /// version 1 (before removals) still undo and redo, and a newer version is refused, not guessed.
    @Test func editStepsOfVersion1StillUndoAndRedoAndNewerOnesAreRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("edit-v1-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("library.sqlite").path
        func storedVersions(_ session: LibrarySession) throws -> [Int] {
            try session.database.fetchAll("SELECT version FROM commandstore_history_entry WHERE kind = 'albums.edit'")
                .map { try $0.decode(Int.self, at: 0) }
        }

        var session = try LibrarySession.open(path: path)
        try session.library.seedDefaultsIfNeeded()
        _ = try session.edit(.position(1), changes: AlbumChanges(title: "Renamed"))
        #expect(try storedVersions(session) == [2])
        // What an albums of version-1 edits wrote: the same JSON, without removal keys.
        try session.database.execute("UPDATE commandstore_history_entry SET version = 1 WHERE kind = 'albums.edit'")
        session.close()

        session = try LibrarySession.open(path: path)
        #expect(try session.undo().map(\.text) == ["Edit “Best of Bowie”"])
        #expect(try session.library.album(at: 1).title == "Best of Bowie")
        #expect(try session.redo().count == 1)
        #expect(try session.library.album(at: 1).title == "Renamed")

        try session.database.execute("UPDATE commandstore_history_entry SET version = 3 WHERE kind = 'albums.edit'")
        session.close()
        session = try LibrarySession.open(path: path)
        defer { session.close() }
        let refusal = #expect(throws: (any Error).self) { try session.undo() }
        #expect(String(describing: refusal).contains("version 3"))
        #expect(try session.library.album(at: 1).title == "Renamed")  // refused, nothing changed
    }
}

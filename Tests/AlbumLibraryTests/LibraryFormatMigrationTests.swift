import AlbumLibrary
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// A library written by the code of store format 3 (Tests/Fixtures, written at commit 7beac68)
/// opens with today's code: the history moves to format 4 (a header table, entry identities)
/// at open, and every album and step survives, undoable and redoable.
@Suite struct LibraryFormatMigrationTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    @Test func aFormat3LibraryMigratesAtOpenAndKeepsItsAlbumsAndHistory() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("format3-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("library.sqlite").path
        try FileManager.default.copyItem(
            atPath: Self.fixtures.appendingPathComponent("format3-library.sqlite").path, toPath: path)
        let exported = try AlbumFile.decode(
            Data(contentsOf: Self.fixtures.appendingPathComponent("format3-library.json")))

        let session = try LibrarySession.open(path: path)
        defer { session.database.close() }
        #expect(try session.database.schemaVersion(of: "commandstore") == 4)
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

        #expect(try session.redo().map(\.text) == ["Move “It's My Life”"])
        #expect(try session.undo(count: 4).count == 4)
        #expect(try session.library.albums().map(\.title) == Album.defaults().map(\.title))
        #expect(try session.redo(count: 4).count == 4)
        try session.add(Album(title: "After the migration", artist: "A"))
        let after = try session.historySteps()
        #expect(after.records.count == 5 && after.records.last?.date != nil)
    }
}

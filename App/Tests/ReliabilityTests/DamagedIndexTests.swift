import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// A library whose damage sits where no command reads (an index that no longer matches its table)
/// is refused by every command, before anything is written.
///
/// Regression test: before `LibraryFile.open` checked integrity, `albums list` printed from the
/// damaged index and `albums add` committed into the damaged file (DamagedLibraryTests found it:
/// bit flips in index pages).
@Suite struct DamagedIndexTests {
    @Test func everyCommandRefusesALibraryWithADamagedIndex() async throws {
        let folder = try ChildProcess.makeFolder("damaged-index")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.path + "/library.db"
        let cli = AlbumsCLI(database: path)
        let seedFile = folder.path + "/seed.json"
        try AlbumsCLI.importFile(count: 30).write(to: URL(fileURLWithPath: seedFile))
        #expect(try await cli("import", seedFile).status == 0)
        // Point the sort-key index's definition at another column: its entries no longer match the table.
        var configuration = Database.Configuration()
        configuration.createIfMissing = false
        let raw = try Database(path: path, configuration: configuration)
        try raw.execute("PRAGMA writable_schema = ON")
        try raw.execute(
            "UPDATE sqlite_master SET sql = replace(sql, '(sort_key)', '(year)') WHERE name = ?", ["album_by_sort_key"])
        raw.close()
        let before = try DamagedStoreTests.contents(of: folder.path)
        for arguments in [["list"], ["history"], ["add", "--title", "T", "--artist", "A"], ["delete", "1"], ["undo"]] {
            let result = try await cli.run(arguments)
            AlbumsCLI.expectNoCrash(result, "\(arguments)")
            AlbumsCLI.expectClearFailure(result, "\(arguments)")
            #expect(result.error.contains("library.db"), "\(arguments): \(result)")
            #expect(try DamagedStoreTests.contents(of: folder.path) == before, "\(arguments) changed the files")
        }
    }
}

import AlbumLibrary
import Foundation
import SQLiteDatabase
import Testing

@testable import AlbumsApp

/// `albums list`, `list --json`, `list --sort`, `list --search` and `export` write the library a
/// batch at a time (issue 27, C1): what they print is, byte for byte, what the formatters print
/// from the whole library read into one array.
@Suite struct StreamedListingTests {
    @Test func streamedOutputIsTheWholeLibrarysOutput() async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let albums = AlbumsProcess(database: folder.appendingPathComponent("library.sqlite").path)
        // 2,400 albums over three batches: ties, case, wide and combining characters, a control
        // character, no year, no genre.
        let titles = ["Blue", "blue", "Café", "東京ラブストーリー", "Ame\u{301}lie", "Bell\u{7}", "Zebra"]
        let many = (0..<2_400).map { number in
            Album(
                title: "\(titles[number % titles.count]) \(number % 89)", artist: "Artist \(number % 13)",
                genre: number % 5 == 0 ? "" : "Genre \(number % 3)", year: number % 7 == 0 ? nil : 1950 + number % 60)
        }
        let file = folder.appendingPathComponent("many.json")
        try AlbumFile.encode(many).write(to: file)
        #expect(try await albums("import", file.path).status == 0)
        #expect(try await albums("delete", "40").status == 0)
        #expect(try await albums("move", "3", "2000").status == 0)

        let session = try LibrarySession.open(path: albums.database)
        let library = session.library
        let current = try library.currentAlbumID()
        let whole = try library.albums()
        var expected: [[String]: String] = [
            ["list"]: AlbumFormatter.listText(whole, positions: nil, currentID: current),
            ["export"]: String(decoding: AlbumFile.encode(whole), as: UTF8.self),
            ["--json", "list"]: AlbumFormatter.listJSON(
                whole.enumerated().map { ($0.offset + 1, $0.element) }, currentID: current),
            ["list", "--search", "nothing like this"]: "No albums match “nothing like this”.\n",
        ]
        for (name, order) in [("title", AlbumOrder.title), ("artist", .artist), ("year", .year)] {
            let rows = try library.albums(matching: nil, order: order)
            expected[["list", "--sort", name]] = AlbumFormatter.listText(rows, currentID: current)
            expected[["--json", "list", "--sort", name]] = AlbumFormatter.listJSON(rows, currentID: current)
        }
        for query in ["blue 1", "東京", "e\u{301}"] {
            let rows = try library.albums(matching: query, order: .title)
            #expect(!rows.isEmpty)
            expected[["list", "--search", query, "--sort", "title"]] = AlbumFormatter.listText(rows, currentID: current)
            expected[["--json", "list", "--search", query]] = AlbumFormatter.listJSON(
                try library.albums(matching: query, order: .position), currentID: current)
        }
        session.close()

        for (arguments, output) in expected {
            let result = try await albums.run(["--db", albums.database] + arguments)
            #expect(result.status == 0 && result.error.isEmpty, "\(arguments): \(result.error)")
            #expect(result.output == output, "\(arguments): the streamed output differs")
        }
        // To a file, too.
        let exported = folder.appendingPathComponent("export.json")
        let result = try await albums("export", exported.path)
        #expect(result.output == "Exported 2404 albums to \(exported.path)\n", "\(result)")
        #expect(try Data(contentsOf: exported) == AlbumFile.encode(whole))
    }
}

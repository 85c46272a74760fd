import AlbumLibrary
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// The bounded-memory reads `albums list` and `export` use (issue 27, C1) give exactly what the
/// reads into one array give: the same albums, order, positions and ties, across batch boundaries.
@Suite struct LibraryStreamingTests {
    /// 2,505 albums with shared titles (ties), titles differing only in case, non-ASCII and wide
    /// characters, missing years and genres; then moves and deletes, so positions and sort keys part.
    static func makeLibrary() throws -> LibraryAPI {
        let database = try Database.openStore(path: ":memory:", schemas: [LibraryFile.albumsSchema])
        let library = LibraryAPI(database: database)
        try library.seedDefaultsIfNeeded()
        let titles = ["Blue", "blue", "Café", "東京", "Ångström", "Zebra", "apple"]
        try library.append(
            contentsOf: (0..<2_500).map { number in
                Album(
                    title: "\(titles[number % titles.count]) \(number % 97)", artist: "Artist \(number % 11)",
                    genre: number % 5 == 0 ? "" : "Genre", year: number % 7 == 0 ? nil : 1950 + number % 60)
            })
        for (from, to) in [(2_000, 3), (10, 1_500), (7, 2_400)] { _ = try library.moveAlbum(from: from, to: to) }
        for position in [1_000, 50, 2_300] { _ = try library.removeAlbum(at: position) }
        return library
    }

    @Test(arguments: [nil, "blue", "caf", "東京 1", "no such album", "artist 3"] as [String?])
    func batchesGiveWhatTheArrayGives(query: String?) throws {
        let library = try Self.makeLibrary()
        for order in [AlbumOrder.position, .title, .artist, .year] {
            let whole = try library.albums(matching: query, order: order)
            for batchSize in [1, 333, 1_000] {
                var streamed: [(position: Int, album: Album)] = []
                var batches = 0
                try library.forEachAlbum(matching: query, order: order, batchSize: batchSize) { batch in
                    #expect(batch.count <= batchSize && !batch.isEmpty)
                    streamed += batch
                    batches += 1
                }
                #expect(streamed.map(\.position) == whole.map(\.position), "\(String(describing: query)) \(order)")
                #expect(streamed.map(\.album) == whole.map(\.album), "\(String(describing: query)) \(order)")
                #expect(batches == (whole.count + batchSize - 1) / batchSize)
            }
        }
    }

    @Test func theWholeLibraryInBatchesAndItsTextAreTheAlbums() throws {
        let library = try Self.makeLibrary()
        var streamed: [Album] = []
        try library.forEachAlbum(batchSize: 400) { streamed += $0 }
        #expect(streamed == (try library.albums()))
        var texts: [String] = []
        var years = 0
        try library.forEachAlbumText { title, artist, genre, hasYear in
            texts.append([title, artist, genre].map { String(decoding: $0, as: UTF8.self) }.joined(separator: "|"))
            if hasYear { years += 1 }
        }
        #expect(texts.sorted() == streamed.map { "\($0.title)|\($0.artist)|\($0.genre)" }.sorted())
        #expect(years == streamed.filter { $0.year != nil }.count)
        // An export written in batches is the export written at once.
        var writer = AlbumFile.Writer()
        var data = Data()
        try library.forEachAlbum(batchSize: 250) { data += writer.bytes(for: $0) }
        data += writer.end()
        #expect(data == AlbumFile.encode(streamed))
        var empty = AlbumFile.Writer()
        #expect(empty.bytes(for: []) + empty.end() == AlbumFile.encode([]))
    }
}

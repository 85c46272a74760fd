import AlbumLibrary
import CommandStore
import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// Sorts of several keys and directions: parsed, and applied to a library as an in-memory sort of
/// the same albums would.
@Suite struct AlbumSortTests {
    @Test func parsesKeysAndDirections() throws {
        #expect(try AlbumSort(parsing: "year-,title+").keys == [.init(.year, descending: true), .init(.title)])
        #expect(try AlbumSort(parsing: "artist") == .artist)
        #expect(try AlbumSort(parsing: " year - , title").description == "year-,title+")
    }

    @Test(arguments: [
        ("colour", "unknown sort key 'colour'"), ("year,,title", "an empty sort key"), ("year,year-", "given twice"),
        ("", "an empty sort key"),
    ])
    func refusesBadSorts(text: String, message: String) {
        #expect {
            try AlbumSort(parsing: text)
        } throws: { error in
            (error as? LibraryError)?.message.contains(message) == true
        }
    }

    /// The rule, written plainly: each key in turn, a missing year last in either direction, then
    /// library order.
    private static func inMemory(_ albums: [Album], _ sort: AlbumSort) -> [Int] {
        let rows = albums.enumerated().map { (position: $0.offset + 1, album: $0.element) }
        return rows.sorted { left, right in
            for key in sort.keys {
                let ordered: Bool?
                switch key.order {
                case .position: ordered = left.position == right.position ? nil : left.position < right.position
                case .title:
                    let (a, b) = (left.album.title.lowercased(), right.album.title.lowercased())
                    ordered = a == b ? nil : a < b
                case .artist:
                    let (a, b) = (left.album.artist.lowercased(), right.album.artist.lowercased())
                    ordered = a == b ? nil : a < b
                case .year:
                    switch (left.album.year, right.album.year) {
                    case (nil, nil): ordered = nil
                    case (nil, _): return false
                    case (_, nil): return true
                    case (let a?, let b?): ordered = a == b ? nil : a < b
                    }
                }
                if let ordered { return key.descending ? !ordered : ordered }
            }
            return left.position < right.position
        }.map(\.position)
    }

    @Test func randomSortsOrderAsTheRuleSays() throws {
        let seed = UInt64(0x5027_0026)
        var random = SplitMix64(seed: seed)
        let database = try Database.openStore(path: ":memory:", schemas: [LibraryFile.albumsSchema])
        let library = LibraryAPI(database: database)
        let albums = (0..<500).map { _ in
            Album(
                title: ["Blue", "blue", "Apple", "Zebra", "Café"].randomElement(using: &random)!,
                artist: ["A", "b", "C"].randomElement(using: &random)!,
                year: Int.random(in: 0..<4, using: &random) == 0 ? nil : Int.random(in: 1990...1995, using: &random))
        }
        try library.append(contentsOf: albums)
        let orders = AlbumOrder.allCases
        for step in 0..<60 {
            let count = Int.random(in: 1...3, using: &random)
            var keys: [AlbumSort.Key] = []
            for order in orders.shuffled(using: &random).prefix(count) {
                keys.append(.init(order, descending: Bool.random(using: &random)))
            }
            let sort = AlbumSort(keys)
            var found: [Int] = []
            try library.forEachAlbum(matching: nil, sort: sort, batchSize: 97) { rows in found += rows.map(\.position) }
            let expected = Self.inMemory(albums, sort)
            #expect(found == expected, "seed \(seed) step \(step): \(sort)")
        }
    }

    @Test func statisticsCountTheLibrary() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("album-stats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try LibrarySession.open(path: folder.appendingPathComponent("library.sqlite").path)
        let empty = try session.statistics()
        #expect(empty.albums == 0 && empty.firstYear == nil && empty.lastYear == nil && empty.historySteps == 0)
        _ = try session.add(Album(title: "Blue", artist: "Joni Mitchell", genre: "Folk", year: 1971))
        _ = try session.add(Album(title: "Court and Spark", artist: "Joni Mitchell", genre: "Folk", year: 1974))
        _ = try session.add(Album(title: "Kind of Blue", artist: "Miles Davis", genre: "Jazz", year: 1959))
        _ = try session.add(Album(title: "Untitled", artist: "Nobody"))
        let statistics = try session.statistics()
        #expect(statistics.albums == 4)
        #expect(statistics.artists == 3)
        #expect(statistics.genres == 2)
        #expect(statistics.firstYear == 1959 && statistics.lastYear == 1974)
        #expect(statistics.albumsWithoutYear == 1)
        #expect(statistics.historySteps == 4)
        #expect(statistics.bytesOnDisk > 0)
        let json = String(decoding: try JSONEncoder().encode(empty), as: UTF8.self)
        #expect(json.contains("\"firstYear\":null"), "\(json)")
    }
}

import AlbumLibrary
import CommandStore
import Foundation
import SQLiteDatabase

/// One fuzz case: the input as a line of query text.
///
/// Any text must either parse or be refused with an ``LibraryError/Code/invalidQuery`` error whose
/// message is one non-empty line. What parses must read back from its description as the same
/// query, and the library's SQL (bound parameters, the trigram index) must find exactly the albums
/// the query's own rule (`matches`) finds among a small library of awkward albums: an SQL or FTS5
/// syntax error, a crash, a hang or a difference is a bug.
enum AlbumQueryFuzzer {
    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let parsed: AlbumQuery?
        do {
            parsed = try AlbumQuery.parse(text)
        } catch {
            guard error.code == .invalidQuery, !error.message.isEmpty else {
                fatalError("a refusal without its code or message: \(error.code) \(error.message)")
            }
            return
        }
        guard let query = parsed else { return }
        do {
            guard let again = try AlbumQuery.parse(query.description), again == query else {
                fatalError("\(query.description) does not read back as \(query.expression)")
            }
        } catch {
            fatalError("\(query.description) is refused: \(error.message)")
        }
        let library = Self.library
        do {
            let found = try library.albums(matching: query, order: .position).map(\.album.id)
            let expected = try library.albums().filter(query.matches).map(\.id)
            guard found == expected else {
                fatalError("\(query.description): SQL found \(found.count) albums, the rule \(expected.count)")
            }
        } catch {
            fatalError("\(query.description) failed in SQL: \(error)")
        }
    }

    /// Albums with accents, wide and combining characters, quotes, colons, dashes, no year or genre.
    nonisolated(unsafe) static let library: LibraryAPI = {
        do {
            let database = try Database.openStore(path: ":memory:", schemas: [LibraryFile.albumsSchema])
            let library = LibraryAPI(database: database)
            try library.append(contentsOf: [
                Album(title: "Best of Bowie", artist: "David Bowie", genre: "Pop", year: 1992),
                Album(title: "Björk: Début", artist: "Björk", genre: "Électronique", year: 1993),
                Album(title: "\"Heroes\"", artist: "David Bowie", genre: "Rock", year: 1977),
                Album(title: "-ism", artist: "OR", genre: "", year: nil),
                Album(title: "東京 Ｔｏｋｙｏ", artist: "Ｙｅｌｌｏｗ", genre: "City pop", year: 1980),
                Album(title: "Cafe\u{301} au lait, no. 2", artist: "A, B & C", genre: "Jazz", year: 9999),
                Album(title: "Back\\slash", artist: "^caret", genre: "Noise", year: 1),
            ])
            return library
        } catch {
            fatalError("cannot make the fuzz library: \(error)")
        }
    }()
}

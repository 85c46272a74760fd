import AlbumLibrary
import CommandStore
import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// Queries run on a real library file (its trigram index, its positions) find what they say, and
/// what an in-memory filter of the same albums finds, on randomized libraries and queries.
@Suite struct AlbumQueryResultsTests {
    /// A library file in a fresh temporary folder, with `albums` in that order.
    private static func makeLibrary(_ albums: [Album]) throws -> LibraryAPI {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("album-query-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let library = LibraryAPI(database: try LibraryFile.open(path: folder.appendingPathComponent("library.db").path))
        try library.append(contentsOf: albums)
        return library
    }

    private static let collection = [
        Album(title: "OK Computer", artist: "Radiohead", genre: "Rock", year: 1997),
        Album(title: "Kid A", artist: "Radiohead", genre: "Electronic", year: 2000),
        Album(title: "Homogenic", artist: "Björk", genre: "Électronique", year: 1997),
        Album(title: "Kind of Blue", artist: "Miles Davis", genre: "Jazz", year: 1959),
        Album(title: "Blue Train", artist: "John Coltrane", genre: "Hard bop", year: 1957),
        Album(title: "Live at Leeds", artist: "The Who", genre: "Rock", year: 1970),
        Album(title: "Untitled", artist: "Unknown", genre: "", year: nil),
    ]

    private func titles(_ text: String, order: AlbumOrder = .position) throws -> [String] {
        let library = try Self.makeLibrary(Self.collection)
        return try library.albums(matching: AlbumQuery(parsing: text), order: order).map(\.album.title)
    }

    @Test func fieldsRangesNegationAndAlternatives() throws {
        #expect(try titles("artist:radiohead year:1990..1999") == ["OK Computer"])
        #expect(try titles("year:..1960", order: .year) == ["Blue Train", "Kind of Blue"])
        #expect(try titles("year:2000..") == ["Kid A"])
        #expect(try titles("blue -jazz") == ["Blue Train"])
        #expect(try titles("^year:1950..2010") == ["Untitled"])
        #expect(try titles("artist:bjork , genre:jazz") == ["Homogenic", "Kind of Blue"])
        #expect(try titles("electronique") == ["Homogenic"])
        #expect(try titles("title::^K artist::^R") == ["Kid A"])
        #expect(try titles("title::(?i)^k") == ["Kid A", "Kind of Blue"])
        #expect(try titles("year::^19[56]") == ["Kind of Blue", "Blue Train"])
        #expect(try titles(#""of blue""#) == ["Kind of Blue"])
        #expect(try titles("title:radiohead") == [])
    }

    @Test func positionsAreTheLibrarysAndIDsMatchByTheirStart() throws {
        let library = try Self.makeLibrary(Self.collection)
        let rows = try library.albums(matching: AlbumQuery(parsing: "rock"), order: .position)
        #expect(rows.map(\.position) == [1, 6])
        let id = rows[1].album.id.uuidString
        let byID = try library.albums(matching: AlbumQuery(parsing: "id:" + id.prefix(8).lowercased()), order: .title)
        #expect(byID.map(\.album.id).contains(rows[1].album.id))
        #expect(try library.albums(matching: AlbumQuery(parsing: "id:\(id)"), order: .title).map(\.position) == [6])
    }

    @Test func searchTextIsAQueryOfOnePhrase() throws {
        let library = try Self.makeLibrary(Self.collection)
        for text in ["blue", "bjork", "ra", "of blue", "-"] {
            let search = try library.albums(matching: text, order: .title).map(\.album.id)
            let query = try library.albums(matching: .containing(text), order: .title).map(\.album.id)
            #expect(search == query, "\(text)")
        }
    }

    // MARK: - Model-based: random libraries and queries against an in-memory filter

    /// The test's own structure of a query: rendered to text, parsed by the library, and evaluated
    /// here on the albums without the library's code.
    private indirect enum Model {
        case words(String)
        case field(String, String)
        case years(Int?, Int?)
        case pattern(String, String)
        case not(Model)
        case all([Model])
        case any([Model])

        var text: String {
            switch self {
            case .words(let word): "\"\(word)\""
            case .field(let field, let value): "\(field):\"\(value)\""
            case .years(let from, let through): "year:\(from.map(String.init) ?? "")..\(through.map(String.init) ?? "")"
            // Quoted, backslashes doubled: the parser reads a backslash as an escape.
            case .pattern(let field, let pattern):
                "\(field)::\"\(pattern.replacingOccurrences(of: "\\", with: "\\\\"))\""
            case .not(let inner): "^" + inner.text
            case .all(let parts): parts.map(\.text).joined(separator: " ")
            case .any(let parts): parts.map(\.text).joined(separator: " OR ")
            }
        }

        func matches(_ album: Album, _ regexes: [String: Regex<AnyRegexOutput>]) -> Bool {
            func folded(_ text: String) -> String {
                text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            }
            func contains(_ text: String, _ part: String) -> Bool {
                let bytes = Array(folded(text).utf8)
                let part = Array(folded(part).utf8)
                guard !part.isEmpty else { return true }
                guard bytes.count >= part.count else { return false }
                return (0...(bytes.count - part.count)).contains { Array(bytes[$0..<($0 + part.count)]) == part }
            }
            func value(_ field: String) -> String? {
                switch field {
                case "title": album.title
                case "artist": album.artist
                case "genre": album.genre
                default: album.year.map(String.init)
                }
            }
            switch self {
            case .words(let word): return [album.title, album.artist, album.genre].contains { contains($0, word) }
            case .field(let field, let text): return contains(value(field) ?? "", text)
            case .years(let from, let through):
                guard let year = album.year else { return false }
                return year >= (from ?? .min) && year <= (through ?? .max)
            case .pattern(let field, let pattern):
                guard let text = value(field) else { return false }
                return (try? regexes[pattern]!.firstMatch(in: text)) != nil
            case .not(let inner): return !inner.matches(album, regexes)
            case .all(let parts): return parts.allSatisfy { $0.matches(album, regexes) }
            case .any(let parts): return parts.contains { $0.matches(album, regexes) }
            }
        }
    }

    private static let vocabulary = [
        "sun", "Sun", "Café", "cafe", "東京", "ｔｏｋｙｏ", "blue", "ab", "b", "Ét", "of the", "Ø",
    ]
    private static let fields = ["title", "artist", "genre"]
    private static let patterns = ["^B", "(?i)sun$", "\\d", "[éÉ]", "o.?k", "^$"]

    private static func randomAlbum(_ random: inout SplitMix64) -> Album {
        func phrase() -> String {
            (0..<Int.random(in: 1...3, using: &random)).map { _ in vocabulary.randomElement(using: &random)! }
                .joined(separator: " ")
        }
        return Album(
            title: phrase(), artist: phrase(), genre: Bool.random(using: &random) ? phrase() : "",
            year: Int.random(in: 0..<5, using: &random) == 0 ? nil : Int.random(in: 1950...2010, using: &random))
    }

    private static func randomTerm(_ random: inout SplitMix64) -> Model {
        let word = vocabulary.randomElement(using: &random)!
        let term: Model
        switch Int.random(in: 0..<4, using: &random) {
        case 0: term = .words(word)
        case 1: term = .field(fields.randomElement(using: &random)!, word)
        case 2:
            let from = Bool.random(using: &random) ? Int.random(in: 1950...2010, using: &random) : nil
            let through =
                from.map { $0 + Int.random(in: 0...20, using: &random) } ?? Int.random(in: 1950...2010, using: &random)
            term = .years(from, Bool.random(using: &random) || from == nil ? through : nil)
        default:
            term = .pattern((fields + ["year"]).randomElement(using: &random)!, patterns.randomElement(using: &random)!)
        }
        return Int.random(in: 0..<4, using: &random) == 0 ? .not(term) : term
    }

    private static func randomQuery(_ random: inout SplitMix64) -> Model {
        let alternatives = (0..<Int.random(in: 1...3, using: &random)).map { _ -> Model in
            let terms = (0..<Int.random(in: 1...3, using: &random)).map { _ in randomTerm(&random) }
            return terms.count == 1 ? terms[0] : .all(terms)
        }
        return alternatives.count == 1 ? alternatives[0] : .any(alternatives)
    }

    @Test func randomQueriesFindWhatAnInMemoryFilterFinds() throws {
        let seed = UInt64(0x5EED_A1B0_0026)
        var random = SplitMix64(seed: seed)
        let regexes = Dictionary(uniqueKeysWithValues: try Self.patterns.map { ($0, try Regex($0)) })
        for round in 0..<3 {
            var albums = (0..<300).map { _ in Self.randomAlbum(&random) }
            let library = try Self.makeLibrary(albums)
            // Moves and deletes, so that positions and sort keys part.
            for _ in 0..<30 {
                let from = Int.random(in: 1...albums.count, using: &random)
                if Bool.random(using: &random) {
                    let to = Int.random(in: 1...albums.count, using: &random)
                    _ = try library.moveAlbum(from: from, to: to)
                    albums.insert(albums.remove(at: from - 1), at: to - 1)
                } else {
                    _ = try library.removeAlbum(at: from)
                    albums.remove(at: from - 1)
                }
            }
            for step in 0..<100 {
                let model = Self.randomQuery(&random)
                let query = try AlbumQuery(parsing: model.text)
                let expected = albums.enumerated().filter { model.matches($0.element, regexes) }.map {
                    ($0.offset + 1, $0.element.id)
                }
                let found = try library.albums(matching: query, order: .position).map { ($0.position, $0.album.id) }
                let same = found.elementsEqual(expected, by: ==)
                #expect(
                    same,
                    "seed \(seed) round \(round) step \(step): \(model.text) found \(found.count), expected \(expected.count)"
                )
                let agrees = albums.filter(query.matches).map(\.id) == expected.map(\.1)
                #expect(agrees, "seed \(seed) round \(round) step \(step): \(model.text): matches(_:)")
            }
        }
    }
}

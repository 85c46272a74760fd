import Foundation
import Testing

@testable import AlbumLibrary

/// The texts a bulk statement is built from, written by hand for speed: they must say exactly
/// what the slow, general tools say.
@Suite struct BulkTextTests {
    @Test func asciiFoldingIsFoundationsFoldingForEveryASCIICharacter() {
        for scalar in (0..<0x80).compactMap(Unicode.Scalar.init) {
            let text = "Ab" + String(Character(scalar)) + "Zz@[`{"
            let foundation = text.folding(
                options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            #expect(SearchText.asciiFolded(text) == foundation, "U+\(String(scalar.value, radix: 16))")
        }
        #expect(SearchText.asciiFolded("Björk") == nil)
        #expect(SearchText.folded("ÉTÉ Björk ＡＢ") == "ete bjork ab")
        #expect(SearchText.folded("") == "")
    }

    @Test func jsonRowsReadBackAsWritten() throws {
        let texts = [
            #"He said "hi" \ left"#, "tab\there\nnew line \u{1} \u{1F}", "Ünïcødé 🎵 日本", "", "/slash/",
        ]
        let ids = (0..<20).map { _ in UUID() }
        var rows = JSONRows()
        for (index, id) in ids.enumerated() {
            rows.beginRow()
            rows.string(id)
            rows.string(texts[index % texts.count])
            rows.integer(index % 3 == 0 ? nil : -index)
            rows.string(index % 2 == 0 ? nil : "x")
            rows.integer(Int64.max)
            rows.endRow()
        }
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(rows.text.utf8)) as? [[Any]])
        #expect(parsed.count == ids.count)
        for (index, row) in parsed.enumerated() {
            #expect(row[0] as? String == ids[index].uuidString)
            #expect(row[1] as? String == texts[index % texts.count])
            #expect(index % 3 == 0 ? row[2] is NSNull : (row[2] as? Int) == -index)
            #expect(index % 2 == 0 ? row[3] is NSNull : (row[3] as? String) == "x")
            #expect((row[4] as? NSNumber)?.int64Value == Int64.max)
        }
        var empty = JSONRows()
        #expect(empty.text == "[]")
        empty.integer(7)
        empty.integer(-1)
        #expect(empty.text == "[7,-1]")
    }

    /// A bulk edit writes only the columns some album's value changes in, and its undo the same.
    @Test func anEditWritesTheNarrowestColumnsThatCoverItsChanges() throws {
        let albums = [
            Album(title: "A", artist: "X", genre: "Pop", year: 1990),
            Album(title: "B", artist: "Y", genre: "Jazz"),
        ]
        func columns(_ changes: AlbumChanges) throws -> LibraryAPI.EditedColumns {
            LibraryAPI.EditedColumns(before: albums, after: try albums.map { try $0.applying(changes) })
        }
        var changes = AlbumChanges()
        changes.year = 2000
        #expect(try columns(changes) == .yearAndCover)
        changes.coverURL = URL(string: "https://example.com/c")
        #expect(try columns(changes) == .yearAndCover)
        changes.genre = "Jazz"
        #expect(try columns(changes) == .allButTitleAndArtist, "one album's genre changes")
        changes.artist = "Y"
        #expect(try columns(changes) == .all, "one album's artist changes")
        var titleOnly = AlbumChanges()
        titleOnly.title = "A"
        #expect(try columns(titleOnly) == .all)
        // A value edited to what every album has already changes no column of it.
        var same = AlbumChanges()
        same.genre = "Pop"
        #expect(
            LibraryAPI.EditedColumns(before: [albums[0]], after: [try albums[0].applying(same)]) == .yearAndCover)
    }
}

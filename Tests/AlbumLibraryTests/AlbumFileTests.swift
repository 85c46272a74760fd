import AlbumLibrary
import Foundation
import Testing

@Suite struct AlbumFileTests {
    private func decode(_ json: String) throws(LibraryError) -> [Album] {
        try AlbumFile.decode(Data(json.utf8))
    }

    @Test func decodesRequiredAndOptionalFields() throws {
        let albums = try decode(
            """
            [{"title": "Best of Bowie", "artist": "David Bowie", "genre": "Pop", "year": 1992,
              "cover": "https://example.com/b.jpg", "id": "3F2504E0-4F89-11D3-9A0C-0305E82C3301"},
             {"title": "  Blue Train ", "artist": "John Coltrane", "genre": null, "year": null}]
            """
        )
        #expect(albums.count == 2)
        #expect(albums[0].title == "Best of Bowie")
        #expect(albums[0].year == 1992)
        #expect(albums[0].coverURL?.absoluteString == "https://example.com/b.jpg")
        #expect(albums[0].id == UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301"))
        #expect(albums[1].title == "Blue Train")
        #expect(albums[1].genre == "")
        #expect(albums[1].year == nil)
    }

    @Test func exportThenImportRoundTrips() throws {
        var albums = Album.defaults()
        albums[0].coverURL = URL(string: "file:///covers/bowie.png")
        albums[1].title = "Tab\there \u{1B}[31m and “quotes”"
        albums[2].year = nil
        let decoded = try AlbumFile.decode(AlbumFile.encode(albums))
        #expect(decoded == albums)
    }

    @Test func emptyArrayDecodesToNoAlbums() throws {
        #expect(try decode("[]").isEmpty)
    }

    @Test(arguments: [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("{\"title\": \"x\"}", "expected a JSON array of albums"),
        ("[1]", "album 1: expected an object"),
        ("[{\"artist\": \"A\"}]", "album 1: field \"title\": missing"),
        ("[{\"title\": \"T\", \"artist\": \"A\"}, {\"title\": \"T\"}]", "album 2: field \"artist\": missing"),
        ("[{\"title\": \"  \", \"artist\": \"A\"}]", "album 1: field \"title\": title must not be empty"),
        ("[{\"title\": 5, \"artist\": \"A\"}]", "album 1: field \"title\": expected a string"),
        (
            "[{\"title\": \"T\", \"artist\": \"A\", \"year\": \"1992\"}]",
            "album 1: field \"year\": expected a whole number"
        ),
        ("[{\"title\": \"T\", \"artist\": \"A\", \"year\": 19.5}]", "album 1: field \"year\": expected a whole number"),
        ("[{\"title\": \"T\", \"artist\": \"A\", \"year\": true}]", "album 1: field \"year\": expected a whole number"),
        ("[{\"title\": \"T\", \"artist\": \"A\", \"year\": 0}]", "album 1: field \"year\": year 0 is out of range"),
        ("[{\"title\": \"T\", \"artist\": \"A\", \"cover\": \"not a url\"}]", "album 1: field \"cover\": cover"),
        ("[{\"title\": \"T\", \"artist\": \"A\", \"id\": \"nope\"}]", "album 1: field \"id\": \"nope\" is not a UUID"),
        ("[{\"title\": \"T\", \"artist\": \"A\", \"titel\": \"x\"}]", "album 1: field \"titel\": unknown field"),
    ])
    func rejectsMalformedInputNamingElementAndField(json: String, expected: String) {
        do {
            _ = try decode(json)
            Issue.record("decoded \(json) without error")
        } catch {
            #expect(error.code == .malformedFile)
            #expect(error.message.contains(expected), "message: \(error.message)")
            #expect(!error.message.contains("\n"))
        }
    }

    @Test func rejectsRepeatedIDs() {
        let id = UUID().uuidString
        let json = """
            [{"title": "A", "artist": "A", "id": "\(id)"}, {"title": "B", "artist": "B"},
             {"title": "C", "artist": "C", "id": "\(id)"}]
            """
        do {
            _ = try decode(json)
            Issue.record("decoded repeated ids without error")
        } catch {
            #expect(error.message.contains("album 3: field \"id\""))
            #expect(error.message.contains("repeats album 1"))
        }
    }
}

@Suite struct AlbumValidationTests {
    @Test func defaultsAreTheFiveClassicAlbums() {
        let albums = Album.defaults()
        #expect(
            albums.map(\.title) == [
                "Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun", "American Pie",
            ])
        #expect(albums.map(\.artist) == ["David Bowie", "No Doubt", "Sting", "U2", "Madonna"])
        #expect(albums.map(\.year) == [1992, 2003, 1999, 2000, 2000])
        #expect(Set(albums.map(\.genre)) == ["Pop"])
        #expect(Set(albums.map(\.id)).count == 5)
        #expect(Set(Album.defaults().map(\.id)).isDisjoint(with: albums.map(\.id)))
    }

    @Test(arguments: ["1992", " 2000 ", "1", "9999"])
    func parsesValidYears(text: String) throws {
        #expect(try Album.parsedYear(text) == Int(text.trimmingCharacters(in: .whitespaces)))
    }

    @Test(arguments: ["", "abc", "0", "10000", "-5", "19.5", "1992x"])
    func rejectsInvalidYears(text: String) {
        #expect(throws: LibraryError.self) { try Album.parsedYear(text) }
    }

    @Test(arguments: ["https://example.com/a.jpg", "file:///tmp/a.png"])
    func acceptsAbsoluteCoverURLs(text: String) throws {
        #expect(try Album.parsedCoverURL(text).absoluteString == text)
    }

    @Test(arguments: ["", "cover.jpg", "not a url", "/tmp/x.png"])
    func rejectsRelativeCoverURLs(text: String) {
        #expect(throws: LibraryError.self) { try Album.parsedCoverURL(text) }
    }

    @Test func applyingChangesKeepsIDAndValidates() throws {
        let album = Album(title: "A", artist: "B")
        let edited = try album.applying(AlbumChanges(title: " New ", year: 2001))
        #expect(edited.id == album.id)
        #expect(edited.title == "New")
        #expect(edited.artist == "B")
        #expect(edited.year == 2001)
        #expect(throws: LibraryError.self) { try album.applying(AlbumChanges(artist: "")) }
        #expect(throws: LibraryError.self) { try album.applying(AlbumChanges(year: 0)) }
    }

    @Test func changesCanRemoveTheYearAndTheCoverAndDecodeWithoutTheRemovals() throws {
        let cover = try #require(URL(string: "https://example.com/a.jpg"))
        let album = Album(title: "A", artist: "B", year: 1999, coverURL: cover)
        let removed = try album.applying(AlbumChanges(removesYear: true, removesCoverURL: true))
        #expect(removed.year == nil && removed.coverURL == nil && removed.title == "A")
        // A removal wins over a value given with it.
        #expect(try album.applying(AlbumChanges(year: 2000, removesYear: true)).year == nil)
        #expect(!AlbumChanges(removesYear: true).isEmpty && !AlbumChanges(removesCoverURL: true).isEmpty)
        #expect(AlbumChanges().isEmpty)

        // Stored without the keys when nothing is removed (as histories were before removals);
        // such a record decodes with none.
        let plain = String(decoding: try JSONEncoder().encode(AlbumChanges(year: 2001)), as: UTF8.self)
        #expect(plain == #"{"year":2001}"#)
        let old = try JSONDecoder().decode(AlbumChanges.self, from: Data(#"{"title":"T"}"#.utf8))
        #expect(old == AlbumChanges(title: "T"))
        let changes = AlbumChanges(genre: "", removesYear: true, removesCoverURL: true)
        #expect(try JSONDecoder().decode(AlbumChanges.self, from: JSONEncoder().encode(changes)) == changes)
    }

    @Test func rejectsOverlongFields() {
        let long = String(repeating: "x", count: Album.maximumFieldLength + 1)
        #expect(throws: LibraryError.self) { try Album(title: long, artist: "A").validated() }
    }
}

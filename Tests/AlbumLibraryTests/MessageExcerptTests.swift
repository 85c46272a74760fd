import AlbumLibrary
import CommandKit
import Foundation
import SQLiteDatabase
import Testing

/// Messages quote what they refuse, but never a megabyte of it (issue 27, "Low").
@Suite struct MessageExcerptTests {
    @Test func aLongValueIsCutWithItsLength() {
        #expect(LibraryError.excerpt(of: "short") == "short")
        let long = String(repeating: "k", count: 1_000_000)
        #expect(LibraryError.excerpt(of: long) == String(repeating: "k", count: 64) + "… (1000000 characters)")
    }

    @Test func anUnknownImportKeyOfAMegabyteIsQuotedShort() throws {
        let key = String(repeating: "k", count: 1_000_000)
        let file = Data("[{\"title\":\"a\",\"artist\":\"b\",\"\(key)\":1}]".utf8)
        let error = try #require(throws: LibraryError.self) { try AlbumFile.decode(file) }
        #expect(
            error.message.count < 300 && error.message.contains("(1000000 characters)"), "\(error.message.prefix(300))")
    }

    @Test func aCoverURLLongerThanTheLimitIsRefused() throws {
        let url = "https://example.com/" + String(repeating: "a", count: Album.maximumCoverURLLength)
        let error = try #require(throws: LibraryError.self) { try Album.parsedCoverURL(url) }
        #expect(error.code == .invalidValue && error.message.contains("is longer than 8192 bytes"))
        #expect(error.message.count < 300)
        #expect(
            try Album.parsedCoverURL("https://example.com/" + String(repeating: "a", count: 8000)).scheme == "https")
    }

    @Test func aTitleThatDiffersOnlyInSpacesIsSuggestedInTheRefusal() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spaced-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = try LibrarySession.open(path: path)
        defer { session.close() }
        try session.add(Album(title: "Spaced", artist: "A"), at: 1)
        let error = try #require(throws: LibraryError.self) { try session.delete(.title(" Spaced ")) }
        #expect(error.code == .albumNotFound)
        #expect(
            error.message
                == "no album is titled “ Spaced ”; did you mean “Spaced” (position 1)?")
        #expect(try session.library.count() == 1)
    }
}

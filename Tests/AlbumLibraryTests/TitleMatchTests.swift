import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

@testable import AlbumLibrary

/// A title names an album forgivingly: exactly first, else with case and accents aside when one
/// album matches so; several are refused with their positions and ids, none with the nearest
/// titles. Decided inside the change's transaction.
@Suite struct TitleMatchTests {
    private func withSession(_ titles: [String], _ body: (LibrarySession, String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("titles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("library.sqlite").path
        let session = try LibrarySession.open(path: path)
        defer { session.close() }
        for title in titles { try session.add(Album(title: title, artist: "A"), at: nil) }
        try body(session, path)
    }

    @Test(arguments: [
        ("blue train", "Blue Train"), ("BJORK", "Björk"), ("été", "ÉTÉ"), ("wide", "Ｗｉｄｅ"), ("ab", "AB"),
    ])
    func oneAlbumMatchingWithCaseAndAccentsAsideIsTheOne(name: String, title: String) throws {
        try withSession(["Low", title, "Heroes"]) { session, _ in
            let change = try session.edit(.title(name), changes: AlbumChanges(genre: "Jazz"))
            #expect(change.album.title == title && change.position == 2)
            #expect(try session.library.album(at: 2).genre == "Jazz")
        }
    }

    @Test func anExactTitleWinsOverOnesThatMatchOnlyWithCaseAside() throws {
        try withSession(["Blue", "BLUE", "blue"]) { session, _ in
            #expect(try session.library.find(.title("BLUE")).position == 2)
            let refusal = try #require(throws: LibraryError.self) { try session.delete(.title("bLuE")) }
            #expect(refusal.code == .ambiguousTitle)
            #expect(
                refusal.message.hasPrefix("3 albums are titled like “bLuE” (case and accents aside): positions 1 (id "))
            #expect(refusal.message.hasSuffix("; name one by position or id"))
            #expect(try session.library.count() == 3 && session.history.count == 3)
        }
    }

    @Test func noMatchSuggestsAtMostThreeNearestTitlesNearestFirst() throws {
        try withSession(["Blue Trane", "Blue Train", "Red Train", "Blues Train", "Glue Train", "Kind of Blue"]) {
            session, _ in
            let refusal = try #require(throws: LibraryError.self) { try session.delete(.title("blue trian")) }
            #expect(refusal.code == .albumNotFound)
            #expect(
                refusal.message
                    == "no album is titled “blue trian”; did you mean “Blue Trane” (position 1), “Blue Train” (position 2) or “Blues Train” (position 4)?"
            )
            let one = try #require(throws: LibraryError.self) { try session.delete(.title("Kind of Blu")) }
            #expect(one.message == "no album is titled “Kind of Blu”; did you mean “Kind of Blue” (position 6)?")
            let none = try #require(throws: LibraryError.self) { try session.delete(.title("Zzz")) }
            #expect(none.message == "no album is titled “Zzz”")
            #expect(try session.library.count() == 6)
        }
    }

    @Test func theRuleIsAppliedToWhatIsCommittedWhenTheChangeRuns() throws {
        try withSession(["Blue Train", "Low"]) { session, path in
            // Another connection makes a second forgiving match after this session last read.
            let other = try LibrarySession.open(path: path)
            defer { other.close() }
            #expect(try session.library.find(.title("blue train")).position == 1)
            try other.edit(.position(2), changes: AlbumChanges(title: "BLUE TRAIN"))
            let refusal = try #require(throws: LibraryError.self) { try session.delete(.title("blue train")) }
            #expect(refusal.code == .ambiguousTitle)
            // And one that makes the name exact: the exact one is chosen.
            try other.edit(.position(2), changes: AlbumChanges(title: "blue train"))
            #expect(try session.delete(.title("blue train")).position == 2)
        }
    }

    @Test func aTitleWithALineFeedIsComparedWhole() throws {
        try withSession(["Side A\nSide B", "Side A"]) { session, _ in
            let firstLine = try session.library.find(.title("side a"))
            let whole = try session.library.find(.title("SIDE A\nSIDE B"))
            #expect(firstLine.position == 2)
            #expect(whole.position == 1)
        }
    }

    @Test(
        arguments: [
            ("kitten", "sitting", 3, 3), ("kitten", "sitting", 2, nil), ("", "abc", 3, 3), ("abc", "abc", 0, 0),
            ("flaw", "lawn", 2, 2), ("abcdef", "a", 4, nil), ("ab", "ba", 2, 2),
        ] as [(String, String, Int, Int?)])
    func editDistanceCountsEditsUpToItsLimit(a: String, b: String, limit: Int, expected: Int?) {
        #expect(EditDistance.between(Array(a.unicodeScalars), Array(b.unicodeScalars), limit: limit) == expected)
        #expect(EditDistance.between(Array(b.unicodeScalars), Array(a.unicodeScalars), limit: limit) == expected)
    }
}

import AlbumLibrary
import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// `LibrarySession.importAlbums(_:keepingDuplicates:dryRun:progress:)`: duplicates of the library
/// and of the file are skipped (title, artist and year, case and accents aside), decided in the
/// import's transaction; a dry run decides the same and writes nothing.
@Suite struct ImportDuplicatesTests {
    private func withSession(_ body: (LibrarySession, String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dups-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("library.sqlite").path
        let session = try LibrarySession.open(path: path)
        defer { session.close() }
        try session.add(Album(title: "Björk", artist: "Debut", year: 1993))
        try body(session, path)
    }

    private let file = [
        Album(title: "BJORK", artist: "debut", year: 1993),  // the library's, folded
        Album(title: "Björk", artist: "Debut", year: 1995),  // another year: not a duplicate
        Album(title: "Post", artist: "Björk"),
        Album(title: "post", artist: "BJÖRK"),  // the file's third, folded
        Album(title: "Post", artist: "Björk", year: 1995),
    ]

    @Test func duplicatesOfTheLibraryAndOfTheFileAreSkippedAndUndoneAsOneStep() throws {
        try withSession { session, _ in
            let outcome = try session.importAlbums(file, keepingDuplicates: false)
            #expect(outcome.albums == [file[1], file[2], file[4]])
            #expect(outcome.skipped == [file[0], file[3]])
            #expect(outcome.firstPosition == 2 && outcome.command?.text == "Import 3 albums")
            #expect(try session.library.count() == 4)
            try session.undo()
            #expect(try session.library.count() == 1)
            try session.redo()
            #expect(try session.library.albums().suffix(3) == [file[1], file[2], file[4]])
        }
    }

    @Test func aDryRunDecidesTheSameAndWritesNothing() throws {
        try withSession { session, _ in
            let revision = session.history.revision
            let preview = try session.importAlbums(file, keepingDuplicates: false, dryRun: true)
            #expect(preview.command == nil && preview.albums.count == 3 && preview.skipped.count == 2)
            let count = try session.library.count()
            #expect(count == 1 && session.history.count == 1)
            #expect(try session.library.stagedImportCount() == 0)
            #expect(session.history.revision == revision)
            let kept = try session.importAlbums(file, keepingDuplicates: true, dryRun: true)
            #expect(kept.albums == file && kept.skipped.isEmpty)
        }
    }

    @Test func onlyDuplicatesAreRefusedAndRecordNothing() throws {
        try withSession { session, _ in
            let refusal = try #require(throws: LibraryError.self) {
                try session.importAlbums([file[0], file[0]], keepingDuplicates: false)
            }
            #expect(refusal.code == .nothingToChange)
            #expect(
                refusal.message
                    == "all 2 albums are already in the library (--allow-duplicates imports them): nothing to import")
            #expect(session.history.count == 1)
        }
    }

    @Test func theLibraryAsCommittedWhenTheImportRunsDecides() throws {
        try withSession { session, path in
            let other = try LibrarySession.open(path: path)
            defer { other.close() }
            try other.add(Album(title: "Post", artist: "Björk"))
            let outcome = try session.importAlbums(file, keepingDuplicates: false)
            #expect(outcome.albums == [file[1], file[4]])
        }
    }

    @Test func anIdTheLibraryHoldsIsNamedByItsPlaceInTheFile() throws {
        try withSession { session, _ in
            var clash = Album(title: "New", artist: "Someone")
            clash.id = try session.library.album(at: 1).id
            let refusal = try #require(throws: LibraryError.self) {
                try session.importAlbums([file[0], file[1], clash], keepingDuplicates: false)
            }
            #expect(refusal.message == "album 3: id \(clash.id.uuidString) is already in the library")
            let staged = try session.library.stagedImportCount()
            #expect(session.history.count == 1 && staged == 0)
        }
    }
}

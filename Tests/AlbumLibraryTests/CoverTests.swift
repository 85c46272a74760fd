import AlbumLibrary
import CommandKit
import CommandStore
import Foundation
import Testing

/// Cover images stored in the library: checked by their bytes, set and removed as one undoable
/// step, kept by a delete, a bulk delete and a replacement for their undo, across processes.
@Suite struct CoverTests {
    /// Bytes that start like an image of `kind` ("png", "jpeg", "webp", "gif"), then `tail`.
    static func image(_ kind: String = "png", _ tail: String = "pixels") -> Data {
        let magic: [UInt8] =
            switch kind {
            case "jpeg": [0xFF, 0xD8, 0xFF, 0xE0]
            case "webp": Array("RIFF".utf8) + [0x10, 0, 0, 0] + Array("WEBPVP8 ".utf8)
            case "gif": Array("GIF89a".utf8)
            default: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            }
        return Data(magic + Array(tail.utf8))
    }

    static func cover(_ tail: String) throws -> CoverImage { try CoverImage(bytes: image("png", tail)) }

    private func withLibrary(_ body: (_ path: String, _ session: LibrarySession) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("albums-cover-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("library.sqlite").path
        let session = try LibrarySession.open(path: path)
        try session.library.seedDefaultsIfNeeded()
        try body(path, session)
    }

    private func storedImages(_ session: LibrarySession) throws -> Int {
        try session.database.fetchOne("SELECT count(*) FROM cover_image")?.decode(Int.self, at: 0) ?? -1
    }

    @Test func theBytesDecideTheMediaType() throws {
        for (kind, type) in [
            ("png", "image/png"), ("jpeg", "image/jpeg"), ("webp", "image/webp"), ("gif", "image/gif"),
        ] {
            #expect(try CoverImage(bytes: Self.image(kind)).mediaType == type)
        }
        for bytes in [Data(), Data("<svg onload=alert(1)>".utf8), Data("RIFF\0\0\0\0WAVE".utf8), Data([0x89, 0x50])] {
            #expect {
                try CoverImage(bytes: bytes)
            } throws: { error in
                (error as? LibraryError)?.code == .invalidValue && !"\(error)".contains("\n")
            }
        }
        let tooLarge = Self.image("png", String(repeating: "x", count: CoverImage.maximumByteCount))
        #expect(throws: LibraryError.self) { try CoverImage(bytes: tooLarge) }
        let largest = Self.image("png", String(repeating: "x", count: CoverImage.maximumByteCount - 8))
        let checked = try CoverImage(bytes: largest)
        #expect(checked.bytes.count == CoverImage.maximumByteCount)
        #expect(checked.hash == "9ef768d637715730d9bfa58842dd4efbda3715a2debe11f7a9d2f5f59401c8b0")
    }

    /// The hash is SHA-256 (checked against `sha256sum` for a one-block and a two-block input).
    @Test func theHashIsSHA256() throws {
        #expect(
            try CoverImage(bytes: Self.image("png", String(repeating: "x", count: 100))).hash
                == "a4faa983b5f97e29bff000de388c2b0d0baf9c67cc9d0ad1183a114a6a1bed54")
        #expect(try Self.cover("").hash == "4c4b6a3be1314ab86138bef4314dde022e600960d8689a2c8f8631802d20dab6")
        let spanning =
            Self.image("png", "") + Data((0..<256).map(UInt8.init)) + Data((0..<256).map(UInt8.init))
            + Data((0..<256).map(UInt8.init)) + Data("abc".utf8)
        #expect(
            try CoverImage(bytes: spanning).hash == "e9dfbb36c8cad38f2b757e136d97a3dfcc7e0109b9d3b84f4213d1ca27f55608")
        for (count, digest) in [
            (48, "ea9cfec08cee406e25f6419eae03e8b199a4da2e849ce8761073a36c136b5af7"),
            (56, "073898a64e82fbd156432f60793b0d769581c90d2989facedeac4ae5c51de6e2"),
        ] {
            #expect(try Self.cover(String(repeating: "x", count: count)).hash == digest, "\(count + 8) bytes")
        }
    }

    @Test func aCoverIsSetUndoneAndRedoneInALaterProcess() throws {
        try withLibrary { path, session in
            let album = try session.library.album(at: 2)
            let image = try Self.cover("first")
            let change = try session.setCover(.title(album.title), to: image)
            #expect(change.command.text == "Set the cover of “\(album.title)”")
            #expect(try session.library.cover(of: album.id) == image)
            #expect(try session.library.coverSummary(of: album.id)?.hash == image.hash)
            #expect(change.command.previous == nil)
            session.close()
            let later = try LibrarySession.open(path: path)
            #expect(later.undoText == "Set the cover of “\(album.title)”")
            try later.undo()
            #expect(try later.library.cover(of: album.id) == nil)
            try later.redo()
            #expect(try later.library.cover(of: album.id) == image)
            // A second image replaces it; undo brings the first back.
            let second = try Self.cover("second")
            #expect(try later.setCover(.id(album.id), to: second).command.previous?.hash == image.hash)
            try later.undo()
            #expect(try later.library.cover(of: album.id) == image)
            #expect(try storedImages(later) == 2, "the undone image is kept for its redo")
        }
    }

    @Test func removingAndRefusals() throws {
        try withLibrary { _, session in
            let album = try session.library.album(at: 1)
            let image = try Self.cover("one")
            #expect {
                try session.setCover(.position(1), to: nil)
            } throws: { error in
                (error as? LibraryError)?.code == .nothingToChange
            }
            try session.setCover(.position(1), to: image)
            let steps = try session.historySteps().records.count
            #expect {
                try session.setCover(.position(1), to: try Self.cover("one"))
            } throws: { error in
                (error as? LibraryError)?.code == .nothingToChange
            }
            #expect {
                try session.setCover(.title("No Such Album"), to: image)
            } throws: { error in
                (error as? LibraryError)?.code == .albumNotFound
            }
            #expect(try session.historySteps().records.count == steps, "a refusal records nothing")
            #expect(try storedImages(session) == 1, "a refusal stores no image")
            let removal = try session.setCover(.position(1), to: nil)
            #expect(removal.command.text == "Remove the cover of “\(album.title)”")
            #expect(try session.library.cover(of: album.id) == nil)
            try session.undo()
            #expect(try session.library.cover(of: album.id) == image)
        }
    }

    @Test func deletingAnAlbumAndUndoingBringsItsCoverBack() throws {
        try withLibrary { path, session in
            let album = try session.library.album(at: 3)
            let image = try Self.cover("kept")
            try session.setCover(.id(album.id), to: image)
            let deleted = try session.delete(.id(album.id))
            #expect(deleted.command.coverSlot != nil)
            #expect(try session.library.cover(of: album.id) == nil)
            session.close()
            let later = try LibrarySession.open(path: path)
            try later.undo()
            #expect(try later.library.cover(of: album.id) == image)
            try later.redo()
            #expect(try later.library.cover(of: album.id) == nil)
            try later.undo(count: 2)
            #expect(try later.library.cover(of: album.id) == nil)
            #expect(try later.library.contains(album.id))
        }
    }

    @Test func aBulkDeleteAndAReplacementKeepTheCoversForTheirUndo() throws {
        try withLibrary { _, session in
            let albums = try session.library.albums()
            for (index, album) in albums.prefix(3).enumerated() {
                try session.setCover(.id(album.id), to: try Self.cover("bulk \(index)"))
            }
            try session.deleteAlbums(.matching(try AlbumQuery(parsing: "sun")))
            try session.undo()
            for (index, album) in albums.prefix(3).enumerated() {
                #expect(try session.library.cover(of: album.id) == (try Self.cover("bulk \(index)")))
            }
            // Restoring an export of the library (the same ids): the new albums have no covers, the
            // undo brings the old ones back.
            try session.replaceAlbums(with: albums.reversed())
            #expect(try session.library.coverSummaries(of: albums.map(\.id)).isEmpty)
            try session.undo()
            #expect(
                Set(try session.library.coverSummaries(of: albums.map(\.id)).keys) == Set(albums.prefix(3).map(\.id)))
        }
    }

    @Test func aStepLeavingTheHistoryReleasesItsImages() throws {
        try withLibrary { _, session in
            try session.setCover(.position(1), to: try Self.cover("a"))
            try session.setCover(.position(1), to: try Self.cover("b"))
            try session.delete(.position(1))
            #expect(try storedImages(session) == 2)
            try session.history.clear()
            #expect(try storedImages(session) == 0, "nothing can bring the deleted album back")
        }
    }

    /// Undo mine: a cover change of mine is undone as the last step, undone on its own after
    /// another author's edit, and refused after another author's cover change of the same album.
    @Test func undoMineOfACoverChange() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("albums-cover-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("library.sqlite").path
        let ada = try LibrarySession.open(path: path)
        try ada.library.seedDefaultsIfNeeded()
        ada.history.author = "ada"
        let grace = try LibrarySession.open(path: path)
        grace.history.author = "grace"
        let album = try ada.library.album(at: 1)
        try ada.setCover(.position(1), to: try Self.cover("ada"))
        #expect(try ada.undoMine(author: "ada") == .undone(try #require(ada.redoRecord)))
        try ada.redo()
        try grace.edit(.position(1), changes: AlbumChanges(genre: "Jazz"))
        #expect(try ada.undoMine(author: "ada").text == "Undo Set the cover of “\(album.title)” (step 1)")
        #expect(try ada.library.cover(of: album.id) == nil)
        #expect(try ada.redoMine(author: "ada").text.hasPrefix("Redo Set the cover"))
        #expect(try ada.library.cover(of: album.id) == (try Self.cover("ada")))
        try grace.setCover(.position(1), to: try Self.cover("grace"))
        #expect {
            try ada.undoMine(author: "ada")
        } throws: { error in
            let error = error as? LibraryError
            return error?.code == .conflict
                && error?.message.hasPrefix("grace changed the cover image of “\(album.title)”") == true
        }
        #expect(try ada.library.cover(of: album.id) == (try Self.cover("grace")))
    }
}

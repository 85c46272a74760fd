import AlbumLibrary
import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// `LibrarySession.replaceAlbums(with:)`: one undoable step, ids shared with the old library, and
/// nothing left behind once its entry leaves the history.
@Suite struct ReplaceLibraryTests {
    private func withSession(_ body: (LibrarySession) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("replace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try LibrarySession.open(path: folder.appendingPathComponent("library.sqlite").path)
        try session.library.seedDefaultsIfNeeded()
        try body(session)
        session.close()
    }

    private func keptRows(_ session: LibrarySession) throws -> Int {
        let replaced = try session.database.fetchOne("SELECT count(*) FROM replaced_album")?.decode(Int.self, at: 0)
        let staged = try session.library.stagedImportCount()
        return (replaced ?? 0) + staged
    }

    @Test func replacesUndoesAndRedoesWithTheSameIds() throws {
        try withSession { session in
            let before = try session.library.albums()
            var backup = Array(before.prefix(2))
            backup[1].genre = "Rock"
            let command = try session.replaceAlbums(with: backup)
            #expect(command.replacedCount == 5)
            #expect(try session.library.albums() == backup)
            try session.undo()
            #expect(try session.library.albums() == before)
            try session.redo()
            #expect(try session.library.albums() == backup)
            #expect(try session.library.albums(matching: "rock", order: .position).map(\.album) == [backup[1]])
        }
    }

    /// A push after undoing a replacement keeps the replacement as a branch (the history is a
    /// tree): its kept rows stay, for a jump back to it.
    @Test func anUndoneReplacementBelowAPushIsKeptAsABranch() throws {
        try withSession { session in
            try session.replaceAlbums(with: [Album(title: "Only", artist: "One")])
            let replaced = session.history.currentNode
            try session.undo()
            #expect(try keptRows(session) == 1)
            try session.add(Album(title: "New", artist: "Push"))
            #expect(try keptRows(session) == 1)
            try session.jump(to: .step(replaced))
            #expect(try session.library.albums().map(\.title) == ["Only"])
        }
    }

    @Test func aDoneReplacementClearedFromTheHistoryLeavesNothing() throws {
        try withSession { session in
            try session.replaceAlbums(with: [Album(title: "Only", artist: "One")])
            #expect(try keptRows(session) == 5)
            try session.history.clear()
            #expect(try keptRows(session) == 0)
            #expect(try session.library.albums().map(\.title) == ["Only"])
        }
    }

    @Test func replacingTheLibraryWithItselfIsRefusedAndRecordsNothing() throws {
        try withSession { session in
            let own = try session.library.albums()
            let steps = session.history.count
            let error = try #require(throws: LibraryError.self) { try session.replaceAlbums(with: own) }
            #expect(error.code == .nothingToChange && error.message.contains("nothing to replace"), "\(error)")
            #expect(session.history.count == steps)
            #expect(try keptRows(session) == 0)
            // The same albums in another order, or one field changed, are a change.
            try session.replaceAlbums(with: own.reversed())
            #expect(try session.library.albums() == own.reversed())
        }
    }
}

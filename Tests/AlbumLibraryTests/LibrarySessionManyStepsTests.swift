import AlbumLibrary
import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// Issue 27, H3: `albums undo 1000000` on a long history undid every step, holding the write lock,
/// before refusing and rolling it all back. A count above the steps the history holds is refused
/// inside the write transaction before any command runs, with the message it always had.
@Suite struct LibrarySessionManyStepsTests {
    private func withSession(_ body: (LibrarySession) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("many-steps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try LibrarySession.open(path: folder.appendingPathComponent("library.sqlite").path)
        try session.library.seedDefaultsIfNeeded()
        try body(session)
        session.close()
    }

    /// What a refusal must leave as it was: the albums, the history's place and revision, and the
    /// rows the connection has written (`total_changes()` counts rolled-back writes too, so an undo
    /// that ran and was rolled back shows there).
    private func state(_ session: LibrarySession) throws -> [String] {
        let changes = try session.database.fetchOne("SELECT total_changes()")!.decode(Int.self, at: 0)
        return try session.library.albums().map(\.title) + [
            "index \(session.history.index) of \(session.history.count)", "revision \(session.history.revision)",
            "changes \(changes)",
        ]
    }

    @Test func countsAboveTheHistoryAreRefusedBeforeAnyAlbumIsTouched() throws {
        try withSession { session in
            for number in 1...1_000 {
                try session.add(Album(title: "Album \(number)", artist: "Artist"))
            }
            let before = try state(session)
            do {
                try session.undo(count: 1_000_000)
                Issue.record("undo 1000000 of 1000 steps succeeded")
            } catch let error as LibraryError {
                #expect(error.code == .nothingToUndo)
                #expect(error.message == "cannot undo 1000000 steps: only 1000 can be undone")
            }
            #expect(try state(session) == before)
            #expect(try session.undo(count: 1_000).count == 1_000)
            #expect(try session.library.count() == 5)
            let undone = try state(session)
            do {
                try session.redo(count: 1_001)
                Issue.record("redo 1001 of 1000 steps succeeded")
            } catch let error as LibraryError {
                #expect(error.code == .nothingToRedo)
                #expect(error.message == "cannot redo 1001 steps: only 1000 can be redone")
            }
            #expect(try state(session) == undone)
        }
    }
}

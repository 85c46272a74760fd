import AlbumLibrary
import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// `LibrarySession.edit(_:changes:)` and `move(_:by:)` with an id: the album is found by
/// id inside the transaction, so another connection's changes since a view read it do not matter,
/// and a change that changes nothing records nothing.
@Suite struct LibrarySessionByIDTests {
    private func withSessions(_ body: (LibrarySession, LibrarySession) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("by-id-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("library.sqlite").path
        let view = try LibrarySession.open(path: path)
        try view.library.seedDefaultsIfNeeded()
        let other = try LibrarySession.open(path: path)
        try body(view, other)
        other.close()
        view.close()
    }

    @Test func editFindsTheAlbumWhereAnotherConnectionMovedIt() throws {
        try withSessions { view, other in
            let bowie = try view.library.album(at: 1)
            try other.move(.position(1), to: 4)
            let command = try view.edit(.id(bowie.id), changes: AlbumChanges(title: "Best of Ziggy"))
            #expect(command.position == 4 && command.command.position == 4)
            #expect(try view.library.album(at: 4).title == "Best of Ziggy")
            try view.undo()
            #expect(try view.library.album(at: 4) == bowie)
        }
    }

    /// `history --json` prints these figures beside the steps: they must be the state the steps
    /// were read in, not one read after another connection's commit.
    @Test func aStepListingCarriesTheStateItsStepsWereReadIn() throws {
        try withSessions { view, other in
            try view.delete(.position(1))
            try other.delete(.position(1))
            try other.undo()
            let listing = try view.stepListing()
            #expect(listing.steps.map(\.text) == ["Delete “Best of Bowie”", "Delete “It's My Life”"])
            #expect(listing.steps.map(\.isDone) == [true, false])
            #expect((listing.current, listing.count) == (1, 2))
            #expect(listing.revision == other.history.revision)
            let last = try view.stepListing(last: 1)
            #expect(last.steps.map(\.number) == [2])
            #expect((last.current, last.count, last.revision) == (1, 2, listing.revision))
        }
    }

    @Test func anEditToTheSameValuesIsRefusedAndNotRecorded() throws {
        try withSessions { view, _ in
            let bowie = try view.library.album(at: 1)
            #expect(throws: LibraryError.self) {
                try view.edit(.id(bowie.id), changes: AlbumChanges(title: bowie.title, year: bowie.year))
            }
            #expect(view.history.count == 0)
        }
    }

    @Test func moveCountsFromWhereTheAlbumIsAndRefusesToLeaveTheLibrary() throws {
        try withSessions { view, other in
            let bowie = try view.library.album(at: 1)
            try other.delete(.position(5))
            try other.move(.position(1), to: 3)
            let command = try view.move(.id(bowie.id), by: 1)
            #expect((command.command.from, command.command.to) == (3, 4))
            do {
                try view.move(.id(bowie.id), by: 1)
                Issue.record("moved past the last album")
            } catch let error as LibraryError {
                #expect(error.message == "“Best of Bowie” is already last (position 4 of 4)")
            }
            #expect(throws: LibraryError.self) { try view.move(.id(bowie.id), by: 0) }
            #expect(try view.steps().count == 3)
            try other.delete(.position(4))
            #expect(throws: LibraryError.self) { try view.move(.id(bowie.id), by: -1) }
        }
    }

    @Test func moveToAPositionCountsFromWhereTheAlbumIsAndRefusesWhatChangesNothing() throws {
        try withSessions { view, other in
            let bowie = try view.library.album(at: 1)
            try other.move(.position(1), to: 2)
            let command = try view.move(.id(bowie.id), to: 5)
            #expect((command.command.from, command.command.to) == (2, 5))
            #expect(try view.library.position(of: bowie.id) == 5)
            for (target, message) in [
                (0, "position 0 is out of range (1...5)"), (6, "position 6 is out of range (1...5)"),
                (5, "“Best of Bowie” is already at position 5: nothing to move"),
            ] {
                do {
                    try view.move(.id(bowie.id), to: target)
                    Issue.record("moved to \(target)")
                } catch let error as LibraryError {
                    #expect(error.message == message)
                }
            }
            // One step each: the other connection's move and this one; the refusals none.
            #expect(try view.steps().count == 2)
            try view.undo()
            #expect(try view.library.position(of: bowie.id) == 2)
            try other.delete(.position(2))
            #expect(throws: LibraryError.self) { try view.move(.id(bowie.id), to: 1) }
        }
    }

    @Test func anEditRemovingTheYearIsOneStepThatUndoRestores() throws {
        try withSessions { view, other in
            let bowie = try view.library.album(at: 1)
            #expect(bowie.year == 1992)
            let command = try view.edit(.id(bowie.id), changes: AlbumChanges(removesYear: true))
            #expect(command.command.text == "Edit “Best of Bowie”")
            // Another connection reads the step back from the stored history.
            try other.undo()
            #expect(try view.library.album(at: 1).year == 1992)
            try other.redo()
            #expect(try view.library.album(at: 1).year == nil)
            #expect(throws: LibraryError.self) {
                try view.edit(.id(bowie.id), changes: AlbumChanges(removesYear: true))
            }
            #expect(try view.steps().count == 1)
        }
    }
}

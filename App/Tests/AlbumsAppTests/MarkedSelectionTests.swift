import AlbumLibrary
import CommandKit
import Foundation
import SQLiteDatabase
import Testing

@testable import AlbumsApp

/// The terminal UI's marked selection (issue 26): space marks by id, `d` deletes and `e` edits
/// every marked album as one step, marks outlive reloads and drop albums another process deleted.
/// The controller on a real library; `TerminalUIMarksTests` drives the same through tmux.
@Suite struct MarkedSelectionTests {
    /// A library with the five defaults, its window, and its folder (removed by the caller).
    private func makeWindow() throws -> (LibraryWindow, LibrarySession, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let session = try LibrarySession.open(path: folder.appendingPathComponent("library.sqlite").path)
        try session.library.seedDefaultsIfNeeded()
        return (try LibraryWindow(session: session, currentAlbumID: nil), session, folder)
    }

    /// Marks the albums at these 0-based indexes, moving there with → first.
    private func mark(_ indexes: [Int], in window: LibraryWindow) {
        for index in indexes {
            while window.state.clampedIndex < index { window.handle(.right) }
            window.handle(.character(" "))
        }
    }

    @Test func spaceMarksAndUnmarksAndEscClears() throws {
        let (window, _, folder) = try makeWindow()
        defer { try? FileManager.default.removeItem(at: folder) }
        window.handle(.character(" "))
        #expect(window.state.status == "Marked “Best of Bowie” (1 marked)")
        window.handle(.character(" "))
        #expect(window.state.status == "Unmarked “Best of Bowie” (0 marked)" && window.state.marked.isEmpty)
        mark([0, 2], in: window)
        #expect(window.state.marked.count == 2)
        #expect(window.deleteButton.title == "Delete 2 marked")
        let lines = BrowserScreen.plainText(BrowserScreen.render(window.state, width: 120, height: 30))
        #expect(lines[0].hasSuffix("5 albums · 2 marked"))
        #expect(lines[2].components(separatedBy: BrowserScreen.markLabel).count == 3, "\(lines[2])")
        window.handle(.escape)
        #expect(window.state.marked.isEmpty && window.state.status == "Cleared 2 marks")
        #expect(window.deleteButton.title == "Delete")
    }

    @Test func dAsksThenDeletesTheMarkedAlbumsAsOneStepThatOneUndoBringsBack() throws {
        let (window, session, folder) = try makeWindow()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try session.library.albums()
        mark([0, 2, 4], in: window)
        window.handle(.character("d"))
        #expect(window.state.confirmation == "Delete 3 marked albums?")
        // n changes nothing and keeps the marks.
        window.handle(.character("n"))
        #expect(window.state.confirmation == nil && window.state.status == "Delete cancelled: nothing changed")
        #expect(try session.library.count() == 5 && window.state.marked.count == 3)
        window.handle(.character("d"))
        window.handle(.character("x"))  // neither y nor n: still asking
        #expect(window.state.confirmation != nil)
        window.handle(.character("y"))
        #expect(window.state.status == "Deleted 3 marked albums")
        #expect(try session.library.albums() == [before[1], before[3]])
        #expect(window.state.marked.isEmpty)
        #expect(try session.steps().map(\.text) == ["Delete 3 albums"])
        window.handle(.character("u"))
        #expect(try session.library.albums() == before)
    }

    @Test func eEditsTheGenreOfEveryMarkedAlbumAndRefusesAnEmptyForm() throws {
        let (window, session, folder) = try makeWindow()
        defer { try? FileManager.default.removeItem(at: folder) }
        mark([1, 3], in: window)
        window.handle(.character("e"))
        #expect(window.state.form?.markedCount == 2 && window.state.form?.focus == .genre)
        window.handle(.enter)
        #expect(window.state.form?.problem == "Type a genre or a year (Esc cancels)")
        for character in "Jazz" { window.handle(.character(character)) }
        window.handle(.tab)
        #expect(window.state.form?.focus == .year)
        for character in "19x" { window.handle(.character(character)) }
        window.handle(.enter)
        #expect(window.state.form?.problem != nil)
        window.handle(.backspace)
        for character in "59" { window.handle(.character(character)) }
        window.handle(.enter)
        #expect(window.state.form == nil)
        #expect(window.state.status == "Edited 2 marked albums")
        let albums = try session.library.albums()
        #expect(
            albums.map(\.genre).enumerated().allSatisfy { ($0.offset == 1 || $0.offset == 3) == ($0.element == "Jazz") }
        )
        #expect(albums[1].year == 1959 && albums[3].year == 1959)
        #expect(try session.steps().map(\.text) == ["Edit 2 albums"])
        #expect(window.state.marked.count == 2)  // the marks stay for the next change
    }

    @Test func marksSurviveAReloadAndDropAnAlbumAnotherProcessDeleted() throws {
        let (window, session, folder) = try makeWindow()
        defer { try? FileManager.default.removeItem(at: folder) }
        mark([0, 1, 2], in: window)
        let gone = try session.library.album(at: 2)
        // Another connection, as another process would be, deletes one marked album.
        let other = try LibrarySession.open(path: folder.appendingPathComponent("library.sqlite").path)
        _ = try other.delete(.id(gone.id))
        other.close()
        window.followExternalChanges()
        #expect(window.state.marked.count == 2 && !window.state.marked.contains(gone.id))
        window.handle(.character("d"))
        window.handle(.character("y"))
        #expect(window.state.status == "Deleted 2 marked albums")
        #expect(try session.library.count() == 2)
    }
}

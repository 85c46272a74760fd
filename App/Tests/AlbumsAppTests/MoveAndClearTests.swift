import AlbumLibrary
import Foundation
import Testing

@testable import AlbumsApp

/// The terminal UI's move-to-position prompt (`m`) and the edit form's emptied Year and Cover:
/// the prompt's pure state, how the screen draws it, and the controller on a real library.
@Suite struct MoveAndClearTests {
    private let toolbar = [
        BrowserState.ToolbarItem(key: "u", title: "Undo", isEnabled: false),
        BrowserState.ToolbarItem(key: "r", title: "Redo", isEnabled: false),
        BrowserState.ToolbarItem(key: "d", title: "Delete", isEnabled: true),
        BrowserState.ToolbarItem(key: "a", title: "Add", isEnabled: true),
        BrowserState.ToolbarItem(key: "q", title: "Quit", isEnabled: true),
    ]

    /// A library with the five defaults, its window, and its folder (removed by the caller).
    private func makeWindow() throws -> (LibraryWindow, LibrarySession, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("move-clear-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let session = try LibrarySession.open(path: folder.appendingPathComponent("library.sqlite").path)
        try session.library.seedDefaultsIfNeeded()
        return (try LibraryWindow(session: session, currentAlbumID: nil), session, folder)
    }

    private func type(_ text: String, into window: LibraryWindow) {
        for character in text { window.handle(.character(character)) }
    }

    @Test func thePromptTakesDigitsAndRefusesAnythingElseVisibly() {
        var prompt = MovePrompt()
        #expect(prompt.position == nil)
        prompt.type("1")
        prompt.type("x")
        #expect(prompt.problem == "A position takes digits only")
        #expect(prompt.text == "1")
        prompt.type("٣")  // an Arabic-Indic digit is a number, not an ASCII digit
        #expect(prompt.text == "1" && prompt.problem != nil)
        prompt.type("2")
        #expect(prompt.problem == nil && prompt.position == 12)
        for _ in 0..<10 { prompt.type("9") }
        #expect(prompt.problem == "A position has at most 9 digits")
        #expect(prompt.text == "129999999")
        prompt.deleteBackward()
        #expect(prompt.problem == nil && prompt.text == "12999999")
        while !prompt.text.isEmpty { prompt.deleteBackward() }
        prompt.deleteBackward()
        #expect(prompt.position == nil)
    }

    @Test func thePromptTakesTheStatusLineWithItsProblemAndHintsThatFitAt60Columns() {
        var state = BrowserState(albums: Album.defaults(), currentIndex: 0, toolbar: toolbar)
        state.movePrompt = MovePrompt()
        state.movePrompt?.type("3")
        var lines = BrowserScreen.plainText(BrowserScreen.render(state, width: 60, height: 20))
        #expect(lines[19] == " Move to position (1–5): 3_")
        #expect(lines[18] == " Type the new position (digits) · Enter move · Esc cancel")
        #expect(lines[17].contains("[u] Undo") && lines[17].contains("[q] Quit"))
        state.movePrompt?.type("z")
        lines = BrowserScreen.plainText(BrowserScreen.render(state, width: 60, height: 20))
        #expect(lines[19] == " Move to position (1–5): 3_   A position takes digits only")
        for line in lines { #expect(line.count <= 60, "\(line)") }

        // Closed, the browser's hints name m at every width, the narrowest at 60 columns.
        state.movePrompt = nil
        for width in [60, 80, 120] {
            let hints = BrowserScreen.plainText(BrowserScreen.render(state, width: width, height: 20))[18]
            #expect(hints.contains("</> m move") && hints.hasSuffix("H history · ? help"), "\(width): \(hints)")
        }
    }

    @Test func theHelpListsMAndStillFitsAt60By20() {
        var state = BrowserState(albums: Album.defaults(), currentIndex: 0, toolbar: toolbar)
        state.help = LibraryWindow.helpEntries
        let lines = BrowserScreen.plainText(BrowserScreen.render(state, width: 60, height: 20))
        #expect(lines.contains { $0.hasPrefix("   < > m ") && $0.hasSuffix("or (m) to a position") })
        #expect(lines.contains { $0.hasPrefix("   o ") && $0.hasSuffix("only your own changes, or everyone's") })
        // Every entry whole (the screen cuts lines at the width, so a cut one would lose its end).
        for entry in LibraryWindow.helpEntries {
            #expect(lines.contains { $0.hasSuffix(entry.action) }, "\(entry.keys)")
        }
    }

    @Test func enterMovesTheAlbumAsOneStepAndTheSelectionFollowsIt() throws {
        let (window, session, folder) = try makeWindow()
        defer { try? FileManager.default.removeItem(at: folder) }
        window.handle(.character("m"))
        #expect(window.state.movePrompt == MovePrompt())
        // While the prompt is open, letters neither navigate nor press buttons.
        window.handle(.character("d"))
        #expect(window.state.movePrompt?.problem == "A position takes digits only")
        #expect(try session.library.count() == 5)
        window.handle(.character("4"))
        #expect(window.state.movePrompt?.text == "4" && window.state.movePrompt?.problem == nil)
        window.handle(.enter)
        #expect(window.state.movePrompt == nil)
        #expect(window.state.status == "Moved “Best of Bowie” from position 1 to 4")
        #expect(window.state.clampedIndex == 3 && window.state.currentAlbum?.title == "Best of Bowie")
        #expect(try session.steps().map(\.text) == ["Move “Best of Bowie”"])
        window.handle(.character("u"))
        #expect(try session.library.position(of: window.state.currentAlbum!.id) == 4)
        #expect(try session.library.album(at: 1).title == "Best of Bowie")
    }

    @Test(arguments: [
        ("0", "position 0 is out of range (1...5)"), ("6", "position 6 is out of range (1...5)"),
        ("1", "“Best of Bowie” is already at position 1: nothing to move"),
        ("", nil),
    ])
    func aRefusedPositionRecordsNothing(typed: String, refusal: String?) throws {
        let (window, session, folder) = try makeWindow()
        defer { try? FileManager.default.removeItem(at: folder) }
        window.handle(.character("m"))
        type(typed, into: window)
        window.handle(.enter)
        if let refusal {
            // The transaction refused: the prompt closes, the reason in the status line.
            #expect(window.state.movePrompt == nil)
            #expect(window.state.status == refusal)
        } else {
            // Nothing typed: the prompt stays, asking for a position.
            #expect(window.state.movePrompt?.problem == "Type a position from 1 to 5")
            window.handle(.escape)
            #expect(window.state.movePrompt == nil && window.state.status == "Move cancelled")
        }
        #expect(try session.steps().isEmpty)
        #expect(window.state.currentAlbum?.title == "Best of Bowie")
    }

    @Test func anEmptiedYearIsRemovedAsOneEditStepThatUndoBringsBack() throws {
        let (window, session, folder) = try makeWindow()
        defer { try? FileManager.default.removeItem(at: folder) }
        window.handle(.character("e"))
        window.handle(.tab)
        window.handle(.tab)
        window.handle(.tab)
        #expect(window.state.form?.focus == .year)
        for _ in 0..<4 { window.handle(.backspace) }
        window.handle(.enter)
        #expect(window.state.form == nil)
        #expect(window.state.status == "Edited “Best of Bowie” (position 1)")
        #expect(try session.library.album(at: 1).year == nil)
        #expect(try session.steps().map(\.text) == ["Edit “Best of Bowie”"])
        window.handle(.character("u"))
        #expect(try session.library.album(at: 1).year == 1992)
        #expect(window.state.currentAlbum?.year == 1992)

        // An emptied title is still refused, the form kept open.
        window.handle(.character("e"))
        for _ in 0..<"Best of Bowie".count { window.handle(.backspace) }
        window.handle(.enter)
        #expect(window.state.form?.problem != nil)
        #expect(try session.steps().count == 1)
    }
}

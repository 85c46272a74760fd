import AlbumLibrary
import Foundation
import Testing

/// The terminal UI's move-to-position prompt (`m`) and the edit form's emptied Year and Cover,
/// end to end through tmux on the built binary, bad input included. In the tmux suite, so they
/// run one at a time with the others.
extension TerminalUITests {
    /// A folder with a library path in it (the file is created by the first command or the UI).
    private func makeMoveAndClearLibrary() throws -> (folder: URL, database: String) {
        let folder = try AlbumsProcess.makeFolder()
        return (folder, folder.appendingPathComponent("library.sqlite").path)
    }

    /// Starts the UI on the five default albums and waits for its first screen.
    private func launchOnBowie(_ database: String) async throws -> TmuxSession {
        let tmux = TmuxSession()
        try await tmux.start(database: database)
        try await tmux.waitForScreen("the albums") { $0.contains("[q] Quit") && $0.contains("Artist  David Bowie") }
        return tmux
    }

    /// The number of steps `albums history` lists (its first line is the start).
    private func recordedSteps(_ cli: AlbumsProcess) async throws -> Int {
        try await cli("history").output.split(separator: "\n").count - 1
    }

    @Test func mMovesTheAlbumToATypedPositionAsOneStepAndRefusesBadPositions() async throws {
        let (folder, database) = try makeMoveAndClearLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = AlbumsProcess(database: database)
        let tmux = try await launchOnBowie(database)
        defer { tmux.kill() }

        // The prompt takes the status line; a letter is refused there, visibly, and not typed.
        try await tmux.send("m")
        try await tmux.waitForScreen("the prompt") {
            $0.contains(" Move to position (1–5): _") && $0.contains("Enter move · Esc cancel")
        }
        try await tmux.send("-l", "x")
        let letter = try await tmux.waitForScreen("the letter refused") { $0.contains("A position takes digits only") }
        #expect(letter.contains("Move to position (1–5): _"))
        #expect(letter.contains("Artist  David Bowie"))  // nor did it act as a key of the browser

        // Enter moves it in one step; it stays the current album.
        try await tmux.send("-l", "4")
        try await tmux.send("Enter")
        let moved = try await tmux.waitForScreen("the move") {
            $0.contains("Moved “Best of Bowie” from position 1 to 4")
        }
        #expect(moved.contains("  4 of 5") && moved.contains("┃Best of Bowie"), "\(moved)")
        #expect(moved.contains("Undo Move “Best of Bowie”"))
        #expect(try await cli("list").output.contains("4  Best of Bowie"))
        #expect(try await recordedSteps(cli) == 1)

        // Out of range either side, and where it already is: refused in the status line.
        for (typed, refusal) in [
            ("0", "position 0 is out of range (1...5)"), ("6", "position 6 is out of range (1...5)"),
            ("4", "“Best of Bowie” is already at position 4: nothing to move"),
        ] {
            try await tmux.send("m")
            try await tmux.waitForScreen("the prompt for \(typed)") { $0.contains("Move to position (1–5): _") }
            try await tmux.send("-l", typed)
            try await tmux.send("Enter")
            let refused = try await tmux.waitForScreen("the refusal of \(typed)") { $0.contains(refusal) }
            #expect(!refused.contains("Move to position"), "\(refused)")
        }
        // Esc cancels what was typed.
        try await tmux.send("m")
        try await tmux.send("-l", "2")
        try await tmux.waitForScreen("2 typed") { $0.contains("Move to position (1–5): 2_") }
        try await tmux.send("Escape")
        let cancelled = try await tmux.waitForScreen("the cancel") { $0.contains(" Move cancelled") }
        #expect(cancelled.contains("  4 of 5") && cancelled.contains("┃Best of Bowie"))
        // None of that recorded anything or moved anything.
        #expect(try await recordedSteps(cli) == 1)
        #expect(try await cli("list").output.contains("4  Best of Bowie"))

        // The one step undoes as one.
        try await tmux.send("u")
        try await tmux.waitForScreen("the undo") { $0.contains("Undid Move “Best of Bowie”") }
        #expect(try await cli("list").output.contains("1  Best of Bowie"))
        try await tmux.send("q")
        #expect(try await tmux.waitUntilExit() == "0")
    }

    @Test func anEmptiedYearOrCoverIsRemovedAsOneEditStepAndUndoBringsItBack() async throws {
        let (folder, database) = try makeMoveAndClearLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = AlbumsProcess(database: database)
        #expect(try await cli("edit", "1", "--cover", "https://example.com/bowie.jpg").status == 0)
        let tmux = try await launchOnBowie(database)
        defer { tmux.kill() }

        // Year emptied: one step "Edit …" that removes it.
        try await tmux.send("e")
        try await tmux.waitForScreen("the edit form") { $0.contains("Year:   1992") }
        try await tmux.send("Tab", "Tab", "Tab", "BSpace", "BSpace", "BSpace", "BSpace", "Enter")
        let cleared = try await tmux.waitForScreen("the year removed") {
            $0.contains("Edited “Best of Bowie” (position 1)")
        }
        #expect(cleared.contains("Year    -") && cleared.contains("Undo Edit “Best of Bowie”"), "\(cleared)")
        var shown = try await cli("show", "1").output
        #expect(shown.contains("Year:     -") && shown.contains("Cover:    https://example.com/bowie.jpg"), "\(shown)")
        #expect(try await recordedSteps(cli) == 2)

        // Undo brings the year back.
        try await tmux.send("u")
        let undone = try await tmux.waitForScreen("the undo") { $0.contains("Undid Edit “Best of Bowie”") }
        #expect(undone.contains("Year    1992"))
        #expect(try await cli("show", "1").output.contains("Year:     1992"))

        // The cover emptied the same way.
        try await tmux.send("e")
        try await tmux.waitForScreen("the edit form again") { $0.contains("Cover:  https://example.com/bowie.jpg") }
        try await tmux.send("Tab", "Tab", "Tab", "Tab")
        for _ in 0..<"https://example.com/bowie.jpg".count { try await tmux.send("BSpace") }
        try await tmux.waitForScreen("the cover emptied") { $0.contains("> Cover:  _") }
        try await tmux.send("Enter")
        try await tmux.waitForScreen("the cover removed") { $0.contains("Edited “Best of Bowie” (position 1)") }
        shown = try await cli("show", "1").output
        #expect(shown.contains("Cover:    -") && shown.contains("Year:     1992"), "\(shown)")

        // The title stays required: emptied, it is refused and the form stays open.
        try await tmux.send("e")
        try await tmux.waitForScreen("the edit form a third time") { $0.contains("Edit “Best of Bowie”") }
        for _ in 0..<"Best of Bowie".count { try await tmux.send("BSpace") }
        try await tmux.send("Enter")
        try await tmux.waitForScreen("the title refusal") { $0.contains("title must not be empty") }
        try await tmux.send("Escape")
        try await tmux.waitForScreen("the form closed") { $0.contains("Edit cancelled") }
        // Two edits in the UI after the CLI's, the undone one replaced by the cover's.
        let history = try await cli("history").output
        #expect(history.split(separator: "\n").count == 3, "\(history)")
        try await tmux.send("q")
        #expect(try await tmux.waitUntilExit() == "0")
    }
}

extension TerminalUITests {
    /// ada's terminal UI (in `tmux`) deletes “Best of Bowie”, then grace, another process, adds
    /// “Blue Train” at position 1; returns grace's CLI.
    private func adaDeletesThenGraceAdds(in folder: URL, tmux: TmuxSession) async throws -> AlbumsProcess {
        let database = folder.appendingPathComponent("library.sqlite").path
        var grace = AlbumsProcess(database: database)
        grace.environment["ALBUMS_AUTHOR"] = "grace"
        try await tmux.start(database: database, arguments: ["--author", "ada"])
        try await tmux.waitForScreen("the albums") { $0.contains("[q] Quit") && $0.contains("Artist  David Bowie") }
        try await tmux.send("d")
        try await tmux.waitForScreen("the delete") { $0.contains("Deleted “Best of Bowie”") }
        #expect(try await grace("add", "-t", "Blue Train", "-a", "John Coltrane", "--at", "1").status == 0)
        return grace
    }

    /// `U` undoes the user's own latest change although another author (another process) changed
    /// the library since; `R` does it again; the status line says which step, or why not.
    @Test func shiftUUndoesYourOwnChangeAfterAnotherAuthorsChange() async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tmux = TmuxSession()
        defer { tmux.kill() }
        let grace = try await adaDeletesThenGraceAdds(in: folder, tmux: tmux)

        try await tmux.send("U")
        let undone = try await tmux.waitForScreen("the undo of ada's delete") {
            $0.contains("Undid your Delete “Best of Bowie” (step 1)")
        }
        #expect(!undone.contains("No album"), "\(undone)")
        let list = try await grace("list").output
        #expect(list.hasPrefix("  1  Blue Train") && list.contains("  2  Best of Bowie"), "\(list)")

        try await tmux.send("U")
        try await tmux.waitForScreen("nothing more of ada's") { $0.contains("ada has no change to undo") }
        try await tmux.send("R")
        try await tmux.waitForScreen("the redo") { $0.contains("Redid your Delete “Best of Bowie” (step 1)") }
        #expect(!(try await grace("list").output.contains("Best of Bowie")))
    }

    /// `o` switches u and r to the user's own changes: the toolbar then names the change "undo
    /// mine" would take back (not the shared history's last step, another author's), and u
    /// undoes exactly that one.
    @Test func oSwitchesUndoToYourOwnChangesAndTheToolbarNamesThem() async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tmux = TmuxSession()
        defer { tmux.kill() }
        let grace = try await adaDeletesThenGraceAdds(in: folder, tmux: tmux)
        // Everyone's: the toolbar follows the shared history's last step, grace's add.
        try await tmux.waitForScreen("grace's add on the toolbar") { $0.contains("[u] Undo Add “Blue Train”") }

        try await tmux.send("o")
        try await tmux.waitForScreen("ada's own delete on the toolbar") {
            $0.contains("[u] Undo your Delete “Best of Bowie”") && $0.contains("only your own changes")
        }
        try await tmux.send("u")
        try await tmux.waitForScreen("the undo of ada's delete") {
            $0.contains("Undid your Delete “Best of Bowie” (step 1)")
                && $0.contains("[r] Redo your Delete “Best of Bowie”")
                && $0.contains("[u] Undo yours")
        }
        let list = try await grace("list").output
        #expect(list.hasPrefix("  1  Blue Train") && list.contains("  2  Best of Bowie"), "\(list)")

        // Back to everyone's: u takes back the last step, ada's undo mine.
        try await tmux.send("o")
        try await tmux.waitForScreen("the shared toolbar") {
            $0.contains("[u] Undo Undo Delete “Best of Bowie” (step 1)") && $0.contains("whoever made it")
        }
        try await tmux.send("q")
        #expect(try await tmux.waitUntilExit() == "0")
    }
}

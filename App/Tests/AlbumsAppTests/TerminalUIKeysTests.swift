import AlbumLibrary
import Foundation
import Testing

/// The terminal UI's keys beyond scrolling and the toolbar (issue 15): jump and page, search,
/// edit, move, the history panel, the help, the form's cover and year, the 60×20 layout. In the
/// tmux suite, so they run one at a time with the others.
extension TerminalUITests {
    /// A folder with a library path in it (the file is created by the first command or the UI).
    private func makeLibrary() throws -> (folder: URL, database: String) {
        let folder = try AlbumsProcess.makeFolder()
        return (folder, folder.appendingPathComponent("library.sqlite").path)
    }

    /// Starts the UI and waits for its first screen.
    private func launch(_ database: String, waitingFor text: String = "Artist") async throws -> TmuxSession {
        let tmux = TmuxSession()
        try await tmux.start(database: database)
        try await tmux.waitForScreen("the albums") { $0.contains("[q] Quit") && $0.contains(text) }
        return tmux
    }

    private func quit(_ tmux: TmuxSession, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await tmux.send("q")
        #expect(try await tmux.waitUntilExit(sourceLocation: sourceLocation) == "0", sourceLocation: sourceLocation)
    }

    @Test func homeEndGAndPageKeysJumpThroughTwoThousandAlbums() async throws {
        let (folder, database) = try makeLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 2,000 albums through the CLI's import, after the five defaults.
        let file = folder.appendingPathComponent("albums.json")
        let albums = (1...2_000).map { Album(title: String(format: "Album %04d", $0), artist: "Artist \($0)") }
        try AlbumFile.encode(albums).write(to: file)
        let imported = try await AlbumsProcess(database: database)("import", file.path)
        try #require(imported.status == 0, "\(imported)")
        let tmux = try await launch(database, waitingFor: "  1 of 2005 ▶")
        defer { tmux.kill() }

        try await tmux.send("End")
        let end = try await tmux.waitForScreen("the last album") { $0.contains("◀ 2005 of 2005") }
        #expect(end.contains("┃Album 2000") && end.contains("Album   Album 2000"))
        try await tmux.send("Home")
        let home = try await tmux.waitForScreen("the first album") { $0.contains("  1 of 2005 ▶") }
        #expect(home.contains("┃Best of Bowie"))
        try await tmux.send("G")
        try await tmux.waitForScreen("G: the last album") { $0.contains("2005 of 2005") && $0.contains("┃Album 2000") }
        try await tmux.send("g")
        try await tmux.waitForScreen("g: the first album") { $0.contains("  1 of 2005 ▶") }

        // A page is the boxes a screen shows: five at 120 columns.
        try await tmux.send("NPage")
        let page = try await tmux.waitForScreen("a page on") { $0.contains("◀ 6 of 2005 ▶") }
        #expect(page.contains("┃Album 0001"))
        try await tmux.send("NPage", "NPage")
        try await tmux.waitForScreen("two pages more") { $0.contains("◀ 16 of 2005 ▶") && $0.contains("┃Album 0011") }
        try await tmux.send("PPage")
        try await tmux.waitForScreen("a page back") { $0.contains("◀ 11 of 2005 ▶") && $0.contains("┃Album 0006") }
        // Page Up near the start stops at the first album.
        try await tmux.send("PPage", "PPage", "PPage")
        try await tmux.waitForScreen("back at the start") { $0.contains("  1 of 2005 ▶") }
        // Past the loaded window: the last album, then one page back from it.
        try await tmux.send("End", "PPage")
        try await tmux.waitForScreen("a page before the end") {
            $0.contains("◀ 2000 of 2005 ▶") && $0.contains("┃Album 1995")
        }
        try await quit(tmux)
    }

    @Test func slashSearchesJumpsToEachMatchAndSaysWhenNothingMatches() async throws {
        let (folder, database) = try makeLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tmux = try await launch(database, waitingFor: "Artist  David Bowie")
        defer { tmux.kill() }

        try await tmux.send("/")
        try await tmux.waitForScreen("the prompt") { $0.contains(" /_") && $0.contains("Enter next match") }
        // Case-insensitive: "SUN" finds "Nothing Like The Sun" (3) and "Staring at the Sun" (4).
        try await tmux.send("-l", "SUN")
        try await tmux.send("Enter")
        let first = try await tmux.waitForScreen("the first match") { $0.contains("Match 1 of 2: position 3") }
        #expect(first.contains("Album   Nothing Like The Sun") && first.contains("/SUN_"))
        try await tmux.send("Enter")
        try await tmux.waitForScreen("the second match") {
            $0.contains("Match 2 of 2: position 4") && $0.contains("Album   Staring at the Sun")
        }
        try await tmux.send("Enter")
        try await tmux.waitForScreen("the first match again") {
            $0.contains("Match 1 of 2, from the start: position 3") && $0.contains("┃Nothing Like The Sun")
        }

        try await tmux.send("BSpace", "BSpace", "BSpace")
        try await tmux.send("-l", "zzz")
        try await tmux.send("Enter")
        let none = try await tmux.waitForScreen("no match") { $0.contains("No album matches “zzz”") }
        #expect(none.contains("Album   Nothing Like The Sun"))  // the current album stays
        try await tmux.send("Escape")
        let closed = try await tmux.waitForScreen("the prompt closed") { $0.contains("/ search") }
        #expect(!closed.contains("/zzz_"))
        try await quit(tmux)
    }

    @Test func editChangesTheTitleUndoRestoresItAndAnEditChangingNothingIsRefused() async throws {
        let (folder, database) = try makeLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = AlbumsProcess(database: database)
        let tmux = try await launch(database, waitingFor: "Artist  David Bowie")
        defer { tmux.kill() }

        // Enter without changes: refused, no step recorded.
        try await tmux.send("e")
        try await tmux.waitForScreen("the edit form") {
            $0.contains("Edit “Best of Bowie”") && $0.contains("Enter save")
        }
        try await tmux.send("Enter")
        try await tmux.waitForScreen("the refusal") {
            $0.contains("“Best of Bowie” already has those values: nothing to edit")
        }
        // Only the start line: no step recorded.
        #expect(try await cli("history").output.split(separator: "\n").count == 1)

        // The year retyped (an emptied one is removed: TerminalUIMoveAndClearTests).
        try await tmux.send("e")
        try await tmux.waitForScreen("the edit form again") { $0.contains("Year:   1992") }
        try await tmux.send("Tab", "Tab", "Tab", "BSpace", "BSpace", "BSpace", "BSpace")

        // Back to the title: "Best of Bowie" becomes "Best of Ziggy".
        try await tmux.send("-l", "1993")
        try await tmux.send("Tab", "Tab")
        for _ in 0..<5 { try await tmux.send("BSpace") }
        try await tmux.send("-l", "Ziggy")
        try await tmux.send("Enter")
        let edited = try await tmux.waitForScreen("the edit") { $0.contains("Edited “Best of Ziggy” (position 1)") }
        #expect(edited.contains("Album   Best of Ziggy") && edited.contains("Year    1993"))
        #expect(edited.contains("Undo Edit “Best of Bowie”"))
        #expect(try await cli("list").output.contains("1  Best of Ziggy"))

        try await tmux.send("u")
        let undone = try await tmux.waitForScreen("the undo") { $0.contains("Undid Edit “Best of Bowie”") }
        #expect(undone.contains("Album   Best of Bowie") && undone.contains("Year    1992"))
        #expect(try await cli("list").output.contains("1  Best of Bowie"))
        try await quit(tmux)
    }

    @Test func angleBracketsMoveTheCurrentAlbumAndRefuseAtTheEdge() async throws {
        let (folder, database) = try makeLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = AlbumsProcess(database: database)
        let tmux = try await launch(database, waitingFor: "Artist  David Bowie")
        defer { tmux.kill() }

        try await tmux.send(">")
        let moved = try await tmux.waitForScreen("the move") { $0.contains("Moved “Best of Bowie” to position 2") }
        #expect(moved.contains("2 of 5") && moved.contains("┃Best of Bowie"))  // it stays current
        #expect(moved.contains("Undo Move “Best of Bowie”"))
        #expect(try await cli("list").output.contains("2  Best of Bowie"))
        try await tmux.send("<")
        try await tmux.waitForScreen("the move back") {
            $0.contains("Moved “Best of Bowie” to position 1") && $0.contains("  1 of 5")
        }
        try await tmux.send("<")
        try await tmux.waitForScreen("the refusal") {
            $0.contains("“Best of Bowie” is already first (position 1 of 5)")
        }
        // Two moves recorded (after the start line), the refused one not.
        #expect(try await cli("history").output.split(separator: "\n").count == 3)
        try await quit(tmux)
    }

    @Test func theHistoryPanelJumpsToAStepAndRefusesWhenAnotherProcessChangedTheHistory() async throws {
        let (folder, database) = try makeLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = AlbumsProcess(database: database)
        #expect(try await cli("delete", "1").status == 0)
        #expect(try await cli("delete", "1").status == 0)
        #expect(try await cli("add", "--title", "Third", "--artist", "Step").status == 0)
        let tmux = try await launch(database)
        defer { tmux.kill() }

        try await tmux.send("H")
        let panel = try await tmux.waitForScreen("the panel") { $0.contains("History") && $0.contains("Enter jump") }
        #expect(panel.contains("> 3  Add “Third”"))
        #expect(panel.contains("  1  Delete “Best of Bowie”"))
        // Two steps back, in one transaction.
        try await tmux.send("Up", "Up", "Enter")
        let back = try await tmux.waitForScreen("the jump back") { $0.contains("Undid 2 steps (now at step 1)") }
        #expect(back.contains("albums · 4 albums") && back.contains("Redo Delete “It's My Life”"))
        #expect(try await cli("history").output.contains("> 1  "))
        // And forward to the end.
        try await tmux.send("H", "End", "Enter")
        try await tmux.waitForScreen("the jump forward") {
            $0.contains("Redid 2 steps (now at step 3)") && $0.contains("albums · 4 albums")
        }

        // The panel shows the history as read when it opened; another process then adds a step.
        try await tmux.send("H", "Up")
        try await tmux.waitForScreen("the panel again") { $0.contains("History") && $0.contains("> 3  Add “Third”") }
        #expect(try await cli("add", "--title", "Elsewhere", "--artist", "Other").status == 0)
        try await tmux.send("Enter")
        let refused = try await tmux.waitForScreen("the refusal") { $0.contains("“Add “Elsewhere””") }
        // Nothing undone; the panel reread the history, the new step on top.
        #expect(refused.contains("> 4  Add “Elsewhere”"), "\(refused)")
        let history = try await cli("history").output
        #expect(history.contains("> 4  ") && history.split(separator: "\n").count == 5, "\(history)")
        try await tmux.send("Escape")
        try await tmux.waitForScreen("the panel closed") { $0.contains("H history") }
        try await quit(tmux)
    }

    /// The panel shows the tree: a step undone before a new change is a branch, and Enter on it goes
    /// there (undoing the new change, redoing the branch) in one transaction.
    @Test func theHistoryPanelShowsBranchesAndJumpsToOne() async throws {
        let (folder, database) = try makeLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = AlbumsProcess(database: database)
        #expect(try await cli("add", "--title", "Kept", "--artist", "A").status == 0)
        #expect(try await cli("add", "--title", "Branch", "--artist", "A").status == 0)
        #expect(try await cli("undo").status == 0)
        #expect(try await cli("add", "--title", "Newer", "--artist", "A").status == 0)
        let tmux = try await launch(database)
        defer { tmux.kill() }

        try await tmux.send("H")
        let panel = try await tmux.waitForScreen("the tree") {
            $0.contains("History") && $0.contains("> 3  Add “Newer”")
        }
        #expect(panel.contains("└ 2  Add “Branch”"), "\(panel)")
        try await tmux.send("Up", "Enter")
        try await tmux.waitForScreen("the jump to the branch") {
            $0.contains("Undid 1 and redid 1 step (now at step 2)")
        }
        let listed = try await cli("list").output
        #expect(listed.contains("Branch") && !listed.contains("Newer"), "\(listed)")
        try await quit(tmux)
    }

    @Test func questionMarkShowsEveryKeyAndAnyKeyClosesIt() async throws {
        let (folder, database) = try makeLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tmux = try await launch(database, waitingFor: "Artist  David Bowie")
        defer { tmux.kill() }
        try await tmux.send("?")
        let help = try await tmux.waitForScreen("the help") { $0.contains("Any key closes the help") }
        for keys in [
            "←/→ h/l", "Home/End g/G", "PgUp/PgDn", "/ ", "e ", "< >", "a ", "d ", "u r", "H ", "? q ", "space Esc ",
        ] {
            #expect(help.contains("   " + keys), "\(keys)")
        }
        #expect(!help.contains("Artist  David Bowie"))
        // Any key closes it, and does nothing else: "d" does not delete here.
        try await tmux.send("d")
        let closed = try await tmux.waitForScreen("the help closed") { $0.contains("Artist  David Bowie") }
        #expect(closed.contains("albums · 5 albums"))
        try await quit(tmux)
    }

    @Test func theAddFormTakesACoverAndRefusesALetterInTheYear() async throws {
        let (folder, database) = try makeLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tmux = try await launch(database)
        defer { tmux.kill() }
        try await tmux.send("a")
        try await tmux.waitForScreen("the form") { $0.contains("Add an album") && $0.contains("Cover:") }
        try await tmux.send("-l", "Blue Train")
        try await tmux.send("Tab")
        try await tmux.send("-l", "John Coltrane")
        try await tmux.send("Tab", "Tab")
        try await tmux.send("-l", "19x")
        let refused = try await tmux.waitForScreen("the year refusal") { $0.contains("Year takes digits only") }
        // The letter stays, shown with the refusal, until it is deleted.
        #expect(refused.contains("Year:   19x_"))
        try await tmux.send("BSpace")
        try await tmux.send("-l", "57")
        try await tmux.waitForScreen("the year corrected") {
            $0.contains("Year:   1957_") && !$0.contains("digits only")
        }
        try await tmux.send("Tab")
        try await tmux.send("-l", "not a url")
        try await tmux.send("Enter")
        try await tmux.waitForScreen("the cover refusal") { $0.contains("is not an absolute URL") }
        for _ in 0..<9 { try await tmux.send("BSpace") }
        try await tmux.send("-l", "https://example.com/blue-train.jpg")
        try await tmux.send("Enter")
        try await tmux.waitForScreen("the new album") {
            $0.contains("Added “Blue Train”") && $0.contains("Year    1957")
        }
        try await quit(tmux)
        let shown = try await AlbumsProcess(database: database)("show", "Blue Train", "--json").output
        #expect(
            shown.contains("https:\\/\\/example.com\\/blue-train.jpg")
                || shown.contains("https://example.com/blue-train.jpg"))
        #expect(shown.contains("1957"))
    }

    @Test func at60By20TheToolbarAndHintsStayWhole() async throws {
        let (folder, database) = try makeLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tmux = try await launch(database)
        defer { tmux.kill() }
        try await tmux.tmux(["resize-window", "-t", tmux.name, "-x", "60", "-y", "20"])
        let small = try await tmux.waitForScreen("the 60×20 layout") {
            $0.contains("H history · ? help") && !$0.contains("Staring at the Sun")
        }
        let lines = small.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 60 })
        #expect(small.contains("[u] Undo") && small.contains("[q] Quit"))
        #expect(small.contains("Artist  David Bowie"))  // room for the details, too
        // The help fits whole at 60×20.
        try await tmux.send("?")
        let help = try await tmux.waitForScreen("the help at 60×20") { $0.contains("Any key closes the help") }
        #expect(help.contains("   ? q ") && help.contains("[q] Quit"))
        try await tmux.send("x")
        // Closed before the resize: the help hides the details too, so the wait below would
        // otherwise take the help, still open, for the tiny layout (it did, once in a while).
        try await tmux.waitForScreen("the help closed") {
            !$0.contains("Any key closes the help") && $0.contains("Artist  David Bowie")
        }
        // Below that, the body gives way and the footer stays.
        try await tmux.tmux(["resize-window", "-t", tmux.name, "-x", "60", "-y", "6"])
        let tiny = try await tmux.waitForScreen("the 60×6 layout") {
            $0.contains("[q] Quit") && !$0.contains("Artist  David Bowie")
        }
        #expect(tiny.contains("? help"))
        try await quit(tmux)
    }
}

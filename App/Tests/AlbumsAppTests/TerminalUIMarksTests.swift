import AlbumLibrary
import Foundation
import Testing

/// The terminal UI's marked selection through tmux (issue 26): space marks, `d` asks and deletes
/// every marked album as one step, one `u` brings them back, `e` sets the genre of all marked.
/// In the tmux suite, so it runs one at a time with the others.
extension TerminalUITests {
    @Test func marksThreeAlbumsDeletesThemAsOneStepUndoesItAndEditsTheMarkedGenre() async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("library.sqlite").path
        let cli = AlbumsProcess(database: database)
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await tmux.start(database: database)
        try await tmux.waitForScreen("the albums") { $0.contains("[q] Quit") && $0.contains("Artist  David Bowie") }

        // Albums 1, 2 and 4 marked; keys are handled in the order sent.
        try await tmux.send("Space", "l", "Space", "l", "l", "Space")
        let marked = try await tmux.waitForScreen("three marks") {
            $0.contains("5 albums · 3 marked") && $0.contains("[d] Delete 3 marked")
        }
        #expect(marked.components(separatedBy: "✓ marked").count == 4, "\(marked)")
        try await tmux.send("d")
        try await tmux.waitForScreen("the question") { $0.contains("Delete 3 marked albums? y/n") }
        try await tmux.send("y")
        let deleted = try await tmux.waitForScreen("the delete") {
            $0.contains("Deleted 3 marked albums") && $0.contains("2 albums")
        }
        #expect(!deleted.contains("marked ·") && !deleted.contains("✓ marked"))
        let listed = try await cli("list").output
        for title in ["Best of Bowie", "It's My Life", "Staring at the Sun"] { #expect(!listed.contains(title)) }
        #expect(listed.contains("Nothing Like The Sun") && listed.contains("American Pie"))
        #expect(try await cli("history").output.contains("Delete 3 albums"))

        // One u brings all three back.
        try await tmux.send("u")
        try await tmux.waitForScreen("the undo") { $0.contains("Undid Delete 3 albums") && $0.contains("5 albums") }
        let restored = try await cli("list").output
        for title in ["Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun", "American Pie"] {
            #expect(restored.contains(title))
        }

        // e on two marked albums sets the genre of both, as one step.
        try await tmux.send("g", "Space", "l", "Space")
        try await tmux.waitForScreen("two marks") { $0.contains("5 albums · 2 marked") }
        try await tmux.send("e")
        try await tmux.waitForScreen("the form") { $0.contains("Edit 2 marked albums") && $0.contains("Genre:") }
        try await tmux.send("-l", "Bebop")
        try await tmux.send("Enter")
        try await tmux.waitForScreen("the edit") { $0.contains("Edited 2 marked albums") }
        let bebop = try await cli("list", "genre:bebop").output
        #expect(bebop.contains("Best of Bowie") && bebop.contains("It's My Life") && !bebop.contains("American Pie"))
        #expect(try await cli("history").output.contains("Edit 2 albums"))
        // Esc clears the marks.
        try await tmux.send("Escape")
        try await tmux.waitForScreen("no marks") { $0.contains("Cleared 2 marks") && !$0.contains("✓ marked") }
        try await tmux.send("q")
        #expect(try await tmux.waitUntilExit() == "0")
    }
}

import Foundation
import Testing

/// The terminal UI on a terminal it cannot use (TERM unset, unknown, or `dumb`) refuses in one line
/// that names the reason and the commands, exit 1, instead of ncurses' "Error opening terminal" or
/// a screen drawn on one line.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct TerminalTypeTests {
    @Test(arguments: [
        (String?.none, "TERM is not set"),
        ("dumb", "the terminal type “dumb” cannot move the cursor"),
        ("no-such-terminal", "the terminal type “no-such-terminal” is unknown"),
    ])
    func anUnusableTerminalIsRefusedInOneLine(term: String?, reason: String) async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = AlbumsProcess(database: folder.appendingPathComponent("library.sqlite").path)
        #expect(try await cli("list").status == 0)
        let before = try await cli("export").output
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await tmux.start(database: cli.database, term: term)
        #expect(try await tmux.waitUntilExit() == "1")
        let screen = try await tmux.transcript()
        #expect(screen.contains("albums: the terminal UI cannot run here: \(reason)"), "\(screen)")
        #expect(screen.contains("the commands need no terminal (albums list, albums --help)"), "\(screen)")
        #expect(!screen.contains("Error opening terminal"), "\(screen)")
        #expect(try await cli("export").output == before)
    }
}

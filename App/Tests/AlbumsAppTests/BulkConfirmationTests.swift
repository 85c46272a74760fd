import Foundation
import Testing

/// On a terminal, a change to several albums lists them and asks; only "y" changes them.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct BulkConfirmationTests {
    @Test(arguments: [("y", "0", 3), ("n", "1", 5)])
    func aTerminalIsAskedBeforeSeveralAlbumsChange(answer: String, status: String, remaining: Int) async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = AlbumsProcess(database: folder.appendingPathComponent("library.sqlite").path)
        #expect(try await cli("list").status == 0)
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await tmux.start(database: cli.database, arguments: ["delete", "title:sun"])
        let question = try await tmux.waitForScreen("the question") { $0.contains("Delete 2 albums? [y/N]") }
        #expect(question.contains("3  Nothing Like The Sun — Sting"), "\(question)")
        #expect(question.contains("4  Staring at the Sun — U2"), "\(question)")
        try await tmux.send(answer, "Enter")
        #expect(try await tmux.waitUntilExit() == status)
        let screen = try await tmux.transcript()
        #expect(
            screen.contains(answer == "y" ? "Deleted 2 albums" : "nothing changed: delete not confirmed"), "\(screen)")
        let rows = try JSONSerialization.jsonObject(with: Data(try await cli("--json", "list").output.utf8)) as? [Any]
        #expect(rows?.count == remaining)
    }
}

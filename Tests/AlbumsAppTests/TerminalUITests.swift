import Foundation
import Testing

/// Drives a tmux server on a private socket: start a program in a 120×40 pane, send keys, read the screen.
private final class TmuxSession {
    let socket = "albums-e2e-\(UUID().uuidString.prefix(8))"
    let name = "albums"

    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/tmux")
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux", "-u", "-L", socket] + arguments
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil
        environment["LANG"] = "C.UTF-8"
        process.environment = environment
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Starts `albums --db path` in a new detached session; the pane stays after the program exits.
    func start(database: String) throws {
        let binary = AlbumsProcess.executable.path
        let command = "exec env LANG=C.UTF-8 TERM=xterm-256color '\(binary)' --db '\(database)'"
        try tmux(["new-session", "-d", "-x", "120", "-y", "40", "-s", name, command])
        try tmux(["set-option", "-t", name, "remain-on-exit", "on"])
    }

    func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", name] + keys)
    }

    /// The screen as text (with escape sequences for attributes when `escapes`).
    func screen(escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", name] + (escapes ? ["-e"] : [])).output
    }

    /// Waits until the screen satisfies `condition` (up to ten seconds) and returns it.
    @discardableResult
    func waitForScreen(
        _ what: String,
        escapes: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: (String) -> Bool
    ) throws -> String {
        var last = ""
        for _ in 0..<200 {
            last = try screen(escapes: escapes)
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("timed out waiting for \(what); screen:\n\(last)", sourceLocation: sourceLocation)
        return last
    }

    /// The program's pid, its exit status once dead ("" while alive).
    func pane(_ format: String) throws -> String {
        try tmux(["display-message", "-p", "-t", name, format]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func waitUntilDead(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        for _ in 0..<200 {
            if try pane("#{pane_dead}") == "1" { return try pane("#{pane_dead_status}") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("the program did not exit", sourceLocation: sourceLocation)
        return ""
    }

    func kill() {
        _ = try? tmux(["kill-server"])
    }
}

/// End-to-end tests of the terminal UI through tmux (installed by `.ci/run`).
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct TerminalUITests {
    /// Undo is dimmed: the captured escape codes put SGR 2 (dim) on "[u] Undo".
    private func undoIsDimmed(_ screenWithEscapes: String) -> Bool {
        guard let range = screenWithEscapes.range(of: "[u] ") else { return false }
        let before = screenWithEscapes[..<range.lowerBound]
        guard let lastEscape = before.range(of: "\u{1B}[", options: .backwards) else { return false }
        let parameters = before[lastEscape.upperBound...].prefix { $0 != "m" }
        return parameters.split(separator: ";").contains("2")
    }

    @Test func browseDeleteUndoQuitAndRelaunch() throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("library.sqlite").path
        let tmux = TmuxSession()
        defer { tmux.kill() }

        // The five albums and the details table.
        try tmux.start(database: database)
        let first = try tmux.waitForScreen("the albums") { $0.contains("American Pie") && $0.contains("[q] Quit") }
        for title in ["Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun", "American Pie"] {
            #expect(first.contains(title))
        }
        #expect(first.contains("Artist  David Bowie"))
        #expect(first.contains("Album   Best of Bowie"))
        #expect(first.contains("Genre   Pop"))
        #expect(first.contains("Year    1992"))
        #expect(first.contains("┃Best of Bowie"))  // the current album is highlighted

        // Undo is dimmed while there is nothing to undo; Delete is not.
        let escaped = try tmux.screen(escapes: true)
        #expect(undoIsDimmed(escaped), "\(escaped)")

        // Delete the current album: Undo names it and is no longer dimmed.
        try tmux.send("d")
        let deleted = try tmux.waitForScreen("Undo Delete") { $0.contains("Undo Delete “Best of Bowie”") }
        #expect(!deleted.contains("┃Best of Bowie"))
        #expect(deleted.contains("Artist  No Doubt"))
        #expect(!undoIsDimmed(try tmux.screen(escapes: true)))
        // The change is already on disk, seen by another process while the UI runs.
        #expect(try AlbumsProcess(database: database)("list").output.split(separator: "\n").count == 4)

        // Undo brings it back.
        try tmux.send("u")
        let undone = try tmux.waitForScreen("the album back") { $0.contains("Best of Bowie") && $0.contains("Undid") }
        #expect(undone.contains("Redo Delete “Best of Bowie”"))
        #expect(undoIsDimmed(try tmux.screen(escapes: true)))

        // Scroll right, delete "It's My Life", quit.
        try tmux.send("l")
        try tmux.waitForScreen("the second album current") { $0.contains("Artist  No Doubt") }
        try tmux.send("d")
        try tmux.waitForScreen("the second album deleted") { $0.contains("Undo Delete “It's My Life”") }
        try tmux.send("q")
        #expect(try tmux.waitUntilDead() == "0")

        // Relaunch: the deletion persisted and the current album was remembered.
        try tmux.tmux(["kill-session", "-t", tmux.name])
        try tmux.start(database: database)
        let relaunched = try tmux.waitForScreen("the relaunched UI") { $0.contains("[q] Quit") && $0.contains("Artist") }
        #expect(!relaunched.contains("It's My Life"))
        #expect(relaunched.contains("Undo Delete “It's My Life”"))
        #expect(relaunched.contains("Artist  Sting"))
        #expect(relaunched.contains("2 of 4"))
        try tmux.send("q")
        _ = try tmux.waitUntilDead()
    }

    @Test func addAnAlbumThroughTheForm() throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("library.sqlite").path
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try tmux.start(database: database)
        try tmux.waitForScreen("the albums") { $0.contains("[q] Quit") }
        try tmux.send("a")
        try tmux.waitForScreen("the form") { $0.contains("Add an album") }
        try tmux.send("-l", "Blue Train")
        try tmux.send("Tab")
        try tmux.send("-l", "John Coltrane")
        try tmux.send("Tab", "Tab")
        try tmux.send("-l", "1957")
        try tmux.send("Enter")
        let added = try tmux.waitForScreen("the new album") { $0.contains("Added “Blue Train”") }
        #expect(added.contains("Artist  John Coltrane"))
        #expect(added.contains("Year    1957"))
        #expect(added.contains("Undo Add “Blue Train”"))
        try tmux.send("q")
        #expect(try tmux.waitUntilDead() == "0")
        let list = try AlbumsProcess(database: database)("list").output
        #expect(list.contains("2  Blue Train"))
    }

    @Test func sigtermRestoresTheTerminalAndLeavesAConsistentLibrary() throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("library.sqlite").path
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try tmux.start(database: database)
        try tmux.waitForScreen("the albums") { $0.contains("[q] Quit") }
        try tmux.send("d")
        try tmux.waitForScreen("the deletion") { $0.contains("Undo Delete “Best of Bowie”") }
        let pid = try tmux.pane("#{pane_pid}")
        try #require(Int32(pid) != nil)
        let killer = Process()
        killer.executableURL = URL(fileURLWithPath: "/bin/kill")
        killer.arguments = ["-TERM", pid]
        try killer.run()
        killer.waitUntilExit()
        // The UI left its loop and exited on its own (128 + SIGTERM), not killed mid-draw.
        #expect(try tmux.waitUntilDead() == "143")

        let albums = AlbumsProcess(database: database)
        let list = try albums("list")
        #expect(list.status == 0, "\(list)")
        #expect(list.output.split(separator: "\n").count == 4)
        #expect(try albums("history").output.contains("> 1  Delete “Best of Bowie”"))
        let undo = try albums("undo")
        #expect(undo.output == "Undid Delete “Best of Bowie”\n", "\(undo)")
        #expect(try albums("list").output.split(separator: "\n").count == 5)
    }
}

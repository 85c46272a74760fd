import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// End-to-end tests through tmux: another program replaces (`mv`), writes over (`cp`) or removes
/// (`rm`) the library while the terminal UI has it open. No change the UI acknowledged before is
/// lost from the file it was made in, no restore is reverted (the restored content is what a later
/// `albums` shows, plus only the changes made after it), and the status line says what happened.
///
/// Regression tests: before the fix, after `mv backup.sqlite library.sqlite` the next `albums` run
/// replayed the UI's write-ahead log into the restored file (the restore silently reverted, exit
/// 0), and a delete made afterwards in the UI went to the unlinked file (gone after `q`, exit 0).
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct TerminalUIReplacedLibraryTests {
    /// The five default albums plus "Before Backup" (one step of history), and a complete copy of
    /// it made while no process had it open.
    private struct Fixture {
        let folder: URL
        let albums: AlbumsProcess
        let backup: String
        /// The library's export and history as the backup holds them.
        let backupSnapshot: String

        var library: String { albums.database }

        static func make() async throws -> Fixture {
            let folder = try AlbumsProcess.makeFolder()
            let albums = AlbumsProcess(database: folder.appendingPathComponent("library.sqlite").path)
            let added = try await albums("add", "--title", "Before Backup", "--artist", "X")
            try #require(added.status == 0, "\(added)")
            let backup = folder.appendingPathComponent("backup.sqlite").path
            try FileManager.default.copyItem(atPath: albums.database, toPath: backup)
            return Fixture(folder: folder, albums: albums, backup: backup, backupSnapshot: try await albums.snapshot())
        }
    }

    /// Starts the UI on the fixture's library and deletes "Best of Bowie" in it: a change the UI
    /// acknowledges, made after the backup (another process sees it).
    private func startAndDelete(_ fixture: Fixture, in tmux: TmuxSession) async throws {
        try await tmux.start(database: fixture.library)
        try await tmux.waitForScreen("the albums") { $0.contains("[q] Quit") && $0.contains("┃Best of Bowie") }
        try await tmux.send("d")
        try await tmux.waitForScreen("the delete") { $0.contains("Deleted “Best of Bowie”") }
        let listed = try await fixture.albums("list")
        #expect(listed.status == 0 && !listed.output.contains("Best of Bowie"), "\(listed)")
    }

    /// After the restore: the UI deletes "Before Backup" (a change made after it), quits with 0, and
    /// the library is the backup minus that album, its history the backup's plus that step.
    private func deleteAfterTheRestoreAndQuit(_ fixture: Fixture, in tmux: TmuxSession) async throws {
        try await tmux.send("G")
        try await tmux.waitForScreen("the last album") { $0.contains("┃Before Backup") }
        try await tmux.send("d")
        try await tmux.waitForScreen("the delete after the restore") { $0.contains("Deleted “Before Backup”") }
        try await tmux.send("q")
        #expect(try await tmux.waitUntilExit() == "0")
        let listed = try await fixture.albums("list")
        #expect(listed.output.contains("Best of Bowie"), "the restore was reverted: \(listed)")
        #expect(!listed.output.contains("Before Backup"), "the change after the restore was lost: \(listed)")
        #expect(listed.output.split(separator: "\n").count == 5, "\(listed)")
        let history = try await fixture.albums("history")
        #expect(history.output.contains("Add “Before Backup”"), "\(history)")
        #expect(history.output.contains("Delete “Before Backup”"), "\(history)")
        #expect(!history.output.contains("Delete “Best of Bowie”"), "\(history)")
        #expect(history.output.split(separator: "\n").count == 3, "\(history)")  // Start and two steps
    }

    @Test func aBackupMovedOverTheLibraryIsReopenedAndNeverReverted() async throws {
        let fixture = try await Fixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await startAndDelete(fixture, in: tmux)

        #expect(rename(fixture.backup, fixture.library) == 0)

        let screen = try await tmux.waitForScreen("the restore noticed") {
            $0.contains("Another program replaced the library file (a restore?): reopened it")
        }
        #expect(screen.contains("Best of Bowie"), "\(screen)")
        #expect(try await fixture.albums.snapshot() == fixture.backupSnapshot)
        try await deleteAfterTheRestoreAndQuit(fixture, in: tmux)
    }

    /// Regression test: the reopened session had no author, so the steps made after a reopen were
    /// recorded without one and `U` said " has no change to undo" (seen under load, when another
    /// process's commit made the UI reopen the file).
    @Test func theRunsAuthorSurvivesAReopen() async throws {
        let fixture = try await Fixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await tmux.start(database: fixture.library, arguments: ["--author", "ada"])
        try await tmux.waitForScreen("the albums") { $0.contains("[q] Quit") && $0.contains("┃Best of Bowie") }
        #expect(rename(fixture.backup, fixture.library) == 0)
        try await tmux.waitForScreen("the restore noticed") { $0.contains("reopened it") }
        try await tmux.send("d")
        try await tmux.waitForScreen("the delete after the reopen") { $0.contains("Deleted “Best of Bowie”") }
        try await tmux.send("U")
        try await tmux.waitForScreen("ada's own undo") { $0.contains("Undid your Delete “Best of Bowie”") }
        try await tmux.send("q")
        #expect(try await tmux.waitUntilExit() == "0")
        let history = try await fixture.albums("history", "--author", "ada")
        #expect(history.output.contains("Delete “Best of Bowie”"), "\(history)")
    }

    @Test func aBackupCopiedOverTheLibraryIsReopenedAndNeverReverted() async throws {
        let fixture = try await Fixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await startAndDelete(fixture, in: tmux)

        // cp writes the backup's bytes into the library's own inode, under the UI's open connection.
        let copied = try await fixture.albums.run(
            [fixture.backup, fixture.library], executable: URL(fileURLWithPath: "/bin/cp"))
        try #require(copied.status == 0, "\(copied)")

        let screen = try await tmux.waitForScreen("the copy noticed") {
            $0.contains("The library file changed on disk (another process, or a copy): reopened it")
        }
        #expect(screen.contains("Best of Bowie"), "\(screen)")
        #expect(try await fixture.albums.snapshot() == fixture.backupSnapshot)
        try await deleteAfterTheRestoreAndQuit(fixture, in: tmux)
    }

    /// A copy seen half way: the file is empty, then half written, for longer than the UI's idle look
    /// takes. The UI waits for a file it can open instead of stopping on the half-written one.
    ///
    /// Regression test: under a loaded machine (AddressSanitizer in CI) the UI looked while `cp` had
    /// only truncated the file, and stopped with "… is not an albums library (not an SQLite database)".
    @Test func aCopyCaughtHalfWayIsWaitedForAndShownWhenComplete() async throws {
        let fixture = try await Fixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await startAndDelete(fixture, in: tmux)

        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.backup))
        let file = try #require(FileHandle(forWritingAtPath: fixture.library))
        try file.truncate(atOffset: 0)
        try await Task.sleep(for: .milliseconds(800))
        try file.write(contentsOf: bytes.prefix(bytes.count / 2))
        try await Task.sleep(for: .milliseconds(800))
        try file.write(contentsOf: bytes.dropFirst(bytes.count / 2))
        try file.close()

        let screen = try await tmux.waitForScreen("the copy shown") {
            $0.contains("The library file changed on disk (another process, or a copy): reopened it")
        }
        #expect(screen.contains("Best of Bowie"), "\(screen)")
        #expect(try await fixture.albums.snapshot() == fixture.backupSnapshot)
        try await deleteAfterTheRestoreAndQuit(fixture, in: tmux)
    }

    /// Another process's change, then at once a backup copied over the library, before the UI (stopped
    /// here) could checkpoint that change: the command checkpointed it itself, so the copy replaces it
    /// and no reader finds it in the log over the copied pages.
    @Test func aBackupCopiedJustAfterAnotherProcessesChangeIsNotReverted() async throws {
        let fixture = try await Fixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await startAndDelete(fixture, in: tmux)
        let pid = try #require(try await tmux.programPID())
        #expect(kill(pid, SIGSTOP) == 0)
        var stopped = true
        defer { if stopped { kill(pid, SIGCONT) } }
        let added = try await fixture.albums("add", "--title", "Just Before The Copy", "--artist", "Y")
        #expect(added.status == 0, "\(added)")

        let copied = try await fixture.albums.run(
            [fixture.backup, fixture.library], executable: URL(fileURLWithPath: "/bin/cp"))
        try #require(copied.status == 0, "\(copied)")
        #expect(try await fixture.albums.snapshot() == fixture.backupSnapshot)
        #expect(kill(pid, SIGCONT) == 0)
        stopped = false

        // The UI shows the copy (the other process's commit made it drop its cached pages).
        try await tmux.waitForScreen("the copy shown") { $0.contains("Best of Bowie") }
        try await tmux.send("q")
        #expect(try await tmux.waitUntilExit() == "0")
        #expect(try await fixture.albums.snapshot() == fixture.backupSnapshot)
    }

    @Test func aRemovedLibraryStopsTheTerminalUIAndLeavesNoLogBehind() async throws {
        let fixture = try await Fixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await startAndDelete(fixture, in: tmux)

        #expect(unlink(fixture.library) == 0)

        #expect(try await tmux.waitUntilExit() == "1")
        // Joined (-J): the message is one line, wider than the pane; from the history (-S) too, where
        // its first part goes when it is printed on the last row.
        let screen = try await tmux.tmux(["capture-pane", "-p", "-J", "-S", "-100", "-t", tmux.name]).output
        #expect(
            screen.contains(
                "albums: the library \(fixture.library) was removed or renamed by another program while it was "
                    + "open here; albums stopped without writing to it"),
            "\(screen)")
        // Its log went with it: nothing is left to replay into a library made at the path later.
        for suffix in ["", "-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: fixture.library + suffix), "\(suffix)")
        }
    }

    /// A command run before the UI has noticed the restore (here the UI is stopped) is refused: the
    /// log at the path is still the old file's. Once the UI goes on, it lets go and the command works.
    @Test func aCommandRunBeforeTheTerminalUINoticesIsRefusedNotReverted() async throws {
        let fixture = try await Fixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await startAndDelete(fixture, in: tmux)
        let pid = try #require(try await tmux.programPID())
        #expect(kill(pid, SIGSTOP) == 0)
        var stopped = true
        defer { if stopped { kill(pid, SIGCONT) } }

        #expect(rename(fixture.backup, fixture.library) == 0)
        let refused = try await fixture.albums("list")

        #expect(refused.status == 1, "\(refused)")
        #expect(refused.output.isEmpty, "\(refused)")
        #expect(
            refused.error.hasPrefix(
                "albums: cannot open the library \(fixture.library): \(fixture.library)-wal is the write-ahead log of "
                    + "the file that was at \(fixture.library) before another was moved over it (a restore?); "
                    + "nothing was read or changed"),
            "\(refused)")
        #expect(kill(pid, SIGCONT) == 0)
        stopped = false
        try await tmux.waitForScreen("the restore noticed") {
            $0.contains("Another program replaced the library file (a restore?): reopened it")
        }
        #expect(try await fixture.albums.snapshot() == fixture.backupSnapshot)
        try await deleteAfterTheRestoreAndQuit(fixture, in: tmux)
    }

    /// A delete pressed after the restore, before the UI looked at the file again (the UI is stopped
    /// while the key waits): it is applied to neither file, and the status line says so.
    @Test func aKeyPressedBeforeTheTerminalUINoticesIsNotApplied() async throws {
        let fixture = try await Fixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await startAndDelete(fixture, in: tmux)
        let pid = try #require(try await tmux.programPID())
        #expect(kill(pid, SIGSTOP) == 0)
        var stopped = true
        defer { if stopped { kill(pid, SIGCONT) } }
        #expect(rename(fixture.backup, fixture.library) == 0)
        try await tmux.send("d")  // waits in the terminal until the UI goes on

        #expect(kill(pid, SIGCONT) == 0)
        stopped = false

        try await tmux.waitForScreen("the key dropped") {
            $0.contains(
                "Another program replaced the library file (a restore?): reopened it; your last action was not applied")
        }
        #expect(try await fixture.albums.snapshot() == fixture.backupSnapshot)
        try await deleteAfterTheRestoreAndQuit(fixture, in: tmux)
    }

    /// A UI killed with the old file open leaves its log at the path: it is never replayed into the
    /// restored file; the refusal says to move it away, after which the restore is what shows.
    @Test func aLogLeftByAKilledTerminalUIIsNeverReplayedIntoTheRestoredFile() async throws {
        let fixture = try await Fixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await startAndDelete(fixture, in: tmux)
        let pid = try #require(try await tmux.programPID())
        #expect(kill(pid, SIGKILL) == 0)
        #expect(try await tmux.waitUntilExit() == "137")

        #expect(rename(fixture.backup, fixture.library) == 0)
        let refused = try await fixture.albums("list")

        #expect(refused.status == 1, "\(refused)")
        #expect(
            refused.error.hasSuffix(
                "or if none has, move \(fixture.library)-wal and \(fixture.library)-shm away\n"),
            "\(refused)")
        for suffix in ["-wal", "-shm"] {
            try FileManager.default.moveItem(
                atPath: fixture.library + suffix, toPath: fixture.folder.path + "/set-aside" + suffix)
        }
        #expect(try await fixture.albums.snapshot() == fixture.backupSnapshot)
    }
}

import AlbumLibrary
import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A library file replaced, removed or written over while a session has it open (the way people
/// restore a backup: `mv backup.sqlite library.sqlite`, `cp backup.sqlite library.sqlite`), seen
/// from the session and from another process.
///
/// Regression tests: before the fix, a process opening the path after `mv` replayed the old file's
/// `-wal` into the restored one and its close checkpointed it there (the restore silently
/// reverted), and a change made through the old session went to the unlinked file.
@Suite struct ReplacedLibraryFileTests {
    /// A library of `titles` at `folder/library.sqlite`, closed, and a copy of it at
    /// `folder/backup.sqlite` (complete: no process has it open).
    private static func libraryAndBackup(in folder: URL, titles: [String]) throws -> (library: String, backup: String) {
        let library = folder.path + "/library.sqlite"
        let backup = folder.path + "/backup.sqlite"
        func fill() throws {
            let session = try LibrarySession.open(path: library)
            for title in titles { try session.add(Album(title: title, artist: "A")) }
        }
        // Released, not only closed: the last close (which checkpoints) waits for its statements.
        try fill()
        try FileManager.default.copyItem(atPath: library, toPath: backup)
        return (library, backup)
    }

    private static func titles(at path: String) throws -> [String] {
        let session = try LibrarySession.open(path: path)
        defer { session.close() }
        return try session.library.albums().map(\.title)
    }

    @Test func aBackupMovedOverTheFileRefusesCommitsAndIsNeverRevertedByTheOldLog() async throws {
        let folder = try ChildProcess.makeFolder("replaced-mv")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (library, backup) = try Self.libraryAndBackup(in: folder, titles: ["One", "Two"])
        let session = try LibrarySession.open(path: library)
        try session.add(Album(title: "After the backup", artist: "A"))  // only in the old file's log

        #expect(rename(backup, library) == 0)

        #expect(try session.fileStatus() == .replaced)
        let refusal = #expect(throws: DatabaseError.self) { try session.add(Album(title: "Lost", artist: "A")) }
        #expect(refusal?.resultCode == .readOnlyDatabaseMoved, "\(String(describing: refusal))")
        #expect(refusal?.message.contains("nothing was written") == true, "\(String(describing: refusal))")
        // Another process, while the old file's log is still at the path: refused before reading it.
        let cli = AlbumsCLI(database: library)
        let whileOpen = try await cli("list")
        AlbumsCLI.expectClearFailure(whileOpen, "list while the old file is open")
        #expect(whileOpen.error.contains("library.sqlite-wal is the write-ahead log of the file that was at"))
        // The close touches nothing of the new file, and takes the old file's log and index away.
        session.close()
        #expect(!FileManager.default.fileExists(atPath: library + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: library + "-shm"))
        #expect(try Self.titles(at: library) == ["One", "Two"])
        // (The CLI adds its five default albums to a library that never had them.)
        let listed = try await cli("list")
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.output.contains("One") && !listed.output.contains("After the backup"), "\(listed)")
    }

    @Test func aFileRenamedAwayKeepsTheCommitsItsLogHeld() throws {
        let folder = try ChildProcess.makeFolder("replaced-renamed")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (library, backup) = try Self.libraryAndBackup(in: folder, titles: ["One"])
        let session = try LibrarySession.open(path: library)
        try session.add(Album(title: "Logged", artist: "A"))
        let moved = folder.path + "/moved.sqlite"
        #expect(rename(library, moved) == 0)
        #expect(try session.fileStatus() == .removed)
        #expect(rename(backup, library) == 0)
        #expect(try session.fileStatus() == .replaced)

        session.close()

        // The old file's last commits were checkpointed into it (by descriptor), not into the new one.
        #expect(try Self.titles(at: moved) == ["One", "Logged"])
        #expect(try Self.titles(at: library) == ["One"])
    }

    @Test func aRemovedFileRefusesCommitsAndLeavesNoLogBehind() throws {
        let folder = try ChildProcess.makeFolder("replaced-rm")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (library, _) = try Self.libraryAndBackup(in: folder, titles: ["One"])
        let session = try LibrarySession.open(path: library)
        #expect(unlink(library) == 0)

        #expect(try session.fileStatus() == .removed)
        let refusal = #expect(throws: DatabaseError.self) { try session.add(Album(title: "Lost", artist: "A")) }
        #expect(refusal?.resultCode == .readOnlyDatabaseMoved)
        let reopening = #expect(throws: LibraryError.self) { _ = try session.reopened() }
        #expect(reopening?.message.contains("is gone") == true, "\(String(describing: reopening))")

        // No new library was made in its place, and its log is not left for one to replay.
        #expect(!FileManager.default.fileExists(atPath: library))
        #expect(!FileManager.default.fileExists(atPath: library + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: library + "-shm"))
    }

    @Test func aBackupCopiedOverTheFileInPlaceIsSeenAsOverwritten() async throws {
        let folder = try ChildProcess.makeFolder("replaced-cp")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (library, backup) = try Self.libraryAndBackup(in: folder, titles: ["One", "Two"])
        let session = try LibrarySession.open(path: library)
        session.history.author = "ada"
        try session.add(Album(title: "After the backup", artist: "A"))
        try session.checkpoint()
        // Another process's commit is a change the session follows, not a write over its file.
        let added = try await AlbumsCLI(database: library)("add", "--title", "By the CLI", "--artist", "B")
        #expect(added.status == 0, "\(added)")
        #expect(try session.fileStatus() == .unchanged)
        try session.checkpoint()
        let identity = FileIdentity(path: library)

        // cp opens the existing file, truncates it and writes the backup's bytes: the same inode.
        let copied = try await ChildProcess.run("/bin/cp", [backup, library])
        #expect(copied.status == 0, "\(copied)")

        #expect(FileIdentity(path: library) == identity, "cp keeps the inode")
        #expect(try session.fileStatus() == .overwritten)
        let reopened = try session.reopened()
        defer { reopened.close() }
        #expect(try reopened.library.albums().map(\.title) == ["One", "Two"])
        #expect(try reopened.fileStatus() == .unchanged)
        // The reopened session records the same author, so "undo mine" still finds ada's changes.
        try reopened.add(Album(title: "After the reopen", artist: "A"))
        #expect(reopened.history.undoRecord?.author == "ada")
        #expect(try reopened.undoMine(author: "ada").text == "Add “After the reopen”")
    }

    /// A library copied together with its log, attributes and all (`cp -a`, a backup tool), opens
    /// with what the log holds: the mark on a log counts only on the log it was written on.
    @Test func aLibraryCopiedWithItsLogOpensWithTheLog() async throws {
        let folder = try ChildProcess.makeFolder("replaced-pair")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (library, _) = try Self.libraryAndBackup(in: folder, titles: ["One"])
        let session = try LibrarySession.open(path: library)
        defer { session.close() }
        try session.add(Album(title: "In the log", artist: "A"))
        let copy = folder.path + "/copy.sqlite"
        for suffix in ["", "-wal"] {
            let copied = try await ChildProcess.run("/bin/cp", ["-a", library + suffix, copy + suffix])
            #expect(copied.status == 0, "\(copied)")
        }
        #expect(try Self.titles(at: copy) == ["One", "In the log"])
    }
}

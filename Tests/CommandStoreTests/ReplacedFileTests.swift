import Foundation
import SQLiteDatabase
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A database file moved over, removed or written over while a connection has it open, at the
/// SQLite layer: what `Database.fileStatus()` says, which commits are refused, what `close()`
/// leaves at the path, and which `-wal` logs an open refuses.
@Suite struct ReplacedFileTests {
    private static func open(_ path: String) throws -> Database {
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        return try Database(path: path, configuration: configuration)
    }

    /// A database with table `t` holding `rows` at `path`, closed and released (so checkpointed).
    private static func make(_ path: String, rows: [String]) throws {
        let db = try open(path)
        try db.execute("CREATE TABLE t (x TEXT)")
        for row in rows { try db.execute("INSERT INTO t VALUES (?)", [row]) }
    }

    private static func rows(_ db: Database) throws -> [String] {
        try db.fetchAll("SELECT x FROM t ORDER BY rowid").map { try $0.decode(String.self, at: 0) }
    }

    @Test func identityFollowsLinksAndTellsFilesApart() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("a")
        try Data("a".utf8).write(to: URL(fileURLWithPath: file))
        try Data("b".utf8).write(to: URL(fileURLWithPath: directory.file("b")))
        try FileManager.default.createSymbolicLink(atPath: directory.file("link"), withDestinationPath: "a")
        #expect(link(file, directory.file("hard")) == 0)
        let identity = try #require(FileIdentity(path: file))
        #expect(FileIdentity(path: directory.file("link")) == identity)
        #expect(FileIdentity(path: directory.file("hard")) == identity)
        #expect(FileIdentity(path: directory.file("b")) != identity)
        #expect(FileIdentity(path: directory.file("missing")) == nil)
    }

    @Test func aFileMovedOverTheDatabaseRefusesEveryCommitAndItsLogIsNeverReadAsTheNewFiles() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("db.sqlite")
        let backup = directory.file("backup.sqlite")
        try Self.make(path, rows: ["kept"])
        try FileManager.default.copyItem(atPath: path, toPath: backup)
        let db = try Self.open(path)
        var userHookCalls = 0
        db.setCommitHook {
            userHookCalls += 1
            return true
        }
        try db.execute("INSERT INTO t VALUES ('in the old log')")
        #expect(try db.fileStatus() == .unchanged)

        #expect(rename(backup, path) == 0)

        #expect(try db.fileStatus() == .replaced)
        // In a transaction and in autocommit: each refused at its commit, nothing written.
        let inTransaction = #expect(throws: DatabaseError.self) {
            try db.inTransaction {
                try db.execute("INSERT INTO t VALUES ('lost')")
                return .commit
            }
        }
        #expect(inTransaction?.resultCode == .readOnlyDatabaseMoved, "\(String(describing: inTransaction))")
        let autocommit = #expect(throws: DatabaseError.self) { try db.execute("INSERT INTO t VALUES ('lost')") }
        #expect(autocommit?.resultCode == .readOnlyDatabaseMoved, "\(String(describing: autocommit))")
        #expect(userHookCalls == 3, "the user's hook still runs, before the file check")
        // Another connection is refused before it reads the old file's log.
        let refusal = #expect(throws: DatabaseError.self) { _ = try Self.open(path) }
        #expect(refusal?.resultCode == .cantOpen)
        #expect(refusal?.message.contains("db.sqlite-wal is the write-ahead log of the file that was at") == true)

        db.close()

        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        let reopened = try Self.open(path)
        defer { reopened.close() }
        #expect(try Self.rows(reopened) == ["kept"])
        #expect(try reopened.fileStatus() == .unchanged)
    }

    /// Opened through a link, the log is beside the file the link names (where SQLite puts it), and
    /// that is where the mark is read and written.
    @Test func aDatabaseOpenedThroughALinkIsWatchedWhereItsLogIs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.file("real"), withIntermediateDirectories: false)
        let target = directory.file("real/db.sqlite")
        let link = directory.file("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try Self.make(target, rows: ["kept"])
        try Self.run("/bin/cp", [target, directory.file("backup.sqlite")])
        let db = try Self.open(link)
        try db.execute("INSERT INTO t VALUES ('in the old log')")
        #expect(FileManager.default.fileExists(atPath: target + "-wal"))

        #expect(rename(directory.file("backup.sqlite"), target) == 0)

        #expect(try db.fileStatus() == .replaced)
        let refusal = #expect(throws: DatabaseError.self) { _ = try Self.open(link) }
        #expect(
            refusal?.message.contains("real/db.sqlite-wal is the write-ahead log") == true,
            "\(String(describing: refusal))")
        db.close()
        #expect(!FileManager.default.fileExists(atPath: target + "-wal"))
        let reopened = try Self.open(link)
        defer { reopened.close() }
        #expect(try Self.rows(reopened) == ["kept"])
    }

    @Test func aRemovedDatabaseRefusesCommitsAndTakesItsLogAlong() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("db.sqlite")
        try Self.make(path, rows: ["a"])
        let db = try Self.open(path)
        #expect(unlink(path) == 0)
        #expect(try db.fileStatus() == .removed)
        #expect(throws: DatabaseError.self) { try db.execute("INSERT INTO t VALUES ('lost')") }
        db.close()
        for suffix in ["", "-wal", "-shm"] { #expect(!FileManager.default.fileExists(atPath: path + suffix)) }
    }

    /// Another program's checkpoint changes the file without a commit this connection counts:
    /// seen as a write over it (reopening is then only unnecessary), as a `cp` over it is.
    @Test func aWriteOverTheFileInPlaceIsSeenAndCommitsAreNot() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("db.sqlite")
        try Self.make(path, rows: ["a"])
        let db = try Self.open(path)
        defer { db.close() }
        let other = try Self.open(path)
        try other.execute("INSERT INTO t VALUES ('b')")
        #expect(try db.fileStatus() == .unchanged, "a commit is not a write over the file")
        try db.execute("INSERT INTO t VALUES ('c')")
        try db.checkpoint()
        #expect(try db.fileStatus() == .unchanged, "nor is this connection's own checkpoint")
        try other.checkpoint()
        #expect(try db.fileStatus() == .unchanged, "a checkpoint with nothing left to copy writes nothing")
        other.close()

        // The same bytes written again, by another process (closing a descriptor of its own would
        // drop this process's locks on the file): only the modification time moves.
        try Self.run("/bin/cp", [path, directory.file("same.sqlite")])
        try Self.run("/bin/cp", [directory.file("same.sqlite"), path])

        #expect(try db.fileStatus() == .overwritten)
    }

    /// A log copied with its database (attributes and all) belongs to the copy: the mark counts
    /// only on the file it was written on.
    @Test func aDatabaseCopiedWithItsLogOpensWithIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("db.sqlite")
        try Self.make(path, rows: ["a"])
        let db = try Self.open(path)
        defer { db.close() }
        try db.execute("INSERT INTO t VALUES ('in the log')")
        let copy = directory.file("copy.sqlite")
        for suffix in ["", "-wal"] { try Self.run("/bin/cp", ["-a", path + suffix, copy + suffix]) }
        let opened = try Self.open(copy)
        defer { opened.close() }
        #expect(try Self.rows(opened) == ["a", "in the log"])
    }

    private static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(executable) \(arguments)")
    }
}

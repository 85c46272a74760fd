import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// Issue 27: a `-wal` log left by a killed process, damaged before some of its commits. SQLite's
/// recovery drops every commit after the damaged frame without a word; `WriteAheadLogScan` counts
/// them before the open, and `openStore` keeps the count on the connection.
@Suite struct WriteAheadLogScanTests {
    /// A database whose last `commits` commits are only in its log, copied with the log and its
    /// index as a killed process leaves them (no process has the copy open).
    struct CrashedCopy {
        let path: String
        /// The 1-based frame number of each commit's first frame, and of its commit frame.
        let commits: [(first: Int, last: Int)]
        let pageSize: Int

        func frameOffset(_ frame: Int) -> Int { 32 + (frame - 1) * (24 + pageSize) }

        /// Flips one bit at `offset` of the log.
        func damageLog(at offset: Int) throws {
            let url = URL(fileURLWithPath: path + "-wal")
            var bytes = try Data(contentsOf: url)
            bytes[offset] ^= 0x10
            try bytes.write(to: url)
        }

        func rows() throws -> Int {
            let db = try Database(path: path)
            defer { db.close() }
            return try db.fetchOne("SELECT count(*) FROM t")!.decode(Int.self, at: 0)
        }
    }

    static func crashedCopy(
        in directory: TemporaryDirectory, commits: Int, restartingAfter restart: Int? = nil
    ) throws -> CrashedCopy {
        let live = directory.file("live.sqlite")
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database(path: live, configuration: configuration)
        try db.execute("CREATE TABLE t (x BLOB)")
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        for number in 0..<commits {
            if number == restart {
                // Backfilled: the next writer starts the log again from its first frame, with new salts.
                try db.execute("PRAGMA wal_checkpoint(RESTART)")
            }
            try db.inTransaction {
                try db.execute("INSERT INTO t VALUES (randomblob(3000))")
                try db.execute("INSERT INTO t VALUES (randomblob(3000))")
                return .commit
            }
        }
        let copy = directory.file("crashed.sqlite")
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: live + suffix, toPath: copy + suffix)
        }
        db.close()
        let log = try Data(contentsOf: URL(fileURLWithPath: copy + "-wal"))
        let pageSize = log[8..<12].reduce(0) { $0 << 8 | Int($1) }
        let salts = log[16..<24]
        var found: [(first: Int, last: Int)] = []
        var first = 1
        var frame = 1
        while 32 + frame * (24 + pageSize) <= log.count {
            let start = 32 + (frame - 1) * (24 + pageSize)
            // Only this generation's frames (a restarted log keeps older ones past its end).
            guard log[start + 8..<start + 16].elementsEqual(salts) else { break }
            if log[start + 4..<start + 8].contains(where: { $0 != 0 }) {
                found.append((first, frame))
                first = frame + 1
            }
            frame += 1
        }
        return CrashedCopy(path: copy, commits: found, pageSize: pageSize)
    }

    @Test func aSoundLogLosesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let copy = try Self.crashedCopy(in: directory, commits: 4)
        #expect(copy.commits.count == 4)
        #expect(WriteAheadLogScan.lostCommits(databaseAt: copy.path) == 0)
        #expect(try copy.rows() == 8)
    }

    /// The count is what SQLite then drops: the commits from the damaged one on.
    @Test(arguments: [0, 1, 3])
    func theCommitsFromTheDamagedOneOnAreCounted(damaged commit: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let copy = try Self.crashedCopy(in: directory, commits: 4)
        // A bit in the page of the commit's first frame.
        try copy.damageLog(at: copy.frameOffset(copy.commits[commit].first) + 24 + 2000)
        #expect(WriteAheadLogScan.lostCommits(databaseAt: copy.path) == 4 - commit)
        #expect(try copy.rows() == 2 * commit)
    }

    @Test func aDamagedLogHeaderLosesEveryCommit() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let copy = try Self.crashedCopy(in: directory, commits: 3)
        try copy.damageLog(at: 12)  // the checkpoint sequence, under the header's checksum
        #expect(WriteAheadLogScan.lostCommits(databaseAt: copy.path) == 3)
        #expect(try copy.rows() == 0)
    }

    /// Frames of the log's previous generation (a restarted log keeps them past its end) are not
    /// commits of this one: they were in the file already.
    @Test func framesOfAnEarlierGenerationAreNotCounted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let copy = try Self.crashedCopy(in: directory, commits: 6, restartingAfter: 5)
        #expect(copy.commits.count == 1)
        #expect(WriteAheadLogScan.lostCommits(databaseAt: copy.path) == 0)
        try copy.damageLog(at: copy.frameOffset(copy.commits[0].first) + 24 + 100)
        #expect(WriteAheadLogScan.lostCommits(databaseAt: copy.path) == 1)
        #expect(try copy.rows() == 10)
    }

    @Test func openStoreKeepsTheCount() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let live = try Database.openStore(path: path, configuration: configuration)
        try live.execute("CREATE TABLE t (x BLOB)")
        try live.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        for _ in 0..<3 { try live.execute("INSERT INTO t VALUES (randomblob(3000))") }
        let copy = directory.file("crashed.sqlite")
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        live.close()
        var log = try Data(contentsOf: URL(fileURLWithPath: copy + "-wal"))
        log[log.count - 100] ^= 1  // the last commit's page
        try log.write(to: URL(fileURLWithPath: copy + "-wal"))
        let db = try Database.openStore(path: copy)
        #expect(db.lostLogCommits == 1)
        #expect(try db.fetchOne("SELECT count(*) FROM t")!.decode(Int.self, at: 0) == 2)
        db.close()
        let again = try Database.openStore(path: copy)
        #expect(again.lostLogCommits == 0)
        again.close()
    }
}

import AlbumLibrary
import Foundation
import SQLiteDatabase

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Start-up against the `sqlite3` shell: does a whole `albums` process cost about what SQLite's
/// own command-line program costs for the same work on the same file?
///
///     swift build -c release --product albums && swift run -c release command-bench startup [--albums N] [--repeat R]
///
/// In one run, interleaved, on a library of the 5 default albums plus N generated ones (default 0):
///
/// 1. `delete_undo`: `albums delete 1` then `albums undo` (two processes) against two `sqlite3`
///    processes on a copy of the file, each running one transaction of the same size: the first
///    deletes the first album, records a history row, updates the history header and empties the
///    import table; the second puts an album back, removes that row and updates the header.
/// 2. `list`: `albums list` against `sqlite3 FILE 'select * from album order by sort_key'`.
///
/// Processes are started with `posix_spawn`, output to /dev/null, and timed from spawn to exit;
/// medians of R runs. Prints `key=value` lines; `*_ratio` divides albums by sqlite3 (target ≤ 2.0).
enum StartupBenchmark {
    static func run(_ arguments: [String]) throws {
        var extra = 0
        var repeats = 21
        var binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("albums").path
        var sqlite = "/usr/bin/sqlite3"
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard index + 1 < arguments.count else { throw BenchmarkError("\(name) needs a value") }
            let value = arguments[index + 1]
            switch name {
            case "--albums": extra = Int(value) ?? -1
            case "--repeat": repeats = Int(value) ?? 0
            case "--binary": binary = value
            case "--sqlite3": sqlite = value
            default: throw BenchmarkError("unknown option \(name) (use --albums N, --repeat R, --binary, --sqlite3)")
            }
            guard extra >= 0, repeats > 0 else { throw BenchmarkError("\(name) needs a whole number") }
            index += 2
        }
        for (tool, path) in [("albums", binary), ("sqlite3", sqlite)]
        where !FileManager.default.isExecutableFile(atPath: path) {
            throw BenchmarkError("no \(tool) executable at \(path)")
        }

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("startup-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("library.sqlite").path
        let copy = folder.appendingPathComponent("copy.sqlite").path
        let session = try LibrarySession.open(path: library)
        try session.library.seedDefaultsIfNeeded()
        if extra > 0 {
            try session.importAlbums(
                (0..<extra).map { Album(title: "Album \($0)", artist: "Artist \($0 % 97)", genre: "Rock", year: 2000) })
        }
        session.close()
        // A copy of the same file, checkpointed, for sqlite3 to change.
        _ = try time(sqlite, [library, "PRAGMA wal_checkpoint(TRUNCATE);"])
        try FileManager.default.copyItem(atPath: library, toPath: copy)

        let deleteSQL = """
            BEGIN IMMEDIATE;
            DELETE FROM album WHERE rowid = (SELECT rowid FROM album ORDER BY sort_key LIMIT 1);
            INSERT INTO commandstore_history_entry (sequence, kind, version, text, action_text, step_id, recorded_at, payload)
                VALUES (1000000, 'albums.delete', 1, 'Delete album', 'Delete album', random(), 0, zeroblob(200));
            UPDATE commandstore_history_header SET count = count + 1, current_index = current_index + 1;
            DELETE FROM import_batch;
            COMMIT;
            """
        let undoSQL = """
            BEGIN IMMEDIATE;
            INSERT INTO album (id, sort_key, title, artist, genre, year, cover, search_text)
                VALUES (lower(hex(randomblob(16))), (SELECT min(sort_key) - 1024 FROM album),
                        'Best of Bowie', 'David Bowie', 'Pop', 1992, NULL, 'best of bowie');
            DELETE FROM commandstore_history_entry WHERE sequence = 1000000;
            UPDATE commandstore_history_header SET count = count - 1, current_index = current_index - 1;
            COMMIT;
            """
        var albumsPair: [Double] = []
        var sqlitePair: [Double] = []
        var albumsList: [Double] = []
        var sqliteList: [Double] = []
        // One warm-up round: page cache, dynamic loader.
        for round in 0...repeats {
            let pair = try time(binary, ["--db", library, "delete", "1"]) + time(binary, ["--db", library, "undo"])
            let shell = try time(sqlite, [copy, deleteSQL]) + time(sqlite, [copy, undoSQL])
            let list = try time(binary, ["--db", library, "list"])
            let select = try time(sqlite, [copy, "select * from album order by sort_key"])
            guard round > 0 else { continue }
            albumsPair.append(pair)
            sqlitePair.append(shell)
            albumsList.append(list)
            sqliteList.append(select)
        }
        let (pair, shell, list, select) = (
            BenchmarkMath.median(albumsPair), BenchmarkMath.median(sqlitePair), BenchmarkMath.median(albumsList),
            BenchmarkMath.median(sqliteList)
        )
        print("albums_count=\(extra + 5)")
        print("delete_undo_albums_ms=\(format(pair * 1000))")
        print("delete_undo_sqlite3_ms=\(format(shell * 1000))")
        print("delete_undo_ratio=\(format(pair / shell))")
        print("list_albums_ms=\(format(list * 1000))")
        print("list_sqlite3_ms=\(format(select * 1000))")
        print("list_ratio=\(format(list / select))")
        // Without its verification marker, a large library is checked in full at every open: the
        // figures would measure the check (a static albums once lost the marker this way).
        let marked = LibraryFile.hasVerificationRecord(at: library)
        print("verification_marker=\(marked ? "kept" : "missing")")
        if !marked && extra > 0 {
            FileHandle.standardError.write(
                Data(
                    "command-bench: albums kept no verification marker on the library: every open checked it in full\n"
                        .utf8))
        }
    }

    /// Spawns the program, waits for it, and returns the wall-clock seconds; fails on a non-zero exit.
    private static func time(_ program: String, _ arguments: [String]) throws -> Double {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = [program] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let clock = ContinuousClock()
        let start = clock.now
        var pid = pid_t()
        let spawned = posix_spawn(&pid, program, &actions, nil, &cArguments, environ)
        guard spawned == 0 else { throw BenchmarkError("cannot start \(program): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let elapsed = clock.now - start
        guard status == 0 else {
            throw BenchmarkError(
                "\(program) \(arguments.prefix(3).joined(separator: " ")) exited with status \(status)")
        }
        return BenchmarkMath.seconds(elapsed)
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.2f", value)
    }
}

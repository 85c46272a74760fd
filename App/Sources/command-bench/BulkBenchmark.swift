import AlbumLibrary
import Foundation
import SQLiteDatabase

/// The bulk suite (issue 26's speed target): `albums delete QUERY --yes` of 11,000 of 100,005
/// albums and its `albums undo`, then `albums edit QUERY --genre Blues --yes` of the same albums
/// and its undo, each a whole process, side by side with `sqlite3` running the equivalent
/// transaction on a copy of the same file; each ≤ 2× sqlite3's.
///
///     swift run -c release --package-path App command-bench bulk [--albums N] [--repeat R] [--binary PATH]
///
/// The library holds the five seed albums and N generated ones (artists "Artist 0".."Artist 99", as
/// `Scripts/bench-query.sh` makes them), so `artist:"artist 7"` names 11 in 100 of them, in runs
/// of ten and single ones. sqlite3's delete copies the rows it deletes into a table (what albums'
/// history row keeps) and deletes them; its undo inserts them back with their sort keys. Both
/// fire the search index's triggers. sqlite3's edit copies the genre and search text of the rows
/// it edits into a table and updates both (the search text's last line is the folded genre); its
/// undo sets them back with one `UPDATE … FROM`. The runs alternate (albums, then sqlite3), R times; the
/// figures are medians. The albums library ends as it started (checked).
enum BulkBenchmark {
    static func run(_ arguments: [String]) throws {
        var count = 100_000
        var repeats = 5
        var binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("albums").path
        var sqlite = "/usr/bin/sqlite3"
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard index + 1 < arguments.count else { throw BenchmarkError("\(name) needs a value") }
            let value = arguments[index + 1]
            switch name {
            case "--albums": count = try positive(value, name)
            case "--repeat": repeats = try positive(value, name)
            case "--binary": binary = value
            case "--sqlite3": sqlite = value
            default:
                throw BenchmarkError(
                    "unknown option \(name) (use --albums N, --repeat R, --binary PATH, --sqlite3 PATH)")
            }
            index += 2
        }
        for tool in [binary, sqlite] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw BenchmarkError("no executable at \(tool)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bulk-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let libraryPath = folder.appendingPathComponent("albums.sqlite").path
        let sqlitePath = folder.appendingPathComponent("sqlite.sqlite").path
        let before: [Album]
        do {
            let session = try LibrarySession.open(path: libraryPath)
            try session.library.seedDefaultsIfNeeded()
            try session.importAlbums(
                (0..<count).map { number in
                    Album(
                        title: "Album \(number)", artist: "Artist \(number % 100)",
                        genre: ["Rock", "Jazz", "Pop"][number % 3], year: 1950 + number % 70)
                })
            before = try session.library.albums()
            try session.checkpoint()
            session.close()
        }
        try FileManager.default.copyItem(atPath: libraryPath, toPath: sqlitePath)
        // The first albums open of a file built elsewhere checks it in full: not part of the figures.
        _ = try AlbumsBenchmark.timeProcess(binary, ["--db", libraryPath, "show", "1"])
        let condition = "instr(lower(artist), 'artist 7') > 0"
        try runSQLite(
            sqlite, sqlitePath,
            "CREATE TABLE saved AS SELECT rowid AS album_rowid, * FROM album WHERE 0;")
        let sqliteDelete = """
            BEGIN;
            INSERT INTO saved SELECT rowid, * FROM album WHERE \(condition);
            DELETE FROM album WHERE rowid IN (SELECT album_rowid FROM saved);
            COMMIT;
            """
        let sqliteUndo = """
            BEGIN;
            INSERT INTO album (rowid, id, sort_key, title, artist, genre, year, cover, search_text)
                SELECT album_rowid, id, sort_key, title, artist, genre, year, cover, search_text FROM saved;
            DELETE FROM saved;
            COMMIT;
            """
        try runSQLite(
            sqlite, sqlitePath,
            "CREATE TABLE saved_edit (album_rowid INTEGER PRIMARY KEY, genre TEXT, search_text TEXT);")
        let sqliteEdit = """
            BEGIN;
            INSERT INTO saved_edit SELECT rowid, genre, search_text FROM album WHERE \(condition);
            UPDATE album SET genre = 'Blues',
                search_text = substr(search_text, 1, length(search_text) - length(genre)) || 'blues'
                WHERE rowid IN (SELECT album_rowid FROM saved_edit);
            COMMIT;
            """
        let sqliteEditUndo = """
            BEGIN;
            UPDATE album SET genre = saved_edit.genre, search_text = saved_edit.search_text
                FROM saved_edit WHERE album.rowid = saved_edit.album_rowid;
            DELETE FROM saved_edit;
            COMMIT;
            """
        let query = "artist:\"artist 7\""
        let deleted = before.filter { $0.artist.lowercased().contains("artist 7") }.count
        print("suite=bulk")
        print("albums=\(before.count)")
        print("deleted=\(deleted)")
        print("repeat=\(repeats)")
        var times: [String: [Double]] = [:]
        for _ in 0..<repeats {
            times["albums_delete", default: []].append(
                try AlbumsBenchmark.timeProcess(binary, ["--db", libraryPath, "delete", query, "--yes"]))
            times["sqlite_delete", default: []].append(try runSQLite(sqlite, sqlitePath, sqliteDelete))
            times["albums_undo", default: []].append(
                try AlbumsBenchmark.timeProcess(binary, ["--db", libraryPath, "undo"]))
            times["sqlite_undo", default: []].append(try runSQLite(sqlite, sqlitePath, sqliteUndo))
        }
        for _ in 0..<repeats {
            times["albums_edit", default: []].append(
                try AlbumsBenchmark.timeProcess(
                    binary, ["--db", libraryPath, "edit", query, "--genre", "Blues", "--yes"]))
            times["sqlite_edit", default: []].append(try runSQLite(sqlite, sqlitePath, sqliteEdit))
            times["albums_edit_undo", default: []].append(
                try AlbumsBenchmark.timeProcess(binary, ["--db", libraryPath, "undo"]))
            times["sqlite_edit_undo", default: []].append(try runSQLite(sqlite, sqlitePath, sqliteEditUndo))
        }
        let session = try LibrarySession.open(path: libraryPath)
        defer { session.close() }
        guard try session.library.albums() == before, session.redoText == "Edit \(deleted) albums" else {
            throw BenchmarkError("check failed: delete, edit and their undos did not leave the library as it was")
        }
        let names = [
            "albums_delete", "sqlite_delete", "albums_undo", "sqlite_undo", "albums_edit", "sqlite_edit",
            "albums_edit_undo", "sqlite_edit_undo",
        ]
        for name in names {
            let values = times[name] ?? []
            print("\(name)_seconds=\(format(BenchmarkMath.median(values)))")
            print("\(name)_runs=\(values.map(format).joined(separator: ","))")
        }
        for step in ["delete", "undo", "edit", "edit_undo"] {
            let ratio =
                BenchmarkMath.median(times["albums_\(step)"] ?? [])
                / BenchmarkMath.median(times["sqlite_\(step)"] ?? [])
            print("\(step)_ratio=\(format(ratio))")
            print("\(step)_ratio_met=\(ratio <= 2)")
        }
        print("ratio_target=2")
    }

    /// Runs `sqlite3 path sql` to completion and returns its wall-clock time in seconds.
    @discardableResult
    private static func runSQLite(_ sqlite: String, _ path: String, _ sql: String) throws -> Double {
        let clock = ContinuousClock()
        var status: Int32 = 0
        let elapsed = try clock.measure {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: sqlite)
            process.arguments = ["-bail", path, sql]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            status = process.terminationStatus
        }
        guard status == 0 else { throw BenchmarkError("sqlite3 \(path) exited with \(status)") }
        return BenchmarkMath.seconds(elapsed)
    }

    private static func positive(_ text: String, _ name: String) throws -> Int {
        guard let value = Int(text), value > 0 else { throw BenchmarkError("\(name) needs a positive whole number") }
        return value
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.4f", value)
    }
}

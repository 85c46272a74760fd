import AlbumLibrary
import CommandStore
import Foundation
import SQLiteDatabase

/// The albums suite: bulk import speed, and whether one command's cost grows with the library.
///
///     swift build -c release --product albums && swift run -c release command-bench albums [--albums N] [--repeat R]
///
/// 1. `import_albums_per_second`: appending N generated albums to a library in one undoable
///    step, in-process (LibrarySession.importAlbums, already validated: staging, move into the
///    library, history record, one transaction).
/// 2. `import_process_albums_per_second`: the same through the `albums import FILE` process
///    (JSON parsing, validation, start-up included).
/// 3. `delete_undo_ratio`: the wall-clock time of `albums delete 1` + `albums undo` (two whole
///    processes) on the N-album library divided by the same on a new 5-album library; the
///    median of R runs each. Target: at most 1.5 (nothing may load or rewrite the whole library).
/// 4. `tui_*` (when tmux is installed): the terminal UI in a tmux pane, on the N-album library
///    and on a new 5-album one (``TerminalUIBenchmark``): launch to first screen, and `d` + `u`
///    in the UI with the middle album current, until the screen shows the undo; medians of R
///    runs. `tui_launch_ratio` and `tui_delete_undo_ratio` divide big by small.
///
/// `--only tui` runs part 4 alone (the N-album library is still imported in-process first).
///
/// Prints `key=value` lines. Needs the `albums` executable built in the same configuration
/// (it is looked up next to `command-bench`, or given with `--binary PATH`).
enum AlbumsBenchmark {
    static func run(_ arguments: [String]) throws {
        var count = 100_000
        var repeats = 5
        var only: String?
        var binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "albums"
        ).path
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard index + 1 < arguments.count else { throw BenchmarkError("\(name) needs a value") }
            let value = arguments[index + 1]
            switch name {
            case "--albums": count = try positive(value, name)
            case "--repeat": repeats = try positive(value, name)
            case "--binary": binary = value
            case "--only":
                guard value == "tui" else { throw BenchmarkError("--only takes tui") }
                only = value
            default:
                throw BenchmarkError("unknown option \(name) (use --albums N, --repeat R, --binary PATH, --only tui)")
            }
            index += 2
        }
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchmarkError(
                "no albums executable at \(binary): build it first (swift build -c release --product albums)")
        }

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("albums-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let albums = (0..<count).map { number in
            Album(
                title: "Album \(number)",
                artist: "Artist \(number % 977)",
                genre: ["Pop", "Rock", "Jazz", "Folk"][number % 4],
                year: 1950 + number % 70,
                coverURL: URL(string: "https://example.com/covers/\(number).jpg")
            )
        }
        print("suite=albums")
        print("albums=\(count)")
        print("repeat=\(repeats)")

        // 1. In-process import into a new library (which starts with the five defaults).
        let bigPath = folder.appendingPathComponent("big.sqlite").path
        do {
            let session = try LibrarySession.open(path: bigPath)
            try session.library.seedDefaultsIfNeeded()
            let clock = ContinuousClock()
            let elapsed = try clock.measure {
                try session.importAlbums(albums)
            }
            print("import_seconds=\(format(BenchmarkMath.seconds(elapsed)))")
            print("import_albums_per_second=\(Int(Double(count) / BenchmarkMath.seconds(elapsed)))")
            guard try session.library.count() == count + 5 else {
                throw BenchmarkError("check failed: the library does not hold \(count + 5) albums after the import")
            }
        }

        if only == "tui" {
            try runTerminalUI(binary: binary, bigPath: bigPath, bigCount: count + 5, folder: folder, repeats: repeats)
            return
        }

        // 2. The same through the albums process, into another new library.
        let file = folder.appendingPathComponent("albums.json")
        try AlbumFile.encode(albums).write(to: file)
        let processPath = folder.appendingPathComponent("process.sqlite").path
        let processElapsed = try timeProcess(binary, ["--db", processPath, "import", file.path])
        print("import_process_seconds=\(format(processElapsed))")
        print("import_process_albums_per_second=\(Int(Double(count) / processElapsed))")

        // 3. delete 1 + undo, whole processes, big library against the 5-album one.
        let smallPath = folder.appendingPathComponent("small.sqlite").path
        _ = try timeProcess(binary, ["--db", smallPath, "list"])
        let bigExport = try output(binary, ["--db", bigPath, "show", "1"])
        var small: [Double] = []
        var big: [Double] = []
        for _ in 0..<repeats {
            small.append(try deleteAndUndo(binary, smallPath))
            big.append(try deleteAndUndo(binary, bigPath))
        }
        guard try output(binary, ["--db", bigPath, "show", "1"]) == bigExport else {
            throw BenchmarkError("check failed: delete 1 + undo did not restore the first album")
        }
        let ratio = BenchmarkMath.median(big) / BenchmarkMath.median(small)
        print("delete_undo_small_seconds=\(format(BenchmarkMath.median(small)))")
        print("delete_undo_big_seconds=\(format(BenchmarkMath.median(big)))")
        print("delete_undo_ratio=\(format(ratio))")
        print("delete_undo_ratio_target=1.5")
        print("delete_undo_ratio_met=\(ratio <= 1.5)")

        try runTerminalUI(binary: binary, bigPath: bigPath, bigCount: count + 5, folder: folder, repeats: repeats)
    }

    /// 4. The terminal UI through tmux, on the big library against a new 5-album one.
    private static func runTerminalUI(
        binary: String,
        bigPath: String,
        bigCount: Int,
        folder: URL,
        repeats: Int
    ) throws {
        guard TerminalUIBenchmark.isAvailable else {
            print("tui_skipped=tmux is not installed")
            return
        }
        // The middle album current: look-ups by position cost the most there.
        do {
            let session = try LibrarySession.open(path: bigPath)
            try session.library.setCurrentAlbumID(try session.library.album(at: bigCount / 2).id)
            session.close()
        }
        let smallPath = folder.appendingPathComponent("tui-small.sqlite").path
        _ = try timeProcess(binary, ["--db", smallPath, "list"])
        let benchmark = TerminalUIBenchmark(binary: binary, repeats: repeats)
        let small = try benchmark.measure(path: smallPath, count: 5)
        let big = try benchmark.measure(path: bigPath, count: bigCount)
        print("tui_launch_small_seconds=\(format(small.launchSeconds))")
        print("tui_launch_big_seconds=\(format(big.launchSeconds))")
        print("tui_launch_ratio=\(format(big.launchSeconds / small.launchSeconds))")
        print("tui_delete_undo_small_seconds=\(format(small.deleteUndoSeconds))")
        print("tui_delete_undo_big_seconds=\(format(big.deleteUndoSeconds))")
        print("tui_delete_undo_ratio=\(format(big.deleteUndoSeconds / small.deleteUndoSeconds))")
        // Following other processes: idle CPU and the delay until the toolbar shows their step.
        for (label, path, count) in [("small", smallPath, 5), ("big", bigPath, bigCount)] {
            let live = try benchmark.measureLive(path: path, count: count, idleSeconds: 10)
            print("tui_idle_cpu_percent_\(label)=\(format(live.idleCPUPercent))")
            print("tui_follow_median_seconds_\(label)=\(format(live.followMedianSeconds))")
            print("tui_follow_max_seconds_\(label)=\(format(live.followMaxSeconds))")
        }
        // The UI's changes went through the history and were all undone.
        let session = try LibrarySession.open(path: bigPath)
        defer { session.close() }
        guard try session.library.count() == bigCount, session.undoText?.hasPrefix("Import") == true else {
            throw BenchmarkError("check failed: delete + undo in the UI did not leave the library as it was")
        }
    }

    private static func positive(_ text: String, _ name: String) throws -> Int {
        guard let value = Int(text), value > 0 else { throw BenchmarkError("\(name) needs a positive whole number") }
        return value
    }

    private static func deleteAndUndo(_ binary: String, _ path: String) throws -> Double {
        try timeProcess(binary, ["--db", path, "delete", "1"]) + timeProcess(binary, ["--db", path, "undo"])
    }

    /// Runs the process to completion and returns its wall-clock time in seconds; fails on a non-zero exit.
    static func timeProcess(_ binary: String, _ arguments: [String]) throws -> Double {
        let clock = ContinuousClock()
        var status: Int32 = 0
        let elapsed = try clock.measure {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            status = process.terminationStatus
        }
        guard status == 0 else {
            throw BenchmarkError("albums \(arguments.joined(separator: " ")) exited with \(status)")
        }
        return BenchmarkMath.seconds(elapsed)
    }

    private static func output(_ binary: String, _ arguments: [String]) throws -> String {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.4f", value)
    }
}

import AlbumLibrary
import Foundation
import SQLiteDatabase

/// The time-travel suite: `albums undo --to 10m` against a single `albums undo`, whole processes, on
/// a library whose history has N steps recorded a minute apart (so "10m" is ten steps back).
///
///     swift build -c release --package-path App && swift run -c release --package-path App command-bench timetravel [--steps N] [--repeat R] [--keep PATH]
///
/// `--keep PATH` builds the library at PATH and leaves it there (to profile a run on it).
///
/// Each round times `undo` (then `redo` to restore it, untimed) and `undo --to 10m` (then `undo --to`
/// the newest step, untimed), alternated; medians of R rounds. Target: the jump at most 2× the undo.
enum TimeTravelBenchmark {
    static func run(_ arguments: [String]) throws {
        var steps = 100_000
        var repeats = 9
        var keep: String?
        var index = 0
        while index + 1 < arguments.count {
            if arguments[index] == "--keep" {
                keep = arguments[index + 1]
                index += 2
                continue
            }
            guard let value = Int(arguments[index + 1]), value > 0 else {
                throw BenchmarkError("\(arguments[index]) needs a positive number")
            }
            switch arguments[index] {
            case "--steps": steps = value
            case "--repeat": repeats = value
            default: throw BenchmarkError("usage: command-bench timetravel [--steps N] [--repeat R]")
            }
            index += 2
        }
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("albums").path
        let folder = NSTemporaryDirectory() + "command-bench-timetravel-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        if let keep { try? FileManager.default.removeItem(atPath: keep) }
        let path = keep ?? folder + "/library.sqlite"

        let clock = ContinuousClock()
        let built = try clock.measure {
            let session = try LibrarySession.open(path: path)
            for step in 0..<steps {
                try session.add(Album(title: "Step \(step)", artist: "Bench"))
            }
            // A minute between steps, the newest now: "10m" names the state ten steps back.
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            try session.database.execute(
                "UPDATE commandstore_history_entry SET recorded_at = ? - (? - node) * 60000", [now, steps])
            session.close()
        }
        var undoTimes: [Double] = []
        var jumpTimes: [Double] = []
        for _ in 0..<repeats {
            undoTimes.append(try AlbumsBenchmark.timeProcess(binary, ["--db", path, "undo"]))
            _ = try AlbumsBenchmark.timeProcess(binary, ["--db", path, "redo"])
            jumpTimes.append(try AlbumsBenchmark.timeProcess(binary, ["--db", path, "undo", "--to", "10m"]))
            _ = try AlbumsBenchmark.timeProcess(binary, ["--db", path, "undo", "--to", String(steps)])
        }
        let undo = undoTimes.sorted()[repeats / 2]
        let jump = jumpTimes.sorted()[repeats / 2]
        print(
            "suite=timetravel steps=\(steps) repeat=\(repeats) build_s=\(String(format: "%.1f", BenchmarkMath.seconds(built)))"
        )
        print("  undo_ms=\(String(format: "%.2f", undo * 1000))")
        print("  undo_to_10m_ms=\(String(format: "%.2f", jump * 1000))")
        print("  ratio=\(String(format: "%.3f", jump / undo)) (target <= 2)")
    }
}

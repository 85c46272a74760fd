import AlbumLibrary
import CommandStore
import Foundation
import SQLiteDatabase

/// The undo-mine suite: an author's edit followed by k adds of another author, then "undo mine"
/// (a selective undo: k later steps checked and rebased over), for k = 1, 100 and 10,000, in one
/// library whose history also holds `--before N` older steps (default 10,000).
///
///     swift run -c release --package-path App command-bench mine [--before N] [--repeat R]
///
/// Each round times `undoMine` (one write transaction) and then undoes its step again, untimed, so
/// the next round finds the same history; medians of R rounds. Target: the cost follows k, not the
/// history's length.
enum UndoMineBenchmark {
    static func run(_ arguments: [String]) throws {
        var before = 10_000
        var repeats = 9
        var index = 0
        while index + 1 < arguments.count {
            guard let value = Int(arguments[index + 1]), value >= 0 else {
                throw BenchmarkError("\(arguments[index]) needs a number")
            }
            switch arguments[index] {
            case "--before": before = value
            case "--repeat": repeats = max(1, value)
            default: throw BenchmarkError("usage: command-bench mine [--before N] [--repeat R]")
            }
            index += 2
        }
        let folder = NSTemporaryDirectory() + "command-bench-mine-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        print("suite=mine before=\(before) repeat=\(repeats)")
        var perStep: [Int: Double] = [:]
        for k in [1, 100, 10_000] {
            let path = folder + "/library-\(k).sqlite"
            let ada = try LibrarySession.open(path: path)
            ada.history.author = "ada"
            let grace = try LibrarySession.open(path: path)
            grace.history.author = "grace"
            try grace.database.inTransaction {
                for step in 0..<before { try grace.add(Album(title: "Old \(step)", artist: "Bench")) }
                return .commit
            }
            try ada.add(Album(title: "Mine", artist: "Ada"), at: 1)
            try ada.edit(.position(1), changes: AlbumChanges(year: 1999))
            try grace.database.inTransaction {
                for step in 0..<k { try grace.add(Album(title: "Later \(step)", artist: "Bench")) }
                return .commit
            }
            let clock = ContinuousClock()
            var times: [Double] = []
            for _ in 0..<repeats {
                let elapsed = try clock.measure { try ada.undoMine(author: "ada") }
                times.append(BenchmarkMath.seconds(elapsed) * 1e6)
                try ada.undo()
            }
            let median = times.sorted()[times.count / 2]
            perStep[k] = median / Double(k)
            print("  undo_mine_after_\(k)_us=\(String(format: "%.1f", median))")
            ada.close()
            grace.close()
        }
        print("  us_per_later_step_at_100=\(String(format: "%.2f", perStep[100] ?? 0))")
        print("  us_per_later_step_at_10000=\(String(format: "%.2f", perStep[10_000] ?? 0))")
    }
}

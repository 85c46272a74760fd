// command-bench: CommandKit's benchmarks. Build in release mode:
//
//     swift run -c release command-bench <suite> [arguments...]
//
// Each suite lives in its own file and prints `key=value` lines (see BENCHMARKS.md).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let suites: [String: ([String]) throws -> Void] = [
    "undo": UndoBenchmark.run,
    "launch": LaunchBenchmark.run,
    "store": StoreBenchmark.run,
    "albums": AlbumsBenchmark.run,
    "startup": StartupBenchmark.run,
    "tree": TreeBenchmark.run,
    "timetravel": TimeTravelBenchmark.run,
    "mine": UndoMineBenchmark.run,
    "bulk": BulkBenchmark.run,
]

#if PostgreSQL
let allSuites = suites.merging(["postgres": PostgreSQLBenchmark.run]) { first, _ in first }
#else
let allSuites = suites
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let suite = allSuites[name] else {
    let names = allSuites.keys.sorted().joined(separator: "|")
    printError("usage: command-bench <\(names)> [arguments...]")
    exit(2)
}
do {
    try suite(Array(arguments.dropFirst()))
} catch {
    printError("command-bench \(name): \(error)")
    exit(1)
}

/// Writes one line to standard error (the C `stderr` global is not concurrency-safe in Swift 6).
func printError(_ message: String) {
    let line = message + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

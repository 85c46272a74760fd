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
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let suite = suites[name] else {
    let names = suites.keys.sorted().joined(separator: "|")
    fputs("usage: command-bench <\(names)> [arguments...]\n", stderr)
    exit(2)
}
do {
    try suite(Array(arguments.dropFirst()))
} catch {
    fputs("command-bench \(name): \(error)\n", stderr)
    exit(1)
}

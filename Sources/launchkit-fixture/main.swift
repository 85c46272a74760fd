// launchkit-fixture: a small app whose launch owns shutdown steps, for LaunchKit's signal tests.
//
// It launches config → database → cache (before ready), metrics → config (its teardown fails), and
// the deferred sync → cache (runs until cancelled) and index → sync (never starts). It prints
// "ready" once the app is ready, then waits for SIGTERM or SIGINT and shuts down gracefully,
// printing each teardown as it runs and the shutdown report.
//
// Arguments, for the tests of what signals do once LaunchKit stops listening:
// - `--rounds N`: run until shutdown N times in a row, each with a new invoker (default 1).
// - `--ignore-interrupt`: ignore SIGINT before the first round, as a parent shell might.
// - `--linger`: after the last round, print "lingering" and stay alive for 30 s, so a later signal
//   can show its action (it should be what it was before LaunchKit listened); exit 2 at the end.

import Foundation
import LaunchKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a line to standard output at once (no buffering: the test reads it while we run).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

struct TearDownFailure: Error, CustomStringConvertible {
    var description: String { "metrics flush failed" }
}

let arguments = CommandLine.arguments.dropFirst()
/// The number after `--rounds`, if any.
func roundsArgument() -> Int? {
    guard let flag = arguments.firstIndex(of: "--rounds"), flag + 1 < arguments.endIndex else { return nil }
    return Int(arguments[flag + 1])
}
let rounds = roundsArgument() ?? 1
if arguments.contains("--ignore-interrupt") { _ = signal(SIGINT, SIG_IGN) }

/// A fresh app for each round: an invoker launches once.
func makeInvoker() -> AppInvoker {
    AppInvoker(maxConcurrency: 4, shutdownDeadline: .seconds(5)) {
        LaunchCommand("config") { _ in
            say("run config")
        } tearDown: { _ in
            say("teardown config")
        }
        LaunchCommand("database", dependsOn: ["config"]) { _ in
            say("run database")
        } tearDown: { _ in
            say("teardown database")
        }
        LaunchCommand("metrics", dependsOn: ["config"], isRequired: false) { _ in
            say("run metrics")
        } tearDown: { _ in
            say("teardown metrics")
            throw TearDownFailure()
        }
        LaunchCommand("cache", dependsOn: ["database"]) { _ in
            say("run cache")
        } tearDown: { _ in
            say("teardown cache")
        }
        LaunchCommand("sync", dependsOn: ["cache"], phase: .deferred) { _ in
            say("run sync")
            try await Task.sleep(for: .seconds(3_600))
        } tearDown: { _ in
            say("teardown sync")
        }
        LaunchCommand("index", dependsOn: ["sync"], phase: .deferred) { _ in
            say("run index")
        } tearDown: { _ in
            say("teardown index")
        }
    }
}

/// Runs one round until a signal shuts it down, printing the report.
func runUntilShutdown(_ invoker: AppInvoker) async {
    do {
        let report = try await invoker.runUntilShutdown(signals: [.terminate, .interrupt])
        say("shutdown by \(report.shutdownSignal.map(String.init(describing:)) ?? "none")")
        for entry in report.tearDowns {
            say("report teardown \(entry.id): \(entry.outcome)")
        }
        for entry in report.entries {
            say("report command \(entry.id): \(entry.outcome)")
        }
        for line in report.table().split(separator: "\n", omittingEmptySubsequences: false) {
            say("table \(line)")
        }
        say("exit")
    } catch {
        say("error \(error)")
        exit(1)
    }
}

for _ in 0..<rounds {
    let invoker = makeInvoker()
    let readiness = Task {
        try await invoker.waitUntilReady(timeout: .seconds(30))
        say("ready")
    }
    await runUntilShutdown(invoker)
    _ = await readiness.result
}
if arguments.contains("--linger") {
    say("lingering")
    try? await Task.sleep(for: .seconds(30))
    say("still alive")
    exit(2)
}

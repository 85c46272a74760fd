// launchkit-fixture: a small app whose launch owns shutdown steps, for LaunchKit's signal tests.
//
// It launches config → database → cache (before ready), metrics → config (its teardown fails), and
// the deferred sync → cache (runs until cancelled) and index → sync (never starts). It prints
// "ready" once the app is ready, then waits for SIGTERM or SIGINT and shuts down gracefully,
// printing each teardown as it runs and the shutdown report.
//
// `--scenario NAME` runs another app instead, for the server tests (ServiceProcessTests):
// - `slow-drain`: services database and http (→ database); http drains for an hour once asked to
//   stop, so only a second signal ends the shutdown.
// - `stuck-teardown`: config → database → cache; cache's teardown ignores cancellation and overruns
//   its 300 ms time limit.
// - `service-dies`: services database and http (→ database); http fails 200 ms after it is ready.
// - `slow-launch`: config, then database, which takes an hour to launch (a signal comes first).
// On a LaunchError the fixture prints "error …" and exits with the error's exitStatus.
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

struct ListenerClosed: Error, CustomStringConvertible {
    var description: String { "listener closed" }
}

let arguments = CommandLine.arguments.dropFirst()
/// The number after `--rounds`, if any.
func roundsArgument() -> Int? {
    guard let flag = arguments.firstIndex(of: "--rounds"), flag + 1 < arguments.endIndex else { return nil }
    return Int(arguments[flag + 1])
}
let rounds = roundsArgument() ?? 1
if arguments.contains("--ignore-interrupt") { _ = signal(SIGINT, SIG_IGN) }

/// The app of a `--scenario`, or `nil` for the default one.
func makeScenario(_ name: String) -> AppInvoker? {
    switch name {
    case "slow-drain":
        return AppInvoker(maxConcurrency: 4, stepTimeLimit: .seconds(3_600)) {
            databaseService()
            LaunchService("http", dependsOn: ["database"]) { _, lifetime in
                lifetime.ready()
                await lifetime.waitForStopRequest()
                say("draining http")
                try await Task.sleep(for: .seconds(3_600))
            }
        }
    case "stuck-teardown":
        return AppInvoker(maxConcurrency: 4, stepTimeLimit: .milliseconds(300)) {
            LaunchCommand("config") { _ in
            } tearDown: { _ in
                say("teardown config")
            }
            LaunchCommand("database", dependsOn: ["config"]) { _ in
            } tearDown: { _ in
                say("teardown database")
            }
            LaunchCommand("cache", dependsOn: ["database"]) { _ in
            } tearDown: { _ in
                say("teardown cache")
                // Ignores cancellation: only the time limit gets the shutdown past it.
                while true { try? await Task.sleep(for: .seconds(1)) }
            }
        }
    case "service-dies":
        return AppInvoker(maxConcurrency: 4) {
            databaseService()
            LaunchService("http", dependsOn: ["database"]) { _, lifetime in
                lifetime.ready()
                try await Task.sleep(for: .milliseconds(200))
                throw ListenerClosed()
            }
        }
    case "slow-launch":
        return AppInvoker(maxConcurrency: 4) {
            LaunchCommand("config") { _ in
                say("run config")
            } tearDown: { _ in
                say("teardown config")
            }
            LaunchCommand("database", dependsOn: ["config"]) { _ in
                say("run database")
                try await Task.sleep(for: .seconds(3_600))
            }
        }
    default:
        return nil
    }
}

/// A database client as a service: ready at once, closes when asked to stop.
func databaseService() -> LaunchService {
    LaunchService("database") { _, lifetime in
        say("run database")
        lifetime.ready()
        await lifetime.waitForStopRequest()
        say("stop database")
    }
}

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
        printReport(report)
        say("exit")
    } catch let error as LaunchError {
        if let report = error.report { printReport(report) }
        say("error \(error)")
        exit(error.exitStatus)
    } catch {
        say("error \(error)")
        exit(1)
    }
}

func printReport(_ report: LaunchReport) {
    say("shutdown by \(report.shutdownSignal.map(String.init(describing:)) ?? "none")")
    if let cause = report.shutdownCause { say("shutdown cause: \(cause)") }
    if let escalation = report.escalation { say("escalated: \(escalation.reason)") }
    for entry in report.tearDowns {
        if entry.kind == .tearDown {
            say("report teardown \(entry.id): \(entry.outcome)")
        } else {
            say("report stop \(entry.id): \(entry.outcome)")
        }
    }
    for entry in report.entries {
        say("report command \(entry.id): \(entry.outcome)")
    }
    for line in report.table().split(separator: "\n", omittingEmptySubsequences: false) {
        say("table \(line)")
    }
}

if let flag = arguments.firstIndex(of: "--scenario"), flag + 1 < arguments.endIndex {
    guard let invoker = makeScenario(arguments[flag + 1]) else {
        say("error unknown scenario '\(arguments[flag + 1])'")
        exit(2)
    }
    let readiness = Task {
        try await invoker.waitUntilReady(timeout: .seconds(30))
        say("ready")
    }
    await runUntilShutdown(invoker)
    _ = await readiness.result
    exit(0)
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

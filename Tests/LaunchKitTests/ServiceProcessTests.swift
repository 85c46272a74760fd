import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `launchkit-fixture --scenario …` (Sources/launchkit-fixture) as a real child process: the
/// server behaviours, with real signals and exit statuses.
///
/// Serialized, like SignalTests: a child spawned by one case could inherit another case's pipe.
@Suite(.serialized) struct ServiceProcessTests {
    @Test func secondSignalCancelsASlowDrainAndTheDatabaseStillStops() async throws {
        try await FixtureChild.running(arguments: ["--scenario", "slow-drain"]) { child in
            try await child.waitFor("ready") { $0.contains("ready\n") }

            // Given a graceful shutdown stuck in http's hour-long drain
            child.send(SIGTERM)
            try await child.waitFor("draining") { $0.contains("draining http\n") }

            // When a second signal arrives
            child.send(SIGINT)

            // Then what is left is cancelled at once, and the database is still stopped
            try await child.expectExited(with: 0)
            let lines = child.lines
            #expect(lines.contains("escalated: second SIGINT"))
            #expect(lines.contains("report stop http: cancelled (escalated)"))
            // cancelled, yet awaited: it stopped before the report was made
            #expect(lines.contains("report stop database: cancelled (escalated)"))
            let stopped = try #require(lines.firstIndex(of: "stop database"))
            #expect(stopped < (lines.firstIndex(of: "escalated: second SIGINT") ?? 0))
            #expect(lines.contains("report command http: cancelled"))
            #expect(lines.contains("shutdown by SIGTERM"))
            #expect(lines.last == "exit")
        }
    }

    @Test func overrunningTeardownStillLetsWhatItDependsOnClose() async throws {
        try await FixtureChild.running(arguments: ["--scenario", "stuck-teardown"]) { child in
            try await child.waitFor("ready") { $0.contains("ready\n") }

            child.send(SIGTERM)

            try await child.expectExited(with: 0)
            let tearDowns = child.lines.filter { $0.hasPrefix("teardown ") }
            #expect(tearDowns == ["teardown cache", "teardown database", "teardown config"])
            #expect(child.lines.contains("report teardown cache: time limit exceeded (0.3 seconds)"))
            #expect(child.lines.contains("report teardown database: succeeded"))
            #expect(child.lines.contains("report teardown config: succeeded"))
            #expect(!child.lines.contains { $0.hasPrefix("escalated") })
        }
    }

    @Test func serviceDyingShutsTheAppDownAndExitsNonZero() async throws {
        try await FixtureChild.running(arguments: ["--scenario", "service-dies"]) { child in

            // No signal: http fails on its own 200 ms after it is ready.
            try await child.expectExited(with: 1)
            let lines = child.lines
            #expect(lines.contains("ready"))
            #expect(lines.contains("shutdown cause: service 'http' failed: listener closed"))
            #expect(lines.contains("report command http: failed: listener closed"))
            #expect(lines.contains("stop database"))
            #expect(lines.contains("report stop database: succeeded"))
            #expect(lines.contains { $0.hasPrefix("error LaunchError.serviceEnded: required service 'http' failed") })
        }
    }

    @Test(arguments: [("SIGTERM", SIGTERM), ("SIGINT", SIGINT)])
    func signalDuringTheLaunchExitsWith128PlusTheSignal(name: String, signal: Int32) async throws {
        try await FixtureChild.running(arguments: ["--scenario", "slow-launch"]) { child in
            try await child.waitFor("database launching") { $0.contains("run database\n") }

            child.send(signal)

            try await child.expectExited(with: 128 + signal)
            let lines = child.lines
            #expect(!lines.contains("ready"))
            #expect(lines.contains("teardown config"))
            #expect(lines.contains("report command database: cancelled"))
            #expect(
                lines.contains(
                    "error LaunchError.interrupted: the launch was interrupted by \(name) before the app was ready"))
        }
    }
}

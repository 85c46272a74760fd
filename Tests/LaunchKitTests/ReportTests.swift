import Foundation
import LaunchKit
import Testing

@Suite struct ReportTests {
    /// A launch whose times are exact: width 1, and each command advances the test clock.
    private func makeTimedLaunch(clock: TestClock) -> AppInvoker {
        func taking(
            _ id: LaunchID, _ milliseconds: Int, dependsOn: [LaunchID] = [], phase: LaunchPhase = .beforeReady
        )
            -> LaunchCommand
        {
            LaunchCommand(id, dependsOn: dependsOn, phase: phase) { _ in clock.advance(by: .milliseconds(milliseconds))
            }
        }
        return AppInvoker(
            commands: [
                taking("config", 10),
                taking("logging", 5),
                taking("database", 20, dependsOn: ["config"]),
                LaunchCommand.onMainActor("window", dependsOn: ["config"]) { _ in clock.advance(by: .milliseconds(7)) },
                taking("sync", 30, dependsOn: ["database"], phase: .deferred),
                LaunchCommand("optional", dependsOn: ["logging"], isRequired: false) { _ in throw Boom() },
                taking("skippedOne", 1, dependsOn: ["optional"]),
            ],
            maxConcurrency: 1,
            clock: clock
        )
    }

    @Test func reportHasExactTimesOutcomesAndCriticalPath() async throws {
        let clock = TestClock()
        let report = try await makeTimedLaunch(clock: clock).run()

        // Width 1, declaration order: config 0–10, logging 10–15, database 15–35, window 35–42,
        // optional 42–42 (fails), then ready at 42; sync 42–72.
        let config = try #require(report["config"])
        #expect(config.startedAt == .zero && config.endedAt == .milliseconds(10))
        let logging = try #require(report["logging"])
        #expect(
            logging.readyAt == .zero && logging.startedAt == .milliseconds(10) && logging.queueTime == .milliseconds(10)
        )
        let database = try #require(report["database"])
        #expect(database.readyAt == .milliseconds(10) && database.startedAt == .milliseconds(15))
        #expect(database.queueTime == .milliseconds(5) && database.runTime == .milliseconds(20))
        let window = try #require(report["window"])
        #expect(window.startedAt == .milliseconds(35) && window.runTime == .milliseconds(7))
        #expect(window.isolation == .mainActor)
        #expect(report["optional"]?.outcome == .failed("boom"))
        #expect(report["skippedOne"]?.outcome == .skipped(.dependencyDidNotSucceed("optional")))
        #expect(report.readyAt == .milliseconds(42))
        let sync = try #require(report["sync"])
        #expect(
            sync.readyAt == .milliseconds(42) && sync.startedAt == .milliseconds(42)
                && sync.endedAt == .milliseconds(72))
        #expect(report.finishedAt == .milliseconds(72))
        #expect(report.mainActorBusyTime == .milliseconds(7))
        // Longest chain: config (10) → database (20) → sync (30).
        #expect(report.criticalPath == ["config", "database", "sync"])
        #expect(report.criticalPathDuration == .milliseconds(60))
        #expect(report.maxConcurrency == 1)
    }

    @Test func tableShowsEveryCommandAndTheSummary() async throws {
        let clock = TestClock()
        let invoker = makeTimedLaunch(clock: clock)
        try await invoker.run()
        await invoker.shutDown()
        let table = try #require(await invoker.report).table()
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

        #expect(lines[0].hasPrefix("command"))
        #expect(lines[0].hasSuffix("end ms"))
        #expect(
            lines[1].split(separator: " ", omittingEmptySubsequences: true) == [
                "config", "before-ready", "concurrent", "ok", "0.00", "0.00", "0.00", "10.00", "10.00",
            ])
        #expect(lines.contains { $0.hasPrefix("window") && $0.contains("main") && $0.contains("7.00") })
        #expect(lines.contains { $0.hasPrefix("optional") && $0.contains("failed (optional)") })
        #expect(lines.contains { $0.hasPrefix("skippedOne") && $0.contains("skipped") && $0.hasSuffix("-") })
        #expect(lines.contains("ready at 42.00 ms · finished at 72.00 ms · width 1 · main actor busy 7.00 ms"))
        #expect(lines.last == "critical path 60.00 ms: config → database → sync")
    }

    @Test func jsonParsesAndCarriesEveryField() async throws {
        let clock = TestClock()
        let report = try await makeTimedLaunch(clock: clock).run()
        let object = try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any]
        let json = try #require(object)
        let commands = try #require(json["commands"] as? [[String: Any]])

        #expect(commands.count == 7)
        #expect(commands[0]["id"] as? String == "config")
        #expect(commands[0]["runMs"] as? Double == 10)
        #expect(commands[0]["outcome"] as? String == "succeeded")
        #expect(commands[2]["queueMs"] as? Double == 5)
        #expect(commands[3]["isolation"] as? String == "mainActor")
        #expect(commands[4]["phase"] as? String == "deferred")
        #expect(commands[5]["outcome"] as? String == "failed")
        #expect(commands[5]["detail"] as? String == "boom")
        #expect(commands[5]["required"] as? Bool == false)
        #expect(commands[6]["outcome"] as? String == "skipped")
        #expect(json["readyMs"] as? Double == 42)
        #expect(json["finishedMs"] as? Double == 72)
        #expect(json["criticalPath"] as? [String] == ["config", "database", "sync"])
        #expect(json["criticalPathMs"] as? Double == 60)
        #expect(json["mainActorBusyMs"] as? Double == 7)
    }

    @Test func chromeTraceHasOneCompleteEventPerCommandThatRan() async throws {
        let clock = TestClock()
        let invoker = makeTimedLaunch(clock: clock)
        try await invoker.run()
        let report = try #require(await invoker.report)
        let object = try JSONSerialization.jsonObject(with: Data(report.chromeTrace().utf8)) as? [String: Any]
        let events = try #require(object?["traceEvents"] as? [[String: Any]])
        let complete = events.filter { $0["ph"] as? String == "X" }

        // Every command that ran (skippedOne did not) has exactly one complete event.
        let ran = report.entries.filter { $0.startedAt != nil }.map(\.id.rawValue)
        #expect(complete.compactMap { $0["name"] as? String }.sorted() == ran.sorted())
        #expect(ran.count == 6)
        for event in complete {
            #expect(event["ts"] is Double || event["ts"] is Int)
            #expect(event["dur"] is Double || event["dur"] is Int)
            #expect(event["pid"] as? Int == 1)
            #expect(event["tid"] is Int)
        }
        let database = try #require(complete.first { $0["name"] as? String == "database" })
        #expect(database["ts"] as? Double == 15_000)
        #expect(database["dur"] as? Double == 20_000)
        let window = try #require(complete.first { $0["name"] as? String == "window" })
        #expect(window["tid"] as? Int == 1)
    }

    @Test func chromeTraceKeepsOverlappingEventsOnSeparateTracks() async throws {
        let gate = Gate()
        let invoker = AppInvoker(
            commands: [
                LaunchCommand("a") { _ in try await gate.wait() },
                LaunchCommand("b") { _ in gate.open() },
            ],
            maxConcurrency: 2
        )
        let report = try await invoker.run()
        let object = try JSONSerialization.jsonObject(with: Data(report.chromeTrace().utf8)) as? [String: Any]
        let events = try #require(object?["traceEvents"] as? [[String: Any]])
        let tracks = events.filter { $0["ph"] as? String == "X" }.compactMap { $0["tid"] as? Int }
        #expect(tracks.count == 2)
        #expect(Set(tracks).count == 2)
    }
}

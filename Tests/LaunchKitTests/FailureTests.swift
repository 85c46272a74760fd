import LaunchKit
import Synchronization
import TestSupport
import Testing

@Suite struct FailureTests {
    @Test func requiredFailureAbortsSkipsAndCancels() async throws {
        let recorder = Recorder()
        let slowStarted = Gate()
        // Given: "bad" fails while "slow" runs beside it; "after" depends on bad, "late" on slow
        let invoker = AppInvoker(
            commands: [
                recording("config", recorder),
                recording("slow", recorder, dependsOn: ["config"]) {
                    slowStarted.open()
                    try await Task.sleep(for: .seconds(3_600))
                },
                recording("bad", recorder, dependsOn: ["config"]) {
                    try await slowStarted.wait()
                    throw Boom()
                },
                recording("after", recorder, dependsOn: ["bad"]),
                recording("late", recorder, dependsOn: ["slow"]),
            ],
            maxConcurrency: 4
        )

        // When it runs
        let error = await #expect(throws: LaunchError.self) { try await invoker.run() }

        // Then the error names the failed command and the skipped ones
        #expect(error?.code == .commandFailed)
        #expect(error?.failedCommand == "bad")
        #expect(error?.skippedCommands == ["after", "late"])
        #expect(error?.underlyingError is Boom)
        #expect(error?.message.contains("'bad' failed: boom") == true)
        // and the running command was cancelled, the others never started
        let report = try #require(error?.report)
        #expect(report["slow"]?.outcome == .cancelled)
        #expect(report["bad"]?.outcome == .failed("boom"))
        #expect(report["after"]?.outcome == .skipped(.launchAborted(by: "bad")))
        #expect(recorder.count(of: "start after") == 0)
        #expect(recorder.count(of: "start late") == 0)
        // and started commands were torn down, in reverse dependency order
        #expect(report.tearDowns.map(\.id) == ["bad", "slow", "config"])
        #expect(
            recorder.all.filter { $0.hasPrefix("teardown") } == ["teardown bad", "teardown slow", "teardown config"])
    }

    @Test func optionalFailureSkipsOnlyItsDependents() async throws {
        let recorder = Recorder()
        let invoker = AppInvoker(commands: [
            recording("analytics", recorder, isRequired: false) { throw Boom() },
            recording("analyticsUser", recorder, dependsOn: ["analytics"]),
            recording("analyticsDeep", recorder, dependsOn: ["analyticsUser"]),
            recording("database", recorder),
            recording("ui", recorder, dependsOn: ["database"]),
        ])

        let report = try await invoker.run()

        #expect(report["analytics"]?.outcome == .failed("boom"))
        #expect(report["analyticsUser"]?.outcome == .skipped(.dependencyDidNotSucceed("analytics")))
        #expect(report["analyticsDeep"]?.outcome == .skipped(.dependencyDidNotSucceed("analytics")))
        #expect(report["database"]?.outcome == .succeeded)
        #expect(report["ui"]?.outcome == .succeeded)
        #expect(report.readyAt != nil)
        #expect(recorder.count(of: "start analyticsUser") == 0)
    }

    @Test func requiredTimeoutAbortsTheLaunch() async throws {
        let recorder = Recorder()
        let invoker = AppInvoker(commands: [
            recording("hang", recorder, timeout: .milliseconds(20)) { try await Task.sleep(for: .seconds(3_600)) },
            recording("next", recorder, dependsOn: ["hang"]),
        ])

        let error = await #expect(throws: LaunchError.self) { try await invoker.run() }

        #expect(error?.code == .commandTimedOut)
        #expect(error?.failedCommand == "hang")
        #expect(error?.skippedCommands == ["next"])
        #expect(error?.report?["hang"]?.outcome == .timedOut(.milliseconds(20)))
    }

    @Test func timeoutHoldsEvenWhenTheCommandIgnoresCancellation() async throws {
        // The command swallows cancellation and keeps going for a while; the launch does not wait.
        let finished = Gate()
        let invoker = AppInvoker(commands: [
            LaunchCommand("stubborn", isRequired: false, timeout: .milliseconds(10)) { _ in
                try? await finished.wait()
            },
            LaunchCommand("other") { _ in },
        ])

        let report = try await invoker.run()

        #expect(report["stubborn"]?.outcome == .timedOut(.milliseconds(10)))
        #expect(report["other"]?.outcome == .succeeded)
        finished.open()
    }

    @Test func timeoutIsMeasuredOnTheInjectedClock() async throws {
        let clock = TestClock()
        let gate = Gate()
        let invoker = AppInvoker(
            commands: [LaunchCommand("wait", isRequired: false, timeout: .seconds(30)) { _ in try await gate.wait() }],
            clock: clock
        )
        let launch = Task { try await invoker.run() }
        // The timer sleeps on the test clock; nothing times out until the clock moves.
        try await eventually { clock.sleeperCount == 1 && gate.waiterCount == 1 }
        clock.advance(by: .seconds(29))
        #expect(await invoker.report?["wait"]?.outcome == .pending)
        clock.advance(by: .seconds(1))
        let report = try await launch.value
        #expect(report["wait"]?.outcome == .timedOut(.seconds(30)))
        #expect(report["wait"]?.runTime == .seconds(30))
    }

    @Test func cancellingTheLaunchCancelsEverythingCleanly() async throws {
        let recorder = Recorder()
        let running = Gate()
        let invoker = AppInvoker(commands: [
            recording("first", recorder),
            recording("long", recorder, dependsOn: ["first"]) {
                running.open()
                try await Task.sleep(for: .seconds(3_600))
            },
            recording("never", recorder, dependsOn: ["long"]),
        ])
        let launch = Task { try await invoker.run() }
        try await running.wait()

        launch.cancel()

        let result = await launch.result
        let error = try #require(result.failure as? LaunchError)
        #expect(error.code == .cancelled)
        #expect(error.skippedCommands == ["never"])
        let report = try #require(error.report)
        #expect(report["long"]?.outcome == .cancelled)
        #expect(report["never"]?.outcome == .skipped(.launchCancelled))
        #expect(recorder.all.filter { $0.hasPrefix("teardown") } == ["teardown long", "teardown first"])
        #expect(recorder.count(of: "start never") == 0)
    }

    @Test func commandThatThrowsCancellationOnItsOwnHasFailed() async throws {
        let invoker = AppInvoker(commands: [LaunchCommand("odd", isRequired: false) { _ in throw CancellationError() }])
        let report = try await invoker.run()
        #expect(report["odd"]?.outcome == .failed("CancellationError()"))
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

@Suite struct DeferredFailureTests {
    @Test func requiredDeferredFailureAbortsAfterReadiness() async throws {
        let recorder = Recorder()
        let invoker = AppInvoker(
            commands: [
                recording("database", recorder),
                recording("sync", recorder, dependsOn: ["database"], phase: .deferred) { throw Boom() },
                recording("index", recorder, dependsOn: ["sync"], phase: .deferred),
            ],
            maxConcurrency: 1
        )

        let error = await #expect(throws: LaunchError.self) { try await invoker.run() }

        // The app had become ready; the deferred failure still aborts what is left.
        try await invoker.waitUntilReady()
        #expect(error?.failedCommand == "sync")
        #expect(error?.skippedCommands == ["index"])
        #expect(error?.report?.readyAt != nil)
        #expect(recorder.all.filter { $0.hasPrefix("teardown") } == ["teardown sync", "teardown database"])
    }

    @Test func deferredCommandOfAFailedOptionalOneIsSkipped() async throws {
        let invoker = AppInvoker(commands: [
            LaunchCommand("analytics", isRequired: false) { _ in throw Boom() },
            LaunchCommand("upload", dependsOn: ["analytics"], phase: .deferred) { _ in },
            LaunchCommand("ui") { _ in },
        ])
        let report = try await invoker.run()
        #expect(report["upload"]?.outcome == .skipped(.dependencyDidNotSucceed("analytics")))
        #expect(report["ui"]?.outcome == .succeeded)
        #expect(report.readyAt != nil)
    }

    @Test func errorCodesMatchInCatchClausesAndDescribeThemselves() async throws {
        let invoker = AppInvoker(commands: [LaunchCommand("a") { _ in throw Boom() }])
        do {
            try await invoker.run()
            Issue.record("expected a failure")
        } catch LaunchError.Code.cycle {
            Issue.record("wrong code matched")
        } catch LaunchError.Code.commandFailed {
            // Expected.
        }
        let error = LaunchError(.waitTimedOut, "still unfinished: 'a'", commands: ["a"])
        #expect(error.description == "LaunchError.waitTimedOut: still unfinished: 'a'")
        #expect(LaunchSignal.terminate.description == "SIGTERM")
        #expect(LaunchSignal.interrupt.description == "SIGINT")
    }
}

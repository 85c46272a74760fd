import LaunchKit
import TestSupport
import Testing

@Suite struct PhaseAndWaitTests {
    @Test func deferredCommandsStartAfterReadinessWithoutBlockingIt() async throws {
        let recorder = Recorder()
        let releaseSync = Gate()
        // Given a deferred command that blocks until released
        let invoker = AppInvoker(commands: [
            recording("sync", recorder, dependsOn: ["database"], phase: .deferred) { try await releaseSync.wait() },
            recording("database", recorder),
            recording("ui", recorder, dependsOn: ["database"]),
        ])

        // When the launch runs
        let launch = Task { try await invoker.run() }

        // Then the app becomes ready while sync is still blocked
        // A generous bound: what is checked is the order, not the time. Under a sanitizer, suites
        // that hold the test pool's two threads (child processes, tmux) have stalled every other
        // test for over 30 s at once.
        try await invoker.waitUntilReady(timeout: .seconds(300))
        #expect(recorder.count(of: "end ui") == 1)
        #expect(recorder.count(of: "end sync") == 0)
        try await eventually { recorder.count(of: "start sync") == 1 }
        releaseSync.open()
        let report = try await launch.value

        // and sync started only after every before-ready command ended
        let events = recorder.all
        #expect(events.firstIndex(of: "start sync")! > events.firstIndex(of: "end ui")!)
        #expect(report["sync"]!.readyAt! >= report.readyAt!)
        #expect(report["sync"]!.startedAt! >= report["ui"]!.endedAt!)
        #expect(report["sync"]?.phase == .deferred)
    }

    @Test func deferredCommandsWaitForReadinessEvenWhenTheirDependenciesAreDone() async throws {
        let recorder = Recorder()
        let releaseSlow = Gate()
        let invoker = AppInvoker(commands: [
            recording("fast", recorder),
            recording("slow", recorder) { try await releaseSlow.wait() },
            recording("warm", recorder, dependsOn: ["fast"], phase: .deferred),
        ])
        let launch = Task { try await invoker.run() }
        try await eventually { recorder.count(of: "end fast") == 1 && releaseSlow.waiterCount == 1 }
        #expect(recorder.count(of: "start warm") == 0)
        releaseSlow.open()
        _ = try await launch.value
        #expect(recorder.position(of: "start warm")! > recorder.position(of: "end slow")!)
    }

    @Test func waitForCompletionReturnsTheOutcome() async throws {
        let invoker = AppInvoker(commands: [
            LaunchCommand("ok") { _ in },
            LaunchCommand("bad", isRequired: false) { _ in throw Boom() },
            LaunchCommand("child", dependsOn: ["bad"]) { _ in },
        ])
        async let outcome = invoker.waitForCompletion(of: "bad")
        try await invoker.run()
        #expect(try await outcome == .failed("boom"))
        #expect(try await invoker.waitForCompletion(of: "ok") == .succeeded)
        #expect(try await invoker.waitForCompletion(of: "child") == .skipped(.dependencyDidNotSucceed("bad")))
        let error = await #expect(throws: LaunchError.self) { try await invoker.waitForCompletion(of: "nope") }
        #expect(error?.code == .unknownCommand)
    }

    @Test func readinessTimeoutNamesTheStragglers() async throws {
        let clock = TestClock()
        let gate = Gate()
        let invoker = AppInvoker(
            commands: [
                LaunchCommand("quick") { _ in },
                LaunchCommand("stuck") { _ in try await gate.wait() },
                LaunchCommand("blocked", dependsOn: ["stuck"]) { _ in },
                LaunchCommand("later", phase: .deferred) { _ in },
            ],
            clock: clock
        )
        let launch = Task { try await invoker.run() }
        try await eventually { gate.waiterCount == 1 }
        let waiting = Task { try await invoker.waitUntilReady(timeout: .seconds(5)) }
        try await eventually { clock.sleeperCount == 1 }

        clock.advance(by: .seconds(5))

        let error = try #require(await waiting.result.failure as? LaunchError)
        #expect(error.code == .waitTimedOut)
        #expect(error.commands == ["stuck", "blocked"])
        #expect(error.message.contains("'stuck', 'blocked'"))
        gate.open()
        _ = try await launch.value
    }

    @Test func commandWaitTimeoutNamesTheCommandAndItsUnfinishedDependencies() async throws {
        let clock = TestClock()
        let gate = Gate()
        let invoker = AppInvoker(
            commands: [
                LaunchCommand("root") { _ in },
                LaunchCommand("stuck", dependsOn: ["root"]) { _ in try await gate.wait() },
                LaunchCommand("target", dependsOn: ["stuck"]) { _ in },
            ],
            clock: clock
        )
        let launch = Task { try await invoker.run() }
        try await eventually { gate.waiterCount == 1 }
        let waiting = Task { try await invoker.waitForCompletion(of: "target", timeout: .seconds(1)) }
        try await eventually { clock.sleeperCount == 1 }

        clock.advance(by: .seconds(1))

        let error = try #require(await waiting.result.failure as? LaunchError)
        #expect(error.code == .waitTimedOut)
        #expect(error.commands == ["stuck", "target"])
        gate.open()
        _ = try await launch.value
    }

    @Test func readinessWaitFailsWhenTheLaunchAborts() async throws {
        let gate = Gate()
        let invoker = AppInvoker(commands: [
            LaunchCommand("bad") { _ in
                try await gate.wait(); throw Boom()
            }
        ])
        let waiting = Task { try await invoker.waitUntilReady() }
        let launch = Task { try await invoker.run() }
        try await eventually { gate.waiterCount == 1 }
        gate.open()
        _ = await launch.result
        let error = try #require(await waiting.result.failure as? LaunchError)
        #expect(error.code == .neverFinished)
    }

    @Test func cancellingAWaitThrowsCancellation() async throws {
        let gate = Gate()
        let invoker = AppInvoker(commands: [LaunchCommand("stuck") { _ in try await gate.wait() }])
        let launch = Task { try await invoker.run() }
        let waiting = Task { try await invoker.waitUntilReady() }
        try await eventually { gate.waiterCount == 1 }
        waiting.cancel()
        #expect(await waiting.result.failure is CancellationError)
        gate.open()
        _ = try await launch.value
    }

    @Test func waitsOnAnInvalidGraphThrowTheValidationError() async throws {
        let invoker = AppInvoker(commands: [LaunchCommand("a", dependsOn: ["b"]) { _ in }])
        let error = await #expect(throws: LaunchError.self) { try await invoker.waitUntilReady() }
        #expect(error?.code == .missingDependency)
    }
}

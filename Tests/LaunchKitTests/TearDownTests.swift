import LaunchKit
import TestSupport
import Testing

@Suite struct TearDownTests {
    @Test func shutDownRunsStepsInReverseDependencyOrderOnlyForStartedCommands() async throws {
        let recorder = Recorder()
        let invoker = AppInvoker(commands: [
            recording("config", recorder),
            recording("database", recorder, dependsOn: ["config"]),
            recording("broken", recorder, isRequired: false) { throw Boom() },
            recording("needsBroken", recorder, dependsOn: ["broken"]),
            recording("cache", recorder, dependsOn: ["database"]),
            LaunchCommand("noStep") { _ in },
        ])
        try await invoker.run()
        #expect(recorder.all.allSatisfy { !$0.hasPrefix("teardown") })

        let entries = await invoker.shutDown()

        // Reverse of the topological order config, database, broken, cache (noStep owns no step;
        // needsBroken never started).
        #expect(entries.map(\.id) == ["cache", "broken", "database", "config"])
        #expect(recorder.all.filter { $0.hasPrefix("teardown") } == entries.map { "teardown \($0.id)" })
        #expect(entries.allSatisfy { $0.outcome == .succeeded })
        #expect(await invoker.report?.tearDowns == entries)
    }

    @Test func failingStepIsReportedAndTheOthersStillRun() async throws {
        let recorder = Recorder()
        let invoker = AppInvoker(commands: [
            recording("first", recorder),
            LaunchCommand("flaky", dependsOn: ["first"]) { _ in
            } tearDown: { _ in
                throw Boom()
            },
            recording("last", recorder, dependsOn: ["flaky"]),
        ])
        try await invoker.run()

        let entries = await invoker.shutDown()

        #expect(entries.map(\.id) == ["last", "flaky", "first"])
        #expect(entries.map(\.outcome) == [.succeeded, .failed("boom"), .succeeded])
        #expect(recorder.all.filter { $0.hasPrefix("teardown") } == ["teardown last", "teardown first"])
    }

    @Test func shutDownTwiceRunsStepsOnce() async throws {
        let recorder = Recorder()
        let invoker = AppInvoker(commands: [recording("only", recorder)])
        try await invoker.run()
        let first = await invoker.shutDown()
        let second = await invoker.shutDown()
        #expect(first == second)
        #expect(recorder.count(of: "teardown only") == 1)
    }

    @Test func shutDownBeforeRunSkipsEverything() async throws {
        let recorder = Recorder()
        let invoker = AppInvoker(commands: [recording("a", recorder)])
        #expect(await invoker.shutDown().isEmpty)
        #expect(await invoker.report?["a"]?.outcome == .skipped(.launchCancelled))
        #expect(try await invoker.waitForCompletion(of: "a") == .skipped(.launchCancelled))
        #expect(recorder.all.isEmpty)
    }

    @Test func shutDownDuringTheLaunchCancelsItAndTearsDownStartedCommands() async throws {
        let recorder = Recorder()
        let running = Gate()
        let invoker = AppInvoker(commands: [
            recording("a", recorder),
            recording("b", recorder, dependsOn: ["a"]) {
                running.open()
                try await Task.sleep(for: .seconds(3_600))
            },
            recording("c", recorder, dependsOn: ["b"]),
        ])
        let launch = Task { try await invoker.run() }
        try await running.wait()

        let entries = await invoker.shutDown()

        #expect(entries.map(\.id) == ["b", "a"])
        let error = try #require(await launch.result.failure as? LaunchError)
        #expect(error.code == .cancelled)
        #expect(error.report?["c"]?.outcome == .skipped(.launchCancelled))
    }

    @Test func stepOverrunningItsTimeLimitStillLetsWhatItDependsOnTearDown() async throws {
        let clock = TestClock()
        let recorder = Recorder()
        let invoker = AppInvoker(
            commands: [
                recording("first", recorder),
                LaunchCommand("stuck", dependsOn: ["first"]) { _ in
                } tearDown: { _ in
                    recorder.record("teardown stuck")
                    try await Task.sleep(for: .seconds(3_600))
                },
                recording("last", recorder, dependsOn: ["stuck"]),
            ],
            shutdownDeadline: .seconds(60),
            stepTimeLimit: .seconds(2),
            clock: clock
        )
        try await invoker.run()
        let shutdown = Task { await invoker.shutDown() }
        // The whole-shutdown deadline and the stuck step's time limit sleep on the clock.
        try await eventually { recorder.count(of: "teardown stuck") == 1 && clock.sleeperCount == 2 }

        clock.advance(by: .seconds(2))

        let entries = await shutdown.value
        #expect(entries.map(\.id) == ["last", "stuck", "first"])
        #expect(entries.map(\.outcome) == [.succeeded, .timeLimitExceeded(.seconds(2)), .succeeded])
        #expect(entries.allSatisfy { $0.kind == .tearDown && $0.timeLimit == .seconds(2) })
        #expect(recorder.count(of: "teardown first") == 1)
        #expect(await invoker.report?.escalation == nil)
    }

    @Test func passingTheShutdownDeadlineEscalatesAndTheRestStillTearsDownCancelled() async throws {
        let clock = TestClock()
        let recorder = Recorder()
        let invoker = AppInvoker(
            commands: [
                LaunchCommand("first") { _ in
                } tearDown: { _ in
                    recorder.record(Task.isCancelled ? "teardown first (cancelled)" : "teardown first")
                },
                LaunchCommand("stuck", dependsOn: ["first"]) { _ in
                } tearDown: { _ in
                    recorder.record("teardown stuck")
                    try await Task.sleep(for: .seconds(3_600))
                },
            ],
            shutdownDeadline: .seconds(3),
            stepTimeLimit: .seconds(10),
            clock: clock
        )
        try await invoker.run()
        let shutdown = Task { await invoker.shutDown() }
        try await eventually { recorder.count(of: "teardown stuck") == 1 && clock.sleeperCount == 2 }

        clock.advance(by: .seconds(3))

        let entries = await shutdown.value
        #expect(entries.map(\.outcome) == [.cancelled, .succeeded])
        #expect(recorder.all.last == "teardown first (cancelled)")
        let report = try #require(await invoker.report)
        #expect(report.escalation?.reason == .deadline)
        #expect(report.escalation?.time == .seconds(3))
    }

    @Test func mainActorStepsRunOnTheMainActor() async throws {
        let recorder = Recorder()
        let invoker = AppInvoker(commands: [
            LaunchCommand.onMainActor("window") { _ in
            } tearDown: { _ in
                MainActor.assertIsolated()
                recorder.record("teardown window")
            }
        ])
        try await invoker.run()
        let entries = await invoker.shutDown()
        #expect(entries.first?.isolation == .mainActor)
        #expect(recorder.all == ["teardown window"])
    }

    @Test func runUntilShutdownReturnsWhenShutDownIsCalled() async throws {
        let recorder = Recorder()
        let invoker = AppInvoker(commands: [recording("server", recorder)])
        let running = Task { try await invoker.runUntilShutdown(signals: []) }
        try await invoker.waitForCompletion(of: "server")
        await invoker.shutDown()
        let report = try await running.value
        #expect(report.tearDowns.map(\.id) == ["server"])
        #expect(report.shutdownSignal == nil)
    }

    @Test func runUntilShutdownShutsDownWhenItsTaskIsCancelled() async throws {
        let recorder = Recorder()
        let invoker = AppInvoker(commands: [recording("server", recorder)])
        let running = Task { try await invoker.runUntilShutdown(signals: []) }
        try await invoker.waitForCompletion(of: "server")
        running.cancel()
        let report = try await running.value
        #expect(report.tearDowns.map(\.outcome) == [.succeeded])
        #expect(recorder.count(of: "teardown server") == 1)
    }

    @Test func runUntilShutdownThrowsValidationErrorsWithoutRunning() async throws {
        let invoker = AppInvoker(commands: [LaunchCommand("a", dependsOn: ["a"]) { _ in }])
        let error = await #expect(throws: LaunchError.self) { try await invoker.runUntilShutdown(signals: []) }
        #expect(error?.code == .cycle)
    }

    @Test func shutDownBeforeRunUntilShutdownMeansNoLaunch() async throws {
        let recorder = Recorder()
        let invoker = AppInvoker(commands: [recording("a", recorder)])
        await invoker.shutDown()
        let report = try await invoker.runUntilShutdown(signals: [])
        #expect(report["a"]?.outcome == .skipped(.launchCancelled))
        #expect(report.tearDowns.isEmpty)
        #expect(recorder.all.isEmpty)
    }
}

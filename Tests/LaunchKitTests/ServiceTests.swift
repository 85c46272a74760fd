import LaunchKit
import Locking
import TestSupport
import Testing

/// A service that records its life and stops when asked.
func recordingService(
    _ id: LaunchID,
    _ recorder: Recorder,
    dependsOn dependencies: [LaunchID] = [],
    isRequired: Bool = true,
    stopTimeLimit: Duration? = nil,
    beforeReady: @escaping @Sendable () async throws -> Void = {},
    whileRunning: (@Sendable (ServiceLifetime) async throws -> Void)? = nil
) -> LaunchService {
    LaunchService(id, dependsOn: dependencies, isRequired: isRequired, stopTimeLimit: stopTimeLimit) { _, lifetime in
        recorder.record("start \(id)")
        try await beforeReady()
        lifetime.ready()
        recorder.record("ready \(id)")
        if let whileRunning {
            try await whileRunning(lifetime)
        } else {
            await lifetime.waitForStopRequest()
        }
        recorder.record("stop \(id)")
    }
}

@Suite struct ServiceTests {
    @Test func dependentsStartWhenAServiceIsReadyAndServicesStopInReverseOrder() async throws {
        let recorder = Recorder()
        let database = Gate()
        let invoker = AppInvoker(commands: [
            recordingService("database", recorder) { try await database.wait() },
            recording("migrations", recorder, dependsOn: ["database"]),
            recordingService("http", recorder, dependsOn: ["migrations"]),
        ])
        let launch = Task { try await invoker.run() }
        try await eventually { recorder.all.contains("start database") }
        #expect(!recorder.all.contains("start migrations"), "a dependent started before readiness")

        database.open()
        let report = try await launch.value

        // run() returns once every service is ready; the services keep running.
        #expect(
            recorder.all == [
                "start database", "ready database", "start migrations", "end migrations",
                "start http", "ready http",
            ])
        #expect(report["database"]?.outcome == .running)
        #expect(report["database"]?.isService == true)
        #expect(report.readyAt != nil)

        let steps = await invoker.shutDown()
        #expect(steps.map { "\($0.kind) \($0.id)" } == ["stop http", "teardown migrations", "stop database"])
        #expect(steps.allSatisfy { $0.outcome == .succeeded })
        #expect(recorder.all.suffix(3) == ["stop http", "teardown migrations", "stop database"])
        let final = try #require(await invoker.report)
        #expect(final["http"]?.outcome == .stopped)
        #expect(final["database"]?.stoppedAt != nil)
    }

    @Test func requiredServiceEndingWhileRunningShutsTheAppDownAndNamesIt() async throws {
        let recorder = Recorder()
        let crash = Gate()
        let invoker = AppInvoker(commands: [
            recordingService("database", recorder),
            recordingService(
                "http", recorder, dependsOn: ["database"],
                whileRunning: { _ in
                    try await crash.wait()
                    throw Boom()
                }),
        ])
        let running = Task { try await invoker.runUntilShutdown(signals: []) }
        try await invoker.waitUntilReady()

        crash.open()

        let error = try #require(await running.result.failure as? LaunchError)
        #expect(error.code == .serviceEnded)
        #expect(error.failedCommand == "http")
        #expect(error.exitStatus == 1)
        // The service's own error, for a caller that words it (albums serve does).
        #expect(error.underlyingError is Boom)
        let report = try #require(error.report)
        #expect(report.shutdownCause == .serviceFailed("http", "boom"))
        #expect(report["http"]?.outcome == .failed("boom"))
        #expect(report["database"]?.outcome == .stopped)
        // The failed service needs no stop; the database is still stopped.
        #expect(report.tearDowns.map { "\($0.kind) \($0.id)" } == ["stop database"])
    }

    @Test func optionalServiceEndingIsOnlyReported() async throws {
        let recorder = Recorder()
        let invoker = AppInvoker(commands: [
            recordingService("http", recorder),
            recordingService("metrics", recorder, isRequired: false, whileRunning: { _ in }),
        ])
        try await invoker.run()
        try await eventually { recorder.all.contains("stop metrics") }
        try await Task.sleep(for: .milliseconds(20))
        let report = try #require(await invoker.report)
        #expect(report.shutdownCause == nil)
        #expect(report["metrics"]?.outcome == .ended)
        #expect(report["http"]?.outcome == .running)
        await invoker.shutDown()
    }

    @Test func serviceThatReturnsBeforeItIsReadyFailsTheLaunch() async throws {
        let invoker = AppInvoker(commands: [
            LaunchService("database") { _, _ in },
            LaunchCommand("migrations", dependsOn: ["database"]) { _ in },
        ])
        let error = await #expect(throws: LaunchError.self) { try await invoker.run() }
        #expect(error?.code == .commandFailed)
        #expect(error?.report?["migrations"]?.outcome == .skipped(.launchAborted(by: "database")))
    }

    @Test func serviceOverrunningItsStopTimeLimitIsCancelledAndTheRestStillStops() async throws {
        let recorder = Recorder()
        let invoker = AppInvoker(
            commands: [
                recordingService("database", recorder),
                recordingService(
                    "http", recorder, dependsOn: ["database"], stopTimeLimit: .milliseconds(50),
                    whileRunning: { _ in
                        // Ignores the stop request; only cancellation ends it.
                        try await Task.sleep(for: .seconds(3_600))
                    }),
            ])
        try await invoker.run()

        let steps = await invoker.shutDown()

        #expect(steps.map(\.outcome) == [.timeLimitExceeded(.milliseconds(50)), .succeeded])
        #expect(recorder.all.last == "stop database")
        #expect(await invoker.report?["http"]?.outcome == .cancelled)
    }

    @Test func escalationCancelsTheSlowDrainAtOnceAndStillStopsTheRest() async throws {
        let recorder = Recorder()
        let draining = Gate()
        let invoker = AppInvoker(
            commands: [
                recordingService("database", recorder),
                recordingService(
                    "http", recorder, dependsOn: ["database"],
                    whileRunning: { lifetime in
                        await lifetime.waitForStopRequest()
                        draining.open()
                        try await Task.sleep(for: .seconds(3_600))  // a slow drain
                    }),
            ], stepTimeLimit: .seconds(3_600))
        try await invoker.run()
        let shutdown = Task { await invoker.shutDown() }
        try await draining.wait()

        await invoker.escalateShutdown()

        let steps = await shutdown.value
        #expect(steps.map(\.outcome) == [.cancelled, .cancelled])
        let report = try #require(await invoker.report)
        #expect(report.escalation?.reason == .requested)
        #expect(report["http"]?.outcome == .cancelled)
    }

    @Test func eventsArriveLiveAndInOrder() async throws {
        let invoker = AppInvoker(commands: [
            LaunchService("database") { _, lifetime in
                lifetime.ready()
                await lifetime.waitForStopRequest()
            },
            LaunchCommand("migrations", dependsOn: ["database"]) { _ in
            } tearDown: { _ in
            },
            LaunchCommand("broken", isRequired: false) { _ in throw Boom() },
            LaunchCommand("needsBroken", dependsOn: ["broken"]) { _ in },
        ])
        let events = invoker.events()
        let collected = Task { await events.reduce(into: [String]()) { $0.append(Self.describe($1)) } }
        try await invoker.run()
        await invoker.shutDown()
        let names = await collected.value

        #expect(names.first == "database started" || names.first == "broken started")
        #expect(names.contains("database ready"))
        #expect(names.contains("database finished running"))
        #expect(names.contains("broken finished failed: boom"))
        #expect(names.contains("needsBroken finished skipped: dependency 'broken' did not succeed"))
        let order = [
            "database ready", "migrations started", "migrations finished succeeded", "app appReady",
            "app shuttingDown", "migrations tearingDown", "migrations tornDown", "database tearingDown",
            "database serviceEnded stopped", "database tornDown", "app shutDown",
        ]
        let positions = order.map { names.firstIndex(of: $0) }
        #expect(positions.allSatisfy { $0 != nil }, "events: \(names)")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "events: \(names)")
        #expect(names.last == "app shutDown")
        // A stream made after the end finishes at once.
        for await _ in invoker.events() { Issue.record("an event after the end") }
    }

    /// Issue 25, G9: a shutdown that interrupted the launch announced `shuttingDown` twice (when it
    /// was requested, and again when the launch stopped); a failed launch announces it once too.
    @Test func anInterruptedOrFailedLaunchAnnouncesItsShutdownOnce() async throws {
        let interrupted = AppInvoker {
            LaunchService("database") { _, lifetime in
                lifetime.ready()
                await lifetime.waitForStopRequest()
            }
            LaunchCommand("slow", dependsOn: ["database"]) { _ in try await Task.sleep(for: .seconds(3_600)) }
        }
        let failed = AppInvoker {
            LaunchCommand("broken") { _ in throw Boom() }
        }
        for (invoker, stop) in [(interrupted, true), (failed, false)] {
            let events = invoker.events()
            let collected = Task { await events.reduce(into: [String]()) { $0.append(Self.describe($1)) } }
            let launch = Task { try await invoker.run() }
            if stop {
                try await invoker.waitForCompletion(of: "database")
                await invoker.shutDown()
            }
            _ = await launch.result
            let names = await collected.value
            #expect(names.filter { $0 == "app shuttingDown" }.count == 1, "events: \(names)")
            #expect(names.last == "app shutDown", "events: \(names)")
        }
    }

    /// Issue 25, G6: a service still connecting when the launch was interrupted was only asked to
    /// stop, which it does not wait for yet, so the shutdown waited its whole stop time limit.
    @Test(.timeLimit(.minutes(1)))
    func aServiceStillStartingIsCancelledAtOnceWhenTheLaunchIsInterrupted() async throws {
        let connecting = LockedState(false)
        let invoker = AppInvoker(stepTimeLimit: .seconds(3_600)) {
            LaunchService("database") { _, lifetime in
                connecting.withLock { $0 = true }
                try await Task.sleep(for: .seconds(3_600))  // connecting; cancellation ends it
                lifetime.ready()
                await lifetime.waitForStopRequest()
            }
        }
        let launch = Task { try await invoker.run() }
        try await eventually { connecting.withLock { $0 } }
        let clock = ContinuousClock()
        let start = clock.now

        let steps = await invoker.shutDown()

        #expect(clock.now - start < .seconds(60), "the shutdown waited for the stop time limit")
        #expect(steps.map { "\($0.kind) \($0.id)" } == ["stop database"])
        #expect(steps.map(\.outcome) == [.cancelled])
        let error = await #expect(throws: LaunchError.self) { try await launch.value }
        #expect(error?.code == .cancelled)
    }

    static func describe(_ event: LaunchEvent) -> String {
        let subject = event.id?.rawValue ?? "app"
        switch event.kind {
        case .finished(let outcome): return "\(subject) finished \(outcome)"
        case .serviceEnded(let outcome): return "\(subject) serviceEnded \(outcome)"
        default: return "\(subject) \(event.name)"
        }
    }
}

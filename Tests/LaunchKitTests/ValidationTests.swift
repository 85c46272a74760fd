import LaunchKit
import Testing

@Suite struct ValidationTests {
    @Test func cycleIsNamedInOrderAndNothingRuns() async throws {
        let recorder = Recorder()
        let invoker = AppInvoker(commands: [
            recording("root", recorder),
            recording("a", recorder, dependsOn: ["root", "c"]),
            recording("b", recorder, dependsOn: ["a"]),
            recording("c", recorder, dependsOn: ["b"]),
        ])

        let error = await #expect(throws: LaunchError.self) { try await invoker.run() }

        #expect(error?.code == .cycle)
        // a depends on c, c on b, b on a.
        #expect(error?.commands == ["a", "c", "b"])
        #expect(error?.message.contains("'a' → 'c' → 'b' → 'a'") == true)
        #expect(recorder.all.isEmpty)
        #expect(throws: LaunchError.self) { try invoker.plan() }
    }

    @Test func selfDependencyIsACycle() async throws {
        let invoker = AppInvoker(commands: [LaunchCommand("loop", dependsOn: ["loop"]) { _ in }])
        let error = await #expect(throws: LaunchError.self) { try await invoker.run() }
        #expect(error?.code == .cycle)
        #expect(error?.commands == ["loop"])
    }

    @Test func missingDependencyIsNamedAndNothingRuns() async throws {
        let recorder = Recorder()
        let invoker = AppInvoker(commands: [
            recording("a", recorder),
            recording("b", recorder, dependsOn: ["a", "ghost"]),
        ])

        let error = await #expect(throws: LaunchError.self) { try await invoker.run() }

        #expect(error?.code == .missingDependency)
        #expect(error?.commands == ["ghost"])
        #expect(error?.message.contains("'b' depends on 'ghost'") == true)
        #expect(recorder.all.isEmpty)
    }

    @Test func duplicateIdentifiersAreRejected() async throws {
        let recorder = Recorder()
        let invoker = AppInvoker(commands: [
            recording("a", recorder), recording("b", recorder), recording("a", recorder),
        ])

        do {
            try await invoker.run()
            Issue.record("expected a duplicate-identifier error")
        } catch LaunchError.Code.duplicateIdentifier {
            // The `catch` pattern matches the code.
        }
        #expect(recorder.all.isEmpty)
    }

    @Test func beforeReadyCommandCannotDependOnDeferredOne() {
        let invoker = AppInvoker(commands: [
            LaunchCommand("later", phase: .deferred) { _ in },
            LaunchCommand("now", dependsOn: ["later"]) { _ in },
        ])
        let error = #expect(throws: LaunchError.self) { try invoker.plan() }
        #expect(error?.code == .phaseInversion)
        #expect(error?.commands == ["now", "later"])
    }

    @Test func planShowsWavesWithoutRunning() throws {
        let recorder = Recorder()
        let invoker = AppInvoker(commands: [
            recording("config", recorder),
            recording("logging", recorder),
            recording("database", recorder, dependsOn: ["config"]),
            recording("migrate", recorder, dependsOn: ["database", "logging"]),
            recording("ui", recorder, dependsOn: ["config"]),
            recording("sync", recorder, dependsOn: ["migrate"], phase: .deferred),
            recording("warm", recorder, phase: .deferred),
            recording("index", recorder, dependsOn: ["sync"], phase: .deferred),
        ])

        let plan = try invoker.plan()

        #expect(plan.beforeReady == [["config", "logging"], ["database", "ui"], ["migrate"]])
        #expect(plan.deferred == [["sync", "warm"], ["index"]])
        #expect(
            plan.description == """
                wave 1: config, logging
                wave 2: database, ui
                wave 3: migrate
                -- ready --
                wave 4: sync, warm (deferred)
                wave 5: index (deferred)
                """)
        #expect(recorder.all.isEmpty)
    }

    @Test func secondRunIsRejected() async throws {
        let invoker = AppInvoker(commands: [LaunchCommand("a") { _ in }])
        try await invoker.run()
        let error = await #expect(throws: LaunchError.self) { try await invoker.run() }
        #expect(error?.code == .alreadyStarted)
    }

    @Test func emptyLaunchIsReadyAtOnce() async throws {
        let invoker = AppInvoker(commands: [])
        let report = try await invoker.run()
        #expect(report.entries.isEmpty)
        #expect(report.readyAt != nil)
        try await invoker.waitUntilReady()
    }
}

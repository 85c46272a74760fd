import CommandKit
import Foundation
import LaunchKit
import Locking
import TestSupport
import Testing

@Suite struct SchedulingTests {
    @Test func diamondRunsEachCommandOnceAfterItsDependencies() async throws {
        let recorder = Recorder()
        // Given a diamond: top → left, right → bottom
        let invoker = AppInvoker(commands: [
            recording("top", recorder),
            recording("left", recorder, dependsOn: ["top"]),
            recording("right", recorder, dependsOn: ["top"]),
            recording("bottom", recorder, dependsOn: ["left", "right"]),
        ])

        // When it runs
        let report = try await invoker.run()

        // Then each ran once, never before its dependencies ended
        for id in ["top", "left", "right", "bottom"] {
            #expect(recorder.count(of: "start \(id)") == 1)
        }
        let events = recorder.all
        func at(_ event: String) -> Int { events.firstIndex(of: event)! }
        #expect(at("end top") < at("start left"))
        #expect(at("end top") < at("start right"))
        #expect(at("end left") < at("start bottom"))
        #expect(at("end right") < at("start bottom"))
        #expect(report.entries.allSatisfy { $0.outcome == .succeeded })
    }

    @Test func independentCommandsRunInParallel() async throws {
        // Both commands wait for each other to have started: they can only finish if run at once.
        let started = LockedState(0)
        let both = Gate()
        func command(_ id: LaunchID) -> LaunchCommand {
            LaunchCommand(id) { _ in
                if started.withLock({
                    $0 += 1; return $0
                }) == 2 {
                    both.open()
                }
                try await both.wait()
            }
        }
        let invoker = AppInvoker(commands: [command("a"), command("b")], maxConcurrency: 2)
        let report = try await invoker.run()
        #expect(report.entries.allSatisfy { $0.outcome == .succeeded })
    }

    @Test(arguments: [1, 2, 3])
    func concurrencyNeverExceedsTheWidth(width: Int) async throws {
        let running = LockedState((now: 0, peak: 0))
        let commands = (0..<12).map { index in
            LaunchCommand(LaunchID("c\(index)")) { _ in
                running.withLock {
                    $0.now += 1; $0.peak = max($0.peak, $0.now)
                }
                try await Task.sleep(for: .milliseconds(2))
                running.withLock { $0.now -= 1 }
            }
        }
        let invoker = AppInvoker(commands: commands, maxConcurrency: width)
        try await invoker.run()
        #expect(running.withLock { $0.peak } <= width)
        #expect(invoker.maxConcurrency == width)
    }

    @Test func tiesBreakInDeclarationOrder() async throws {
        // With width 1 the order is fully determined: ready commands go earliest declared first.
        let recorder = Recorder()
        let invoker = AppInvoker(
            commands: [
                recording("e", recorder, dependsOn: ["a"]),
                recording("d", recorder),
                recording("a", recorder),
                recording("c", recorder, dependsOn: ["d"]),
                recording("b", recorder),
            ],
            maxConcurrency: 1
        )
        try await invoker.run()
        let starts = recorder.all.filter { $0.hasPrefix("start") }
        // Ready at first: d, a, b (declared in that order). d unlocks c, but a was declared earlier;
        // a unlocks e, the earliest declared of all.
        #expect(starts == ["start d", "start a", "start e", "start c", "start b"])
    }

    @Test func randomGraphsRunEachCommandOnceInDependencyOrder() async throws {
        let seed: UInt64 = 0x5EED_1A0C
        var generator = SplitMix64(seed: seed)
        for step in 0..<20 {
            let count = Int.random(in: 1...40, using: &generator)
            var dependencies: [[Int]] = []
            for index in 0..<count {
                let candidates = Array(0..<index).shuffled(using: &generator)
                dependencies.append(Array(candidates.prefix(Int.random(in: 0...3, using: &generator))))
            }
            // Declare in a shuffled order so declaration order and dependency order differ.
            let order = Array(0..<count).shuffled(using: &generator)
            let recorder = Recorder()
            let commands = order.map { index in
                recording(LaunchID("n\(index)"), recorder, dependsOn: dependencies[index].map { LaunchID("n\($0)") })
            }
            let width = Int.random(in: 1...6, using: &generator)
            try await AppInvoker(commands: commands, maxConcurrency: width).run()

            let events = recorder.all
            for index in 0..<count {
                let starts = events.count { $0 == "start n\(index)" }
                #expect(starts == 1, "seed \(seed) step \(step): n\(index) started \(starts) times")
                guard let start = events.firstIndex(of: "start n\(index)") else { continue }
                for dependency in dependencies[index] {
                    let end = events.firstIndex(of: "end n\(dependency)") ?? Int.max
                    #expect(end < start, "seed \(seed) step \(step): n\(index) started before n\(dependency) ended")
                }
            }
        }
    }

    @Test func randomOptionalFailuresSkipExactlyTheirDependents() async throws {
        let seed: UInt64 = 0xFA11_0B7E
        var generator = SplitMix64(seed: seed)
        for step in 0..<20 {
            let count = Int.random(in: 2...30, using: &generator)
            var dependencies: [[Int]] = []
            for index in 0..<count {
                let candidates = Array(0..<index).shuffled(using: &generator)
                dependencies.append(Array(candidates.prefix(Int.random(in: 0...2, using: &generator))))
            }
            let failing = Set((0..<count).filter { _ in Int.random(in: 0..<5, using: &generator) == 0 })
            let recorder = Recorder()
            let commands = (0..<count).map { index in
                recording(
                    LaunchID("n\(index)"), recorder, dependsOn: dependencies[index].map { LaunchID("n\($0)") },
                    isRequired: false
                ) {
                    if failing.contains(index) { throw Boom() }
                }
            }
            let report = try await AppInvoker(commands: commands, maxConcurrency: 3).run()

            // Expected: a command runs if and only if no dependency, direct or not, failed.
            var blocked = Array(repeating: false, count: count)
            for index in 0..<count {
                blocked[index] = dependencies[index].contains { failing.contains($0) || blocked[$0] }
                let outcome = report[LaunchID("n\(index)")]?.outcome
                let context = "seed \(seed) step \(step) n\(index)"
                if blocked[index] {
                    guard case .skipped(.dependencyDidNotSucceed(let cause)) = outcome else {
                        Issue.record("\(context): expected skipped, got \(String(describing: outcome))")
                        continue
                    }
                    #expect(failing.contains(Int(cause.rawValue.dropFirst())!), "\(context): cause \(cause)")
                    #expect(recorder.count(of: "start n\(index)") == 0, "\(context) started")
                } else {
                    #expect(outcome == (failing.contains(index) ? .failed("boom") : .succeeded), "\(context)")
                    #expect(recorder.count(of: "start n\(index)") == 1, "\(context)")
                }
            }
        }
    }

    @Test func mainActorCommandsRunOnTheMainActor() async throws {
        let onMain = LockedState<[String: Bool]>([:])
        struct WindowCommand: AppCommand {
            let onMain: @Sendable (Bool) -> Void
            var isolation: LaunchIsolation { .mainActor }
            @MainActor func execute(in context: LaunchContext) async throws {
                onMain(isMainActor())
            }
        }
        struct PlainCommandOnMain: AppCommand {
            let onMain: @Sendable (Bool) -> Void
            var isolation: LaunchIsolation { .mainActor }
            // Not annotated: the invoker's hop puts it on the main actor.
            func execute(in context: LaunchContext) async throws {
                onMain(isMainActor())
            }
        }
        let invoker = AppInvoker(commands: [
            WindowCommand { value in onMain.withLock { $0["window"] = value } },
            PlainCommandOnMain { value in onMain.withLock { $0["plain"] = value } },
            LaunchCommand.onMainActor("closure") { _ in
                onMain.withLock { $0["closure"] = isMainActor() }
            },
            LaunchCommand("background") { _ in
                let value = isMainActor()
                onMain.withLock { $0["background"] = value }
            },
        ])

        let report = try await invoker.run()

        #expect(onMain.withLock { $0 } == ["window": true, "plain": true, "closure": true, "background": false])
        #expect(report[LaunchID(WindowCommand.self)]?.isolation == .mainActor)
        #expect(report["closure"]?.isolation == .mainActor)
        #expect(report["background"]?.isolation == .concurrent)
    }

    @Test func contextHandsValuesToDependents() async throws {
        final class Database: Sendable {
            let path: String
            init(path: String) { self.path = path }
        }
        let key = LaunchContext.Key<Database>("database")
        let seen = LockedState<String?>(nil)
        let invoker = AppInvoker(options: LaunchOptions()) {
            LaunchCommand("open") { context in context[key] = Database(path: "/tmp/albums.sqlite") }
            LaunchCommand("migrate", dependsOn: ["open"]) { context in
                let database = try context.require(key)
                seen.withLock { $0 = database.path }
            }
        }
        try await invoker.run()
        #expect(seen.withLock { $0 } == "/tmp/albums.sqlite")
        #expect(invoker.context[key]?.path == "/tmp/albums.sqlite")
    }

    @Test func mainActorStorageHandsNonSendableValuesToMainActorDependents() async throws {
        // A connection class that must stay in one isolation domain.
        final class Connection {
            var statements: [String] = []
        }
        let key = LaunchContext.Key<Connection>("connection")
        let invoker = AppInvoker(options: LaunchOptions()) {
            LaunchCommand.onMainActor("open") { context in context[mainActor: key] = Connection() }
            LaunchCommand.onMainActor("migrate", dependsOn: ["open"]) { context in
                try context.require(mainActor: key).statements.append("CREATE TABLE album")
            }
        }
        try await invoker.run()
        let statements = await MainActor.run { invoker.context[mainActor: key]?.statements }
        #expect(statements == ["CREATE TABLE album"])
        let missing = await MainActor.run { () -> LaunchError? in
            do {
                _ = try invoker.context.require(mainActor: LaunchContext.Key<Connection>("other"))
                return nil
            } catch {
                return error as? LaunchError
            }
        }
        #expect(missing?.code == .missingValue)
    }

    @Test func requireNamesAMissingValue() {
        let context = LaunchContext()
        let key = LaunchContext.Key<Int>("answer")
        let error = #expect(throws: LaunchError.self) { try context.require(key) }
        #expect(error?.code == .missingValue)
        #expect(error?.message.contains("'answer'") == true)
        context[key] = 42
        #expect(context[key] == 42)
        // Same name, other type: another key.
        #expect(context[LaunchContext.Key<String>("answer")] == nil)
        context[key] = nil
        #expect(context[key] == nil)
    }

    @Test func optionsCarryArgumentsEnvironmentAndTypedValues() {
        var options = LaunchOptions(arguments: ["albums", "--launch-report"], environment: ["LANG": "C"])
        let retries = LaunchOptions.Key<Int>("retries")
        #expect(options[retries] == nil)
        options[retries] = 3
        #expect(options[retries] == 3)
        #expect(options.contains(flag: "--launch-report"))
        #expect(!options.contains(flag: "albums"))
        #expect(options.environment["LANG"] == "C")
        #expect(LaunchOptions.current.arguments == ProcessInfo.processInfo.arguments)
    }
}

/// Whether the caller runs isolated to the main actor (`#isolation` is the caller's actor).
private func isMainActor(_ isolation: isolated (any Actor)? = #isolation) -> Bool {
    isolation === MainActor.shared
}

import CommandKit
import Foundation
import LaunchKit
import Locking
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `launchkit-fixture` (Sources/launchkit-fixture) and shuts it down with a real signal, then
/// checks what a later signal does once LaunchKit stopped listening.
///
/// Serialized: a child spawned by one case could inherit the other case's pipe and hold it open.
@Suite(.serialized) struct SignalTests {
    @Test(arguments: [("SIGTERM", SIGTERM), ("SIGINT", SIGINT)])
    func signalTearsDownStartedCommandsInReverseDependencyOrder(name: String, signal: Int32) async throws {
        let fixture = try #require(Self.fixtureURL(), "launchkit-fixture not found next to the test bundle")
        let process = Process()
        process.executableURL = fixture
        let output = Pipe()
        process.standardOutput = output
        // Read without ever blocking a thread: the handler collects output as it comes.
        let received = LockedState("")
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            received.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        let exit = ProcessExit()
        try exit.start(process, timeout: FixtureChild.timeout)
        // Killed on the way out if still running; reaped by Foundation, nothing waits here.
        defer { if process.isRunning { _ = kill(process.processIdentifier, SIGKILL) } }

        // Given the app is ready and its deferred "sync" command is running
        try await eventually { received.withLock { $0.contains("ready\n") && $0.contains("run sync\n") } }

        // When the signal arrives
        kill(process.processIdentifier, signal)

        // Then the app shuts down gracefully
        // (its last line is "exit", or "error ..." if the launch failed)
        try await eventually {
            !process.isRunning && received.withLock { $0.hasSuffix("\nexit\n") || $0.contains("\nerror ") }
        }
        output.fileHandleForReading.readabilityHandler = nil
        let text = received.withLock { $0 }
        guard !process.isRunning else {
            Issue.record("the fixture did not exit; output:\n\(text)")
            return
        }
        let all = text.split(separator: "\n").map(String.init)
        #expect(process.terminationStatus == 0, "output:\n\(text)")

        // with the teardowns in reverse dependency order, only for commands that started, the failing
        // one reported and the rest still run, all within the deadline
        let tearDowns = all.filter { $0.hasPrefix("teardown ") }
        #expect(
            tearDowns == [
                "teardown sync", "teardown cache", "teardown metrics", "teardown database", "teardown config",
            ])
        #expect(!all.contains("run index"))
        #expect(all.contains("shutdown by \(name)"))
        #expect(all.contains("report teardown metrics: failed: metrics flush failed"))
        #expect(!all.contains { $0.contains("deadline") || $0.contains("not run") })
        #expect(all.contains("report command sync: cancelled"))
        #expect(all.contains("report command index: skipped: launch cancelled"))
        #expect(all.contains { $0.hasPrefix("table ") && $0.hasSuffix("shut down by \(name)") })
        #expect(all.last == "exit")
    }

    // MARK: Signals once LaunchKit stops listening

    @Test(arguments: [("SIGTERM", SIGTERM), ("SIGINT", SIGINT)])
    func signalAfterShutdownHasItsDefaultActionAgain(name: String, signal: Int32) async throws {
        try await FixtureChild.running(arguments: ["--linger"]) { child in

            // Given the app shut down on a first signal and returned from runUntilShutdown
            try await child.waitFor("ready and sync running") { $0.contains("ready\n") && $0.contains("run sync\n") }
            child.send(signal)
            try await child.waitFor("lingering after shutdown") { $0.contains("\nlingering\n") }
            #expect(child.output.contains("shutdown by \(name)\n"))

            // When the same signal comes again, then its default action kills the process
            child.send(signal)
            try await child.expectKilled(by: signal)
        }
    }

    @Test func signalIgnoredBeforeListeningIsIgnoredAgainAfterShutdown() async throws {
        // The fixture ignores SIGINT before listening for SIGTERM and SIGINT, as under `nohup`.
        try await FixtureChild.running(arguments: ["--ignore-interrupt", "--linger"]) { child in
            try await child.waitFor("ready and sync running") { $0.contains("ready\n") && $0.contains("run sync\n") }
            child.send(SIGTERM)
            try await child.waitFor("lingering after shutdown") { $0.contains("\nlingering\n") }

            // SIGINT goes first: had its default action come back, the process would die of SIGINT.
            child.send(SIGINT)
            child.send(SIGTERM)
            try await child.expectKilled(by: SIGTERM)
        }
    }

    @Test func runUntilShutdownListensAgainAfterAnEarlierShutdown() async throws {
        try await FixtureChild.running(arguments: ["--rounds", "2", "--linger"]) { child in

            // Given a first round shut down by SIGTERM
            try await child.waitFor("round 1 ready") { $0.contains("ready\n") && $0.contains("run sync\n") }
            child.send(SIGTERM)
            try await child.waitFor("round 2 ready") {
                $0.occurrences(of: "\nexit\n") == 1 && $0.occurrences(of: "ready\n") == 2
                    && $0.occurrences(of: "run sync\n") == 2
            }

            // When SIGTERM comes during the second round, then that round shuts down gracefully
            // (the default action must not be back while LaunchKit listens again)
            child.send(SIGTERM)
            try await child.waitFor("lingering after round 2") { $0.contains("\nlingering\n") }
            #expect(child.output.occurrences(of: "shutdown by SIGTERM\n") == 2)

            // and a SIGTERM after the second round kills the process
            child.send(SIGTERM)
            try await child.expectKilled(by: SIGTERM)
        }
    }

    /// In process, with SIGUSR2 (no other test uses it, and nothing sends it): the disposition changes
    /// while a listener runs, stays changed while an overlapping one still runs, and comes back when
    /// the last one returns.
    @Test func overlappingListenersRestoreTheDispositionWhenTheLastOneReturns() async throws {
        let userSignal = LaunchSignal(rawValue: SIGUSR2)
        let before = Self.handlerWord(SIGUSR2)
        let first = AppInvoker(commands: [LaunchCommand("first") { _ in }])
        let second = AppInvoker(commands: [LaunchCommand("second") { _ in }])
        let firstRun = Task { try await first.runUntilShutdown(signals: [userSignal]) }
        // The handlers are installed before the launch starts, so a completed command means listening.
        try await first.waitForCompletion(of: "first")
        #expect(Self.handlerWord(SIGUSR2) != before)
        let secondRun = Task { try await second.runUntilShutdown(signals: [userSignal]) }
        try await second.waitForCompletion(of: "second")

        await first.shutDown()
        _ = try await firstRun.value
        #expect(Self.handlerWord(SIGUSR2) != before, "restored while the second listener still listens")

        await second.shutDown()
        _ = try await secondRun.value
        #expect(Self.handlerWord(SIGUSR2) == before)
    }

    /// The handler field of the signal's current `sigaction` (the first member on glibc, musl and
    /// Darwin), as a number: `SIG_DFL` is 0, `SIG_IGN` 1, a function its address.
    static func handlerWord(_ signal: Int32) -> UInt {
        var action = sigaction()
        _ = sigaction(signal, nil, &action)
        return withUnsafeBytes(of: action) { $0.load(as: UInt.self) }
    }

    /// Finds the fixture binary in the build products directory, wherever the test runner lives.
    static func fixtureURL() -> URL? {
        let name = "launchkit-fixture"
        var directories: [URL] = [
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
        // From Tests/LaunchKitTests/SignalTests.swift up to the package root, then .build/<config>.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        directories += ["debug", "release"].map { root.appendingPathComponent(".build").appendingPathComponent($0) }
        for start in directories {
            var directory = start
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        return nil
    }
}

/// A running `launchkit-fixture` whose output is collected as it comes; killed (SIGKILL) by ``stop()``
/// or at ``timeout``.
final class FixtureChild: Sendable {
    /// How long a fixture may run before it is killed: a case takes well under a second.
    static let timeout = Patience.childProcess

    private let process: Process
    private let pipe: Pipe
    private let received = LockedState("")
    private let exit = ProcessExit()

    init(arguments: [String]) throws {
        let fixture = try #require(SignalTests.fixtureURL(), "launchkit-fixture not found next to the test bundle")
        process = Process()
        process.executableURL = fixture
        process.arguments = arguments
        pipe = Pipe()
        process.standardOutput = pipe
        let received = received
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            received.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try exit.start(process, timeout: Self.timeout)
    }

    /// Everything the child printed so far.
    var output: String { received.withLock { $0 } }

    func send(_ signal: Int32) {
        _ = kill(process.processIdentifier, signal)
    }

    /// Waits (at most ``Patience/condition``) until the output satisfies `condition`; throws with
    /// the output otherwise.
    func waitFor(_ what: String, _ condition: @Sendable (String) -> Bool) async throws {
        let seen = try await poll(every: .milliseconds(10)) { () async throws -> Bool? in
            if condition(output) { return true }
            guard !process.isRunning else { return nil }
            try await Task.sleep(for: .milliseconds(50))  // let the last output arrive
            return condition(output)
        }
        if seen == true { return }
        if seen == false { throw FixtureFailure(description: "exited before \(what); output:\n\(output)") }
        throw FixtureFailure(description: "timed out waiting for \(what); output:\n\(output)")
    }

    /// Expects the child to die of `signal` (waiting at most ``Patience/condition``).
    func expectKilled(by signal: Int32, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = ContinuousClock.now + Patience.condition
        while process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        guard !process.isRunning else {
            Issue.record("still running after signal \(signal); output:\n\(output)", sourceLocation: sourceLocation)
            return
        }
        #expect(process.terminationReason == .uncaughtSignal, "output:\n\(output)", sourceLocation: sourceLocation)
        #expect(process.terminationStatus == signal, "output:\n\(output)", sourceLocation: sourceLocation)
    }

    /// Expects the child to exit normally with `status` (waiting at most ``Patience/condition``:
    /// what "at once" is tested against is an hour-long drain, never seconds).
    func expectExited(with status: Int32, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = ContinuousClock.now + Patience.condition
        while process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        guard !process.isRunning else {
            Issue.record("still running; output:\n\(output)", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(50))  // let the last output arrive
        #expect(process.terminationReason == .exit, "output:\n\(output)", sourceLocation: sourceLocation)
        #expect(process.terminationStatus == status, "output:\n\(output)", sourceLocation: sourceLocation)
    }

    /// The output's lines so far.
    var lines: [String] { output.split(separator: "\n").map(String.init) }

    /// Runs `launchkit-fixture arguments` for `body`, then kills it if it still runs and waits for
    /// its end (without holding a thread), whether `body` returned or threw.
    static func running(arguments: [String], _ body: (FixtureChild) async throws -> Void) async throws {
        let child = try FixtureChild(arguments: arguments)
        do {
            try await body(child)
        } catch {
            await child.stop()
            throw error
        }
        await child.stop()
    }

    /// Kills the child if it still runs, waits for its end (without holding a thread) and stops
    /// reading its output.
    func stop() async {
        if process.isRunning { _ = kill(process.processIdentifier, SIGKILL) }
        await exit.wait()
        pipe.fileHandleForReading.readabilityHandler = nil
    }
}

struct FixtureFailure: Error, CustomStringConvertible {
    let description: String
}

extension String {
    /// How many times `needle` occurs, without overlaps.
    func occurrences(of needle: String) -> Int {
        components(separatedBy: needle).count - 1
    }
}

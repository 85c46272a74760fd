#if ServiceLifecycleIntegration
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `servicegroup-fixture` (a launch in a `ServiceGroup` through `AppInvokerService`) as a real
/// child process and sends it real signals (issue 25, G1–G3): the same shutdown order, escalation
/// and exit statuses as `runUntilShutdown()`.
///
/// Serialized: a child spawned by one case could inherit another case's pipe.
@Suite(.serialized) struct ServiceGroupProcessTests {
    @Test func aSignalStopsTheLaunchInReverseDependencyOrder() async throws {
        // Repeated: the wrong order was a race (40 of 40 runs before the fix).
        for _ in 0..<10 {
            try await GroupChild.running(["--scenario", "ordered"]) { child in
                try await child.waitFor("ready")
                child.send(SIGTERM)
                try await child.expectExited(with: 0)
                let lines = child.lines
                let api = try #require(lines.firstIndex(of: "api stopped"), "\(lines)")
                let upstream = try #require(lines.firstIndex(of: "upstream stopped"), "\(lines)")
                #expect(api < upstream, "\(lines)")
                #expect(lines.contains("step stop api: succeeded") && lines.contains("step stop upstream: succeeded"))
                #expect(
                    lines.firstIndex(of: "step stop api: succeeded")! < lines.firstIndex(
                        of: "step stop upstream: succeeded")!)
                #expect(lines.contains("escalation none"))
            }
        }
    }

    @Test func aSecondSignalEscalatesTheShutdown() async throws {
        try await GroupChild.running(["--scenario", "slow-drain"]) { child in
            try await child.waitFor("ready")
            // Given a shutdown stuck in api's hour-long drain
            child.send(SIGTERM)
            try await child.waitFor("api draining")
            // When a second signal arrives
            child.send(SIGINT)
            // Then the drain is cut short, upstream still stops, and the report says why
            try await child.expectExited(with: 0)
            let lines = child.lines
            #expect(lines.contains("step stop api: cancelled (escalated)"), "\(lines)")
            #expect(lines.contains("upstream stopped"), "\(lines)")
            #expect(lines.contains { $0.hasPrefix("escalation ") && $0 != "escalation none" }, "\(lines)")
        }
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalBeforeReadinessExitsWith128PlusTheSignal(signal: Int32) async throws {
        try await GroupChild.running(["--scenario", "slow-launch"]) { child in
            try await child.waitFor("connecting")
            child.send(signal)
            try await child.expectExited(with: 128 + signal)
            #expect(child.lines.contains("error interrupted"), "\(child.lines)")
            #expect(!child.lines.contains("ready"))
        }
    }
}

/// A running `servicegroup-fixture` whose output is collected as it comes; killed (SIGKILL) when
/// the test is done with it, or at its deadline.
final class GroupChild: Sendable {
    private let process: Process
    private let pipe: Pipe
    /// What the child printed so far (a box: the pipe's handler keeps it).
    private final class Output: Sendable {
        let text = Mutex("")
    }
    private let received = Output()
    private let exit = ProcessExit()

    private init(_ arguments: [String]) throws {
        process = Process()
        process.executableURL = try Self.fixtureURL()
        process.arguments = arguments
        pipe = Pipe()
        process.standardOutput = pipe
        let received = received
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            received.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try exit.start(process, timeout: Patience.childProcess)
    }

    /// The fixture, built next to this test bundle.
    private static func fixtureURL() throws -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("servicegroup-fixture")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        throw GroupChildFailure(description: "servicegroup-fixture not found near \(CommandLine.arguments[0])")
    }

    var lines: [String] { received.text.withLock { $0 }.split(separator: "\n").map(String.init) }

    func send(_ signal: Int32) {
        _ = kill(process.processIdentifier, signal)
    }

    /// Waits (at most ``Patience/condition``) for a line.
    func waitFor(_ line: String) async throws {
        if try await poll(every: .milliseconds(10), { lines.contains(line) ? true : nil }) != nil { return }
        throw GroupChildFailure(description: "timed out waiting for \(line); output: \(lines)")
    }

    /// Expects the child to exit with `status` (waiting at most ``Patience/condition``).
    func expectExited(with status: Int32, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = ContinuousClock.now + Patience.condition
        while process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        guard !process.isRunning else {
            Issue.record("still running; output: \(lines)", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(50))  // let the last output arrive
        #expect(process.terminationReason == .exit, "output: \(lines)", sourceLocation: sourceLocation)
        #expect(process.terminationStatus == status, "output: \(lines)", sourceLocation: sourceLocation)
    }

    /// Runs the fixture for `body`, then kills it if it still runs and waits for its end.
    static func running(_ arguments: [String], _ body: (GroupChild) async throws -> Void) async throws {
        let child = try GroupChild(arguments)
        do {
            try await body(child)
        } catch {
            await child.stop()
            throw error
        }
        await child.stop()
    }

    private func stop() async {
        if process.isRunning { _ = kill(process.processIdentifier, SIGKILL) }
        await exit.wait()
        pipe.fileHandleForReading.readabilityHandler = nil
    }
}

struct GroupChildFailure: Error, CustomStringConvertible {
    let description: String
}
#endif

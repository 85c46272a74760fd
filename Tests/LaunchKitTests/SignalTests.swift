import Foundation
import CommandKit
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `launchkit-fixture` (Sources/launchkit-fixture) and shuts it down with a real signal.
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
        try process.run()
        defer { if process.isRunning { process.terminate() } }

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
        #expect(tearDowns == ["teardown sync", "teardown cache", "teardown metrics", "teardown database", "teardown config"])
        #expect(!all.contains("run index"))
        #expect(all.contains("shutdown by \(name)"))
        #expect(all.contains("report teardown metrics: failed: metrics flush failed"))
        #expect(!all.contains { $0.contains("deadline") || $0.contains("not run") })
        #expect(all.contains("report command sync: cancelled"))
        #expect(all.contains("report command index: skipped: launch cancelled"))
        #expect(all.contains { $0.hasPrefix("table ") && $0.hasSuffix("shut down by \(name)") })
        #expect(all.last == "exit")
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

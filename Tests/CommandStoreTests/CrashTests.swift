import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Real processes, real SIGKILLs: a child runs random history operations on a durable history,
/// acknowledging each one on a pipe after its commit; it is killed at random moments. After every
/// kill a second child reopens the store: it must show exactly the acknowledged operations (or, all
/// or nothing, the one that was in flight), data and history must agree, and undoing everything
/// must return the cells to their initial state.
@Suite struct CrashTests {
    static let seed: UInt64 = 0xC0FF_EE15_600D_CAFE
    static let rounds = 50
    /// How long one child may run before it is killed (a round takes milliseconds).
    static let childTimeout = Patience.childProcess

    /// The crash child, built next to this test bundle.
    static func childURL() throws -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("commandstore-crash-child")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        throw ChildError(message: "commandstore-crash-child not found near \(CommandLine.arguments[0])")
    }

    struct ChildError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Runs `verify` and returns its output lines.
    static func verify(_ path: String, child: URL) async throws -> [String] {
        let process = Process()
        process.executableURL = child
        process.arguments = ["verify", path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let exit = try await ProcessExit.run(process, timeout: Self.childTimeout)
        // A few lines: they fit the pipe's buffer, so the child never waited for us to read them.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        guard !exit.timedOut, process.terminationStatus == 0 else {
            throw ChildError(
                message:
                    "verify failed\(exit.timedOut ? " (killed: timed out)" : ""): \(String(decoding: errorData, as: UTF8.self))"
            )
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The lines written to a pipe, as they arrive, read by a thread of their own: the test waits
    /// for them without holding one of the test pool's threads (a blocked pool starved LaunchKit's
    /// readiness tests under the sanitizers). The stream ends at end of file. The caller keeps the
    /// handle alive until then.
    static func lines(of handle: FileHandle) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let descriptor = handle.fileDescriptor
        Thread {
            var buffer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                buffer.append(contentsOf: chunk[..<count])
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    continuation.yield(String(decoding: buffer[..<newline], as: UTF8.self))
                    buffer.removeSubrange(...newline)
                }
            }
            if !buffer.isEmpty { continuation.yield(String(decoding: buffer, as: UTF8.self)) }
            continuation.finish()
        }.start()
        return stream
    }

    // About 5 s alone; the limit leaves room for a sanitizer build on a loaded machine.
    @Test(.timeLimit(.minutes(20)))
    func killedChildrenLoseNothingAcknowledgedAndLeaveNoHalfOperation() async throws {
        print("CrashTests seed: \(Self.seed) (\(Self.rounds) rounds)")
        let child = try Self.childURL()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var generator = SplitMix64(seed: Self.seed)
        var totalAcknowledged = 0
        var inFlightCommitted = 0
        for round in 0..<Self.rounds {
            let roundSeed = generator.next()
            let full = round % 2 == 1
            // fsync per commit makes FULL rounds slower: stop them sooner.
            let killAfter = Int(generator.next() % (full ? 60 : 400))
            let delay = useconds_t(generator.next() % 2000)
            let path = directory.file("round-\(round).sqlite")
            let context =
                "seed \(Self.seed), round \(round) (child seed \(roundSeed), \(full ? "FULL" : "NORMAL"), "
                + "kill after ack \(killAfter) + \(delay) µs)"

            // Run the child and kill it after `killAfter` acknowledgements plus a random delay.
            let process = Process()
            process.executableURL = child
            process.arguments = ["run", path, String(roundSeed), full ? "full" : "normal"]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            let exit = ProcessExit()
            let lines = Self.lines(of: output.fileHandleForReading)
            // A hung child is killed at the deadline: its output ends, and so does the loop below.
            try exit.start(process, timeout: Self.childTimeout)
            var intents: [Int: String] = [:]
            var acknowledged = 0
            var killed = false
            func take(_ line: String) {
                let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
                if parts.first == "intent", parts.count == 3, let n = Int(parts[1]) { intents[n] = parts[2] }
                if parts.first == "ack", parts.count == 2, let n = Int(parts[1]) { acknowledged = n }
            }
            for await line in lines {
                take(line)
                if !killed, line == "ready" && killAfter == 0 || line == "ack \(killAfter)" {
                    try await Task.sleep(for: .microseconds(delay))
                    kill(process.processIdentifier, SIGKILL)
                    killed = true
                }
            }
            if !killed {
                // The output ended (the child died, or a bug here): never leave the child running.
                kill(process.processIdentifier, SIGKILL)
                let deadline = exit.timedOut ? " (killed at the deadline)" : ""
                Issue.record("\(context): the child's output ended before acknowledgement \(killAfter)\(deadline)")
            }
            await exit.wait()
            withExtendedLifetime(output) {}
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            try #require(
                process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL,
                "\(context): the child was not killed but exited (\(process.terminationStatus)): \(stderr)"
            )

            // Reopen in a new process and compare with what was acknowledged.
            let verified = try await Self.verify(path, child: child)
            try #require(verified.count == 3, "\(context): verify printed \(verified)")
            let state = String(verified[0].dropFirst("state ".count))
            let initial = "0 0 0 " + Array(repeating: "0", count: 8).joined(separator: ",") + " - -"
            let acknowledgedState = acknowledged == 0 ? initial : intents[acknowledged]
            let inFlightState = intents[acknowledged + 1]
            #expect(
                state == acknowledgedState || state == inFlightState,
                Comment(
                    rawValue: "\(context): reopened state \(state); acknowledged \(acknowledged) → "
                        + "\(acknowledgedState ?? "?"), in flight → \(inFlightState ?? "none")")
            )
            if state != acknowledgedState { inFlightCommitted += 1 }
            // Data and history agree: undoing every step restores the initial cells, and jumping
            // back restores the reopened ones.
            #expect(verified[1] == "undone 0,0,0,0,0,0,0,0", "\(context): \(verified[1])")
            let digest = state.split(separator: " ")[3]
            #expect(verified[2] == "restored \(digest)", "\(context): \(verified[2]) vs \(digest)")
            totalAcknowledged += acknowledged
        }
        print(
            "CrashTests: \(Self.rounds) kills, \(totalAcknowledged) acknowledged operations, "
                + "\(inFlightCommitted) in-flight operations found committed")
        #expect(totalAcknowledged >= 1000, "the workload should run thousands of operations")
    }
}

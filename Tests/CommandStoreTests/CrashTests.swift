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

    /// Reads a pipe line by line.
    struct LineReader {
        let descriptor: Int32
        var buffer: [UInt8] = []
        var isAtEnd = false

        /// The next line, or `nil` at end of file.
        mutating func next() -> String? {
            while true {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    return line
                }
                if isAtEnd { return nil }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 {
                    isAtEnd = true
                } else {
                    buffer.append(contentsOf: chunk[..<count])
                }
            }
        }
    }

    /// Runs `verify` and returns its output lines.
    static func verify(_ path: String, child: URL) throws -> [String] {
        let process = Process()
        process.executableURL = child
        process.arguments = ["verify", path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ChildError(message: "verify failed: \(String(decoding: errorData, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test(.timeLimit(.minutes(1)))
    func killedChildrenLoseNothingAcknowledgedAndLeaveNoHalfOperation() throws {
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
            try process.run()
            var reader = LineReader(descriptor: output.fileHandleForReading.fileDescriptor)
            var intents: [Int: String] = [:]
            var acknowledged = 0
            var killed = false
            func take(_ line: String) {
                let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
                if parts.first == "intent", parts.count == 3, let n = Int(parts[1]) { intents[n] = parts[2] }
                if parts.first == "ack", parts.count == 2, let n = Int(parts[1]) { acknowledged = n }
            }
            while let line = reader.next() {
                take(line)
                if !killed, line == "ready" && killAfter == 0 || line == "ack \(killAfter)" {
                    usleep(delay)
                    kill(process.processIdentifier, SIGKILL)
                    killed = true
                }
            }
            process.waitUntilExit()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            try #require(
                process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL,
                "\(context): the child was not killed but exited (\(process.terminationStatus)): \(stderr)"
            )

            // Reopen in a new process and compare with what was acknowledged.
            let lines = try Self.verify(path, child: child)
            try #require(lines.count == 3, "\(context): verify printed \(lines)")
            let state = String(lines[0].dropFirst("state ".count))
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
            #expect(lines[1] == "undone 0,0,0,0,0,0,0,0", "\(context): \(lines[1])")
            let digest = state.split(separator: " ")[3]
            #expect(lines[2] == "restored \(digest)", "\(context): \(lines[2]) vs \(digest)")
            totalAcknowledged += acknowledged
        }
        print(
            "CrashTests: \(Self.rounds) kills, \(totalAcknowledged) acknowledged operations, "
                + "\(inFlightCommitted) in-flight operations found committed")
        #expect(totalAcknowledged >= 1000, "the workload should run thousands of operations")
    }
}

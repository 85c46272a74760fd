#if PostgreSQL
import CommandStore
import Foundation
import PostgreSQLCommandStore
import PostgreSQLDatabase
import PostgreSQLTestSupport
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Real processes, real SIGKILLs: a child pushes and undoes on a PostgreSQL history, printing each
/// call once it returned, and is killed at a random moment. The history must then hold every
/// acknowledged call, and of the one in flight all or nothing: the lines are the steps done.
@Suite(
    .enabled(if: PostgreSQLTestServer.isEnabled, "COMMANDKIT_POSTGRES_URL names no server (Scripts/postgres.sh start)"))
struct CrashTests {
    static let seed: UInt64 = 0xC0FF_EE28_DEAD_BEEF
    static let rounds = 12

    static func childURL() throws -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("postgresql-crash-child")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        throw PostgreSQLError(.invalidValue, "postgresql-crash-child not found near \(CommandLine.arguments[0])")
    }

    @Test func aKilledClientLosesNothingAcknowledgedAndLeavesNoHalfStep() async throws {
        print("CrashTests seed: \(Self.seed) (\(Self.rounds) rounds)")
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        _ = try Client(database)  // the tables, before the first child
        var random = SplitMix64(seed: Self.seed)
        let child = try Self.childURL()
        for round in 0..<Self.rounds {
            let acknowledgedBeforeKill = Int(random.next() % 40) + 1
            let roundSeed = random.next() % 1_000_000
            let context =
                "seed \(Self.seed), round \(round) (child seed \(roundSeed), kill after \(acknowledgedBeforeKill))"
            let before = try Client(database)
            let start = try before.history.records()
            let process = Process()
            process.executableURL = child
            process.arguments = [database.url, String(roundSeed)]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            let exit = ProcessExit()
            try exit.start(process, timeout: Patience.childProcess)
            // Read acknowledgements until enough arrived, then kill mid-run.
            var received = Data()
            while received.split(separator: UInt8(ascii: "\n")).count < acknowledgedBeforeKill {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                received += chunk
            }
            kill(process.processIdentifier, SIGKILL)
            await exit.wait()
            received += output.fileHandleForReading.readDataToEndOfFile()
            let acks = String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(acks.count >= acknowledgedBeforeKill, "\(context): the child stopped early")

            // The model: the steps done before, then each acknowledged call.
            var done = Array(start.records.prefix(start.index).map { String($0.text.dropFirst("Add ".count)) })
            var pushedNext = 0
            for ack in acks {
                if ack == "undo" {
                    #expect(!done.isEmpty, "\(context): the child undid with nothing done")
                    done = Array(done.dropLast())
                } else {
                    done.append(String(ack.dropFirst("push ".count)))
                    pushedNext += 1
                }
            }
            let after = try Client(database)
            let records = try after.history.records()
            let lines = try after.lines.lines()
            let now = Array(records.records.prefix(records.index).map { String($0.text.dropFirst("Add ".count)) })
            // All or nothing of the call in flight: nothing, its push, or its undo.
            let inFlightPush = done + ["s\(roundSeed)-\(pushedNext)"]
            let inFlightUndo = Array(done.dropLast())
            #expect(
                now == done || now == inFlightPush || now == inFlightUndo,
                "\(context): history \(now), acknowledged \(done)")
            #expect(lines == now, "\(context): lines \(lines) but the history has \(now) done")
        }
    }
}
#endif

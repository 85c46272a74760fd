// Crash-test helper for PostgreSQLCommandStoreTests: pushes and undoes on a PostgreSQL history
// until it is SIGKILLed, printing each call on stdout once it returned (its commit acknowledged).
//
// Usage: postgresql-crash-child URL SEED
#if PostgreSQL
import CommandStore
import Foundation
import PostgreSQLCommandStore
import PostgreSQLDatabase

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The receiver: lines in a table (the tests' `Lines`, without the failure switches).
final class Lines {
    let connection: PostgreSQLConnection
    init(connection: PostgreSQLConnection) { self.connection = connection }
}

/// The tests' `AddLine`: the same kind and payload.
struct AddLine: PersistentCommand {
    static let kind = "test.line"
    var line: String
    var significant = true
    var text: String { "Add \(line)" }
    var actionText: String { "Add Line" }

    func redo(on lines: Lines) throws {
        try lines.connection.execute("INSERT INTO line (value) VALUES ($1)", [line])
    }

    func undo(on lines: Lines) throws {
        try lines.connection.execute("DELETE FROM line WHERE position = (SELECT max(position) FROM line)")
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let seed = UInt64(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: postgresql-crash-child URL SEED\n".utf8))
    exit(2)
}
do {
    let connection = try PostgreSQLConnection(connectingTo: arguments[1])
    var registry = CommandRegistry<Lines>()
    registry.register(AddLine.self)
    let history = try PostgreSQLHistory(
        connection: connection, receiver: Lines(connection: connection), registry: registry)
    var state = seed
    var next = 0
    while true {
        // SplitMix64, as the tests' generator.
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let line: String
        if z % 4 == 0, history.canUndo {
            try history.undo()
            line = "undo"
        } else {
            let value = "s\(seed)-\(next)"
            next += 1
            try history.push(AddLine(line: value))
            line = "push \(value)"
        }
        // Written after the call returned: an acknowledged step, unbuffered.
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
} catch {
    FileHandle.standardError.write(Data("postgresql-crash-child: \(error)\n".utf8))
    exit(1)
}
#else
import Foundation

FileHandle.standardError.write(Data("postgresql-crash-child: built without the PostgreSQL trait\n".utf8))
exit(2)
#endif

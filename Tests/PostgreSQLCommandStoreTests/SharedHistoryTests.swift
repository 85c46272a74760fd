#if PostgreSQL
import CommandKit
import CommandStore
import Foundation
@testable import PostgreSQLCommandStore
import PostgreSQLDatabase
import PostgreSQLTestSupport
import Synchronization
import Testing

/// One history, several clients (each its own connection, as on different machines): expected
/// records refuse stale steps, concurrent writers lose and duplicate nothing, a failed step takes
/// the receiver's writes with it, a killed session loses nothing acknowledged, and a listening
/// client hears of commits.
@Suite(
    .enabled(if: PostgreSQLTestServer.isEnabled, "COMMANDKIT_POSTGRES_URL names no server (Scripts/postgres.sh start)"))
struct SharedHistoryTests {
    @Test func twoClientsInterleaveAndStaleExpectationsAreRefused() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        let ada = try Client(database, author: "ada")
        let grace = try Client(database, author: "grace")
        try ada.history.push(PostgreSQLLine(line: "a1"))
        let shownToGrace = try #require(grace.history.undoRecord)
        #expect(shownToGrace.author == "ada" && grace.history.count == 1)
        try ada.history.push(PostgreSQLLine(line: "a2"))
        // Grace's view showed a1: undoing "that step" now would undo a2. Refused, nothing done.
        let refused = #expect(throws: StoreError.self) {
            try grace.history.undo(steps: 1, expecting: shownToGrace.id)
        }
        #expect(refused?.code == .historyChanged && refused?.undoErrorCode == .historyChanged)
        #expect(try ada.lines.lines() == ["a1", "a2"])
        // Refreshed by the refusal's reread: the step shown now is a2, and it is undone.
        let current = try #require(grace.history.undoRecord)
        #expect(current.author == "ada" && current.id != shownToGrace.id)
        let undone = try grace.history.undo(steps: 1, expecting: current.id)
        #expect(undone.map(\.text) == ["Add a2"])
        #expect(try ada.lines.lines() == ["a1"] && ada.history.index == 1 && ada.history.redoText == "Add Line")
        // Ada pushes over the redo step grace left: grace's redo expectation is stale.
        let redoShownToGrace = try #require(grace.history.redoRecord)
        try ada.history.push(PostgreSQLLine(line: "a3"))
        #expect(throws: StoreError.self) { try grace.history.redo(steps: 1, expecting: redoShownToGrace.id) }
        #expect(try grace.lines.lines() == ["a1", "a3"])
        let records = try grace.history.records()
        #expect(records.records.map(\.text) == ["Add a1", "Add a3"] && records.index == 2)
        #expect(records.records.map(\.author) == ["ada", "ada"])
    }

    /// Four clients push and undo at once; under serializable isolation a writer that waited for the
    /// header's lock fails (its snapshot predates the wait) and runs again. No step is lost or doubled.
    @Test(arguments: [PostgreSQLConnection.Isolation.serializable, .readCommitted])
    func concurrentWritersLoseAndDuplicateNothing(isolation: PostgreSQLConnection.Isolation) throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        _ = try Client(database)  // creates the tables before the writers race to
        let writers = 4
        let pushes = 25
        let outcome = Mutex<(pushed: [String], undone: [String], attempts: Int, calls: Int, errors: [String])>(
            ([], [], 0, 0, []))
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            do {
                let client = try Client(database, author: "w\(writer)", isolation: isolation)
                var pushed: [String] = []
                var undone: [String] = []
                var calls = 0
                for step in 0..<pushes {
                    let line = "w\(writer)-\(step)"
                    try client.history.push(PostgreSQLLine(line: line))
                    pushed.append(line)
                    calls += 1
                    // Every third step, undo the step on top, whoever pushed it: its record says which.
                    if step % 3 == 2 {
                        calls += 1
                        if let record = try client.history.undo(steps: 1).first {
                            undone.append(String(record.text.dropFirst("Add ".count)))
                        }
                    }
                }
                let attempts = client.history.transactionAttempts
                outcome.withLock {
                    $0.pushed += pushed
                    $0.undone += undone
                    $0.attempts += attempts
                    $0.calls += calls
                }
            } catch {
                outcome.withLock { $0.errors.append("writer \(writer): \(error)") }
            }
        }
        let result = outcome.withLock { $0 }
        #expect(result.errors.isEmpty, "\(result.errors)")
        let reader = try Client(database)
        let lines = try reader.lines.lines()
        let records = try reader.history.records()
        func line(_ record: HistoryRecord) -> String { String(record.text.dropFirst("Add ".count)) }
        // Every push recorded once, every undo took one step off (a later push dropped it as the
        // redo tail, in this linear history), and the data is what the history says is done.
        let done = records.records.prefix(records.index).map(line)
        #expect(result.pushed.count == writers * pushes && Set(result.undone).count == result.undone.count)
        #expect(records.index == result.pushed.count - result.undone.count)
        #expect(Set(done) == Set(result.pushed).subtracting(result.undone) && done.count == Set(done).count)
        #expect(Set(records.records.dropFirst(records.index).map(line)).isSubset(of: Set(result.undone)))
        #expect(lines == done)
        print("concurrent writers (\(isolation)): \(result.calls) calls, \(result.attempts - result.calls) retries")
        // Retries depend on the writers overlapping (78 of 132 calls in a run on a quiet machine,
        // none on a loaded one): printed, not expected, so the test is not timed.
    }

    @Test func aFailedStepRollsTheReceiversWritesBack() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        let client = try Client(database)
        try client.history.push(PostgreSQLLine(line: "kept"))
        let revision = client.history.revision
        // The command writes its line, then throws: the line goes with the call.
        client.lines.failCountdown = 1
        #expect(throws: PostgreSQLLines.Failure.self) { try client.history.push(PostgreSQLLine(line: "lost")) }
        #expect(
            try client.lines.lines() == ["kept"] && client.history.count == 1 && client.history.revision == revision)
        // An undo whose command throws after deleting: the line is back, the step still done.
        client.lines.failCountdown = 1
        #expect(throws: PostgreSQLLines.Failure.self) { try client.history.undo() }
        #expect(try client.lines.lines() == ["kept"] && client.history.index == 1)
        // A macro whose second child fails: the child alone is rolled back, the macro goes on.
        try client.history.beginMacro("Both")
        try client.history.push(PostgreSQLLine(line: "first"))
        client.lines.failCountdown = 1
        #expect(throws: PostgreSQLLines.Failure.self) { try client.history.push(PostgreSQLLine(line: "second")) }
        try client.history.push(PostgreSQLLine(line: "third"))
        try client.history.endMacro()
        #expect(try client.lines.lines() == ["kept", "first", "third"] && client.history.undoText == "Both")
        try client.history.undo()
        #expect(try client.lines.lines() == ["kept"])
    }

    @Test func aMacroIsInvisibleToOthersUntilItEnds() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        let ada = try Client(database)
        let grace = try Client(database)
        try ada.history.beginMacro("Pair")
        try ada.history.push(PostgreSQLLine(line: "one"))
        #expect(try grace.history.count == 0 && grace.lines.lines().isEmpty)
        try ada.history.push(PostgreSQLLine(line: "two"))
        try ada.history.endMacro()
        #expect(grace.history.count == 1 && grace.history.undoText == "Pair")
        #expect(try grace.lines.lines() == ["one", "two"])
    }

    /// The server ends the session mid-command: the call fails with one line, nothing of it stays,
    /// every acknowledged step does, and the next call connects again.
    @Test func aKilledSessionLosesNothingAcknowledged() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        let client = try Client(database)
        let admin = try database.connect()
        for line in ["a", "b"] { try client.history.push(PostgreSQLLine(line: line)) }
        let victim = client.history.connection.serverProcessID
        client.lines.hook = { _ in
            client.lines.hook = nil
            _ = try admin.query("SELECT pg_terminate_backend($1)", [Int(victim)])
        }
        let error = #expect(throws: PostgreSQLError.self) { try client.history.push(PostgreSQLLine(line: "c")) }
        #expect(error?.code == .connectionLost)
        #expect(error.map { !$0.message.contains("\n") } == true)
        // Reconnected by the next call: the acknowledged steps are there, the interrupted one is not.
        #expect(client.history.connection.serverProcessID != victim)
        #expect(try client.lines.lines() == ["a", "b"] && client.history.count == 2)
        try client.history.push(PostgreSQLLine(line: "d"))
        try client.history.undo()
        #expect(try client.lines.lines() == ["a", "b"] && client.history.redoText == "Add Line")
        // Killed while idle: the next call fails or reconnects, and never loses a step.
        _ = try admin.query("SELECT pg_terminate_backend($1)", [Int(client.history.connection.serverProcessID)])
        do {
            try client.history.redo()
        } catch let lost as PostgreSQLError {
            #expect(lost.code == .connectionLost)
            try client.history.redo()
        }
        #expect(try client.lines.lines() == ["a", "b", "d"] && client.history.index == 3)
    }

    /// A listening client hears another's commit, and its state follows; its own commits wake nothing.
    @Test func aListeningClientIsToldOfCommits() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        let ada = try Client(database)
        let grace = try Client(database)
        var events: [UndoChange] = []
        grace.history.addChangeHandler { events.append($0) }
        try grace.history.startListening()
        #expect(try grace.history.waitForChanges(upTo: .zero) == false)
        try ada.history.push(PostgreSQLLine(line: "hello"))
        let start = ContinuousClock.now
        #expect(try grace.history.waitForChanges(upTo: .seconds(10)))
        let latency = ContinuousClock.now - start
        print("notification latency: \(latency)")
        #expect(latency < .seconds(5))
        #expect(events.last?.operation == .reload && events.last?.new.undoText == "Add Line")
        // Grace's own push notifies her session too: the revision says it is hers, nothing rereads.
        try grace.history.push(PostgreSQLLine(line: "mine"))
        events.removeAll()
        #expect(try grace.history.waitForChanges(upTo: .milliseconds(200)) == false)
        #expect(events.isEmpty)
    }
}
#endif

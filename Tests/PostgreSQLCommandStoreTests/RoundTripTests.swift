#if PostgreSQL
import CommandKit
import CommandStore
@testable import PostgreSQLCommandStore
import PostgreSQLDatabase
import PostgreSQLTestSupport
import Testing

/// What a call costs in round trips, and what the history's pipelined writes do when they fail:
/// a push, an undo and a redo whose command sends one statement take three (BEGIN with the
/// header's lock; the command's statement; the history's writes with COMMIT); a write that fails
/// in the commit's pipeline is reported as it was, and a serialization failure there runs the
/// whole call again.
@Suite(
    .enabled(if: PostgreSQLTestServer.isEnabled, "COMMANDKIT_POSTGRES_URL names no server (Scripts/postgres.sh start)"))
struct RoundTripTests {
    @Test func aPushAnUndoAndARedoTakeThreeRoundTripsEach() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        let client = try Client(database)
        let history = client.history
        let connection = history.connection
        try history.push(PostgreSQLLine(line: "first"))
        for line in ["a", "b"] {
            #expect(try connection.countingRoundTrips { try history.push(PostgreSQLLine(line: line)) } == 3)
        }
        #expect(try connection.countingRoundTrips { try history.undo() } == 3)
        #expect(try connection.countingRoundTrips { try history.undo() } == 3)
        #expect(try connection.countingRoundTrips { try history.redo() } == 3)
        #expect(try client.lines.lines() == ["first", "a"])
        // A push over a redo step removes it in the same round trips (the DELETE goes with the writes).
        #expect(try connection.countingRoundTrips { try history.push(PostgreSQLLine(line: "c")) } == 3)
        // A macro: BEGIN with the lock; per child its savepoint, its statement, and its release;
        // at the end the macro's entry, the header, the NOTIFY and COMMIT.
        #expect(try connection.countingRoundTrips { try history.beginMacro("Pair") } == 1)
        #expect(try connection.countingRoundTrips { try history.push(PostgreSQLLine(line: "d")) } == 3)
        #expect(try connection.countingRoundTrips { try history.push(PostgreSQLLine(line: "e")) } == 3)
        #expect(try connection.countingRoundTrips { try history.endMacro() } == 1)
        #expect(!connection.hasOpenTransaction)
        // What those calls left, as another client reads it.
        let other = try Client(database)
        let records = try other.history.records()
        #expect(records.records.map(\.text) == ["Add first", "Add a", "Add c", "Pair"] && records.index == 4)
        #expect(try other.lines.lines() == ["first", "a", "c", "d", "e"])
        #expect(other.history.revision == history.revision)
        try other.history.undo()
        #expect(try other.lines.lines() == ["first", "a", "c"] && history.undoText == "Add Line")
    }

    /// Another client's commit empties a reader's cache: its next ``PostgreSQLHistory/records()``
    /// reads every entry in one statement, so it costs as many round trips for 40 steps as for 4
    /// (six: BEGIN, the revision, the header, the undo and redo records, the entries, COMMIT less
    /// what the pipeline joins).
    @Test func recordsAfterAnotherClientsCommitCostTheSameRoundTripsWhateverTheLength() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        let writer = try Client(database)
        let reader = try Client(database)
        var costs: [Int] = []
        for length in [4, 40] {
            while writer.history.count < length - 1 {
                try writer.history.push(PostgreSQLLine(line: "\(writer.history.count)"))
            }
            _ = try reader.history.records()
            try writer.history.push(PostgreSQLLine(line: "last"))
            var read: (records: [HistoryRecord], nodes: [HistoryNode.ID], index: Int, revision: Int)?
            costs.append(try reader.history.connection.countingRoundTrips { read = try reader.history.records() })
            #expect(read?.records.count == length && read?.index == length && read?.records.last?.text == "Add last")
            #expect(read?.nodes.count == length && read?.revision == writer.history.revision)
        }
        #expect(costs[0] == costs[1] && costs[0] <= 6, "round trips for 4 and 40 steps: \(costs)")
        // Opening a client on the 40 steps reads the header and two records, not every entry.
        let lines = try PostgreSQLLines(connection: try database.connect())
        let opening = try lines.connection.countingRoundTrips {
            _ = try PostgreSQLHistory(connection: lines.connection, receiver: lines, registry: PostgreSQLLines.registry)
        }
        #expect(opening <= 6, "round trips to open a history of 40 steps: \(opening)")
    }

    /// The entry's INSERT, sent with COMMIT, fails (a trigger refuses it): the push reports the
    /// server's error as when the INSERT ran alone, nothing of the call stays (the command's line
    /// included), and the connection is left out of any transaction for the next call.
    @Test func aRefusedHistoryWriteFailsTheCallAndLeavesNothing() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        let client = try Client(database)
        try client.history.push(PostgreSQLLine(line: "kept"))
        let revision = client.history.revision
        let admin = try database.connect()
        try admin.execute(
            """
            CREATE FUNCTION refuse_entry() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'entries refused' USING ERRCODE = 'P0001'; END $$
            """)
        try admin.execute(
            """
            CREATE TRIGGER refuse_entry BEFORE INSERT ON commandstore_history_entry
            FOR EACH ROW EXECUTE FUNCTION refuse_entry()
            """)
        let refused = #expect(throws: PostgreSQLError.self) { try client.history.push(PostgreSQLLine(line: "lost")) }
        #expect(refused?.code == .server && refused?.sqlState == "P0001" && refused?.message == "entries refused")
        #expect(!client.history.connection.hasOpenTransaction)
        #expect(try client.lines.lines() == ["kept"])
        #expect(client.history.count == 1 && client.history.revision == revision && client.history.canUndo)
        try admin.execute("DROP TRIGGER refuse_entry ON commandstore_history_entry")
        try client.history.push(PostgreSQLLine(line: "next"))
        try client.history.undo()
        try client.history.redo()
        #expect(try client.lines.lines() == ["kept", "next"] && client.history.count == 2)
    }

    /// A serialization failure raised by the entry's INSERT in the commit's pipeline (once: a
    /// sequence, which no rollback takes back, counts the attempts): the whole call runs again,
    /// the command included, and the step is recorded once.
    @Test func aSerializationFailureAtTheCommitRunsTheCallAgain() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        let client = try Client(database)
        try client.history.push(PostgreSQLLine(line: "kept"))
        let admin = try database.connect()
        try admin.execute("CREATE SEQUENCE entry_attempt")
        try admin.execute(
            """
            CREATE FUNCTION conflict_once() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF nextval('entry_attempt') = 1 THEN
                    RAISE EXCEPTION 'conflict' USING ERRCODE = '40001';
                END IF;
                RETURN NEW;
            END $$
            """)
        try admin.execute(
            """
            CREATE TRIGGER conflict_once BEFORE INSERT ON commandstore_history_entry
            FOR EACH ROW EXECUTE FUNCTION conflict_once()
            """)
        let attempts = client.history.transactionAttempts
        try client.history.push(PostgreSQLLine(line: "again"))
        #expect(client.history.transactionAttempts == attempts + 2)
        #expect(try client.lines.lines() == ["kept", "again"])
        let records = try client.history.records()
        #expect(records.records.map(\.text) == ["Add kept", "Add again"] && records.index == 2)
    }
}
#endif

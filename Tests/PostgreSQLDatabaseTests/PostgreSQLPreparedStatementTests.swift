#if PostgreSQL
import Foundation
import PostgreSQLDatabase
import PostgreSQLTestSupport
import Testing

/// Prepared statements (`PostgreSQLStatement(…, prepared: true)`) against a real server: prepared
/// once per session, in the round trip of their first run; never taken as prepared when the
/// preparation did not happen; prepared again on a new session.
@Suite(.enabled(if: PostgreSQLServer.isEnabled, "COMMANDKIT_POSTGRES_URL names no server (Scripts/postgres.sh start)"))
struct PostgreSQLPreparedStatementTests {
    /// How many statements the session has prepared whose SQL starts with `prefix`.
    static func preparedCount(_ prefix: String, on connection: PostgreSQLConnection) throws -> Int? {
        try connection.query(
            "SELECT count(*) FROM pg_prepared_statements WHERE starts_with(statement, $1)", [prefix]
        ).first?.decode(Int.self, at: 0)
    }

    @Test func aStatementIsPreparedOncePerSessionInTheRoundTripOfItsFirstRun() throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        try connection.execute("CREATE TABLE item (n int PRIMARY KEY)")
        func insert(_ n: Int) -> PostgreSQLStatement {
            PostgreSQLStatement("INSERT INTO item VALUES ($1) RETURNING n * 2", [n], prepared: true)
        }
        var rows: [[PostgreSQLRow]] = []
        #expect(
            try connection.countingRoundTrips { rows = try connection.pipeline([insert(1)]) } == 1)
        #expect(rows == [[PostgreSQLRow(columns: ["2"])]])
        #expect(
            try connection.countingRoundTrips { rows = try connection.pipeline([insert(2)]) } == 1)
        #expect(rows == [[PostgreSQLRow(columns: ["4"])]])
        rows = try connection.pipeline([insert(3), insert(4), PostgreSQLStatement("SELECT count(*) FROM item")])
        #expect(
            rows == [[PostgreSQLRow(columns: ["6"])], [PostgreSQLRow(columns: ["8"])], [PostgreSQLRow(columns: ["4"])]])
        #expect(try Self.preparedCount("INSERT INTO item", on: connection) == 1)

        // New SQL used twice in its first pipeline: prepared once, both runs answered in order.
        let select = PostgreSQLStatement("SELECT n FROM item WHERE n > $1 ORDER BY n", [2], prepared: true)
        let selectAll = PostgreSQLStatement("SELECT n FROM item WHERE n > $1 ORDER BY n", [0], prepared: true)
        rows = try connection.pipeline([select, selectAll])
        #expect(try rows.map { try $0.map { try $0.decode(Int.self, at: 0) } } == [[3, 4], [1, 2, 3, 4]])
        #expect(try Self.preparedCount("SELECT n FROM item", on: connection) == 1)
        // A statement not marked prepared is never kept on the session.
        _ = try connection.pipeline([PostgreSQLStatement("SELECT count(*) FROM item WHERE n < $1", [3])])
        #expect(try Self.preparedCount("SELECT count(*) FROM item", on: connection) == 0)
    }

    /// A statement that fails before the preparation in the same pipeline skips it: the
    /// connection must not take the SQL as prepared, and the next run prepares it and succeeds.
    @Test func aPreparationSkippedByAnEarlierFailureIsMadeAtTheNextRun() throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        let doubled = PostgreSQLStatement("SELECT $1::int * 2", [21], prepared: true)
        let failed = #expect(throws: PostgreSQLError.self) {
            try connection.pipeline([PostgreSQLStatement("SELECT 1 / $1::int", [0]), doubled])
        }
        #expect(failed?.sqlState == "22012")
        #expect(try Self.preparedCount("SELECT $1::int * 2", on: connection) == 0)
        #expect(try connection.pipeline([doubled]) == [[PostgreSQLRow(columns: ["42"])]])
        #expect(try Self.preparedCount("SELECT $1::int * 2", on: connection) == 1)
    }

    /// A new session (the server ended the old one) has none of the old one's statements: the
    /// connection prepares them again, and the statement runs as before.
    @Test func aNewSessionPreparesItsStatementsAgain() throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        let administrator = try PostgreSQLServer.connect(toSchema: schema)
        let doubled = PostgreSQLStatement("SELECT $1::int * 2", [8], prepared: true)
        #expect(try connection.pipeline([doubled]) == [[PostgreSQLRow(columns: ["16"])]])
        _ = try administrator.query("SELECT pg_terminate_backend($1, 10000)", [Int(connection.serverProcessID)])
        let lost = #expect(throws: PostgreSQLError.self) { try connection.pipeline([doubled]) }
        #expect(lost?.code == .connectionLost)
        #expect(try connection.pipeline([doubled]) == [[PostgreSQLRow(columns: ["16"])]])
        #expect(try Self.preparedCount("SELECT $1::int * 2", on: connection) == 1)
    }

    /// Statements removed by hand (`DEALLOCATE ALL`): the run that meets the missing statement
    /// fails in one line, and the next prepares it again.
    @Test func statementsDeallocatedByHandArePreparedAgainAfterOneFailure() throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        let doubled = PostgreSQLStatement("SELECT $1::int * 2", [5], prepared: true)
        #expect(try connection.pipeline([doubled]) == [[PostgreSQLRow(columns: ["10"])]])
        try connection.execute("DEALLOCATE ALL")
        let missing = #expect(throws: PostgreSQLError.self) { try connection.pipeline([doubled]) }
        #expect(missing?.sqlState == "26000" && missing.map { !$0.message.contains("\n") } == true)
        #expect(try connection.pipeline([doubled]) == [[PostgreSQLRow(columns: ["10"])]])
    }
}
#endif

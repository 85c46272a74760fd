#if PostgreSQL
import Foundation
import PostgreSQLDatabase
import PostgreSQLTestSupport
import Testing

/// Pipelines against a real server: statements in order in one round trip, a failure in the
/// middle leaving nothing and the connection usable, transactions opened and closed in pipelines
/// (run again on a serialization failure), and a lost connection.
@Suite(.enabled(if: PostgreSQLServer.isEnabled, "COMMANDKIT_POSTGRES_URL names no server (Scripts/postgres.sh start)"))
struct PostgreSQLPipelineTests {
    @Test func aPipelineRunsItsStatementsInOrderInOneRoundTrip() throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        try connection.execute("CREATE TABLE step (n int PRIMARY KEY, label text)")
        var results: [[PostgreSQLRow]] = []
        let trips = try connection.countingRoundTrips {
            results = try connection.pipeline([
                PostgreSQLStatement("INSERT INTO step VALUES ($1, $2)", [1, "one"]),
                PostgreSQLStatement("INSERT INTO step VALUES ($1, $2) RETURNING n * 10", [2, nil]),
                // Sees the rows inserted before it in the same pipeline.
                PostgreSQLStatement("SELECT n, label FROM step ORDER BY n"),
                PostgreSQLStatement("SELECT count(*) FROM step WHERE label = $1", ["Robert'); DROP TABLE step;--"]),
            ])
        }
        #expect(trips == 1)
        #expect(results.count == 4 && results[0].isEmpty)
        #expect(try results[1].map { try $0.decode(Int.self, at: 0) } == [20])
        #expect(results[2] == [PostgreSQLRow(columns: ["1", "one"]), PostgreSQLRow(columns: ["2", nil])])
        #expect(try results[3][0].decode(Int.self, at: 0) == 0)
        // Out of pipeline mode and out of any transaction: plain statements run, and committed.
        #expect(!connection.hasOpenTransaction)
        #expect(try connection.query("SELECT count(*) FROM step")[0].decode(Int.self, at: 0) == 2)
        // No statement costs nothing; one costs one round trip, as it would alone.
        var none: [[PostgreSQLRow]] = [[]]
        #expect(try connection.countingRoundTrips { none = try connection.pipeline([]) } == 0)
        #expect(none.isEmpty)
        #expect(
            try connection.countingRoundTrips { _ = try connection.pipeline([PostgreSQLStatement("SELECT 1")]) } == 1)
        // A value no statement can send is refused before anything is sent.
        let nul = #expect(throws: PostgreSQLError.self) {
            try connection.pipeline([
                PostgreSQLStatement("INSERT INTO step VALUES ($1, $2)", [3, "fine"]),
                PostgreSQLStatement("INSERT INTO step VALUES ($1, $2)", [4, "a\u{0}b"]),
            ])
        }
        #expect(nul?.code == .invalidValue && nul?.message.contains("statement 2") == true)
        #expect(try connection.query("SELECT count(*) FROM step")[0].decode(Int.self, at: 0) == 2)
    }

    /// A statement fails in the middle: its error is the one a statement alone would throw, the
    /// statements after it do not run, what ran before it is rolled back (its implicit transaction,
    /// a transaction it began, or, by its owner, the transaction it ran in), and the connection
    /// goes on: out of pipeline mode, no transaction open.
    @Test func aFailureInTheMiddleLeavesNothingAndTheConnectionUsable() throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        try connection.execute("CREATE TABLE step (n int PRIMARY KEY)")
        try connection.execute("INSERT INTO step VALUES ($1)", [0])
        let insert = "INSERT INTO step VALUES ($1)"
        func expectDuplicate(_ error: PostgreSQLError?, _ comment: Comment) {
            #expect(error?.code == .server && error?.sqlState == "23505", comment)
            #expect(error.map { !$0.message.contains("\n") } == true, comment)
        }
        func committed() throws -> [Int] {
            try connection.query("SELECT n FROM step ORDER BY n").map { try $0.decode(Int.self, at: 0) ?? -1 }
        }

        // No transaction open: the pipeline's statements are one transaction.
        let implicit = #expect(throws: PostgreSQLError.self) {
            try connection.pipeline([
                PostgreSQLStatement(insert, [1]), PostgreSQLStatement(insert, [0]), PostgreSQLStatement(insert, [2]),
            ])
        }
        expectDuplicate(implicit, "implicit transaction")
        #expect(!connection.hasOpenTransaction)
        #expect(try committed() == [0])

        // A transaction the pipeline begins: rolled back by the pipeline.
        let begun = #expect(throws: PostgreSQLError.self) {
            try connection.pipeline([
                PostgreSQLStatement("BEGIN"), PostgreSQLStatement(insert, [3]), PostgreSQLStatement(insert, [0]),
                PostgreSQLStatement(insert, [4]), PostgreSQLStatement("COMMIT"),
            ])
        }
        expectDuplicate(begun, "BEGIN … COMMIT")
        #expect(!connection.hasOpenTransaction)
        #expect(try committed() == [0])

        // Inside inTransaction: the pipeline leaves the transaction failed, inTransaction rolls it back.
        let inside = #expect(throws: PostgreSQLError.self) {
            try connection.inTransaction {
                try connection.execute(insert, [5])
                try connection.pipeline([PostgreSQLStatement(insert, [6]), PostgreSQLStatement(insert, [0])])
                Issue.record("the pipeline's failure was not thrown")
            }
        }
        expectDuplicate(inside, "inside inTransaction")
        #expect(!connection.hasOpenTransaction)
        #expect(try committed() == [0])

        // A failing opening statement, a failing closing one: nothing committed, nothing left open.
        let opening = #expect(throws: PostgreSQLError.self) {
            try connection.inTransaction(opening: [PostgreSQLStatement(insert, [7]), PostgreSQLStatement(insert, [0])])
            {
                _ in
                Issue.record("the body ran after a failed opening")
                return ((), [])
            }
        }
        expectDuplicate(opening, "opening")
        let closing = #expect(throws: PostgreSQLError.self) {
            try connection.inTransaction(opening: [PostgreSQLStatement(insert, [8])]) { _ in
                try connection.execute(insert, [9])
                return ((), [PostgreSQLStatement(insert, [10]), PostgreSQLStatement(insert, [0])])
            }
        }
        expectDuplicate(closing, "closing")
        #expect(!connection.hasOpenTransaction)
        #expect(try committed() == [0])

        // And the connection works on, in and out of pipelines.
        let (_, closed) = try connection.inTransaction(opening: [PostgreSQLStatement("SELECT max(n) FROM step")]) {
            opened in
            let top = try opened[0][0].decode(Int.self, at: 0) ?? 0
            try connection.execute(insert, [top + 1])
            return ((), [PostgreSQLStatement("INSERT INTO step VALUES ($1) RETURNING n", [top + 2])])
        }
        #expect(try closed.map { try $0[0].decode(Int.self, at: 0) } == [2])
        #expect(try committed() == [0, 1, 2])
    }

    /// Two clients read the same counter and both write it back plus one, the write in the closing
    /// pipeline: under SERIALIZABLE the second fails there, and the whole transaction runs again
    /// (the opening read included), so no increment is lost.
    @Test func aSerializationFailureInAPipelineRunsTheTransactionAgain() throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        let other = try PostgreSQLServer.connect(toSchema: schema)
        try connection.execute("CREATE TABLE counter (value int NOT NULL)")
        try connection.execute("INSERT INTO counter VALUES (0)")
        var attempts = 0
        let trips = try connection.countingRoundTrips {
            try connection.inTransaction(opening: [PostgreSQLStatement("SELECT value FROM counter")]) { opened in
                attempts += 1
                let value = try #require(try opened[0][0].decode(Int.self, at: 0))
                if attempts == 1 {
                    // Another client commits an increment after this transaction's snapshot.
                    try other.inTransaction {
                        let seen = try other.query("SELECT value FROM counter")[0].decode(Int.self, at: 0) ?? 0
                        try other.execute("UPDATE counter SET value = $1", [seen + 1])
                    }
                }
                return ((), [PostgreSQLStatement("UPDATE counter SET value = $1", [value + 1])])
            }
        }
        #expect(attempts == 2)
        // Two round trips per attempt, and the failed attempt's rollback.
        #expect(trips == 5)
        #expect(!connection.hasOpenTransaction)
        #expect(try connection.query("SELECT value FROM counter")[0].decode(Int.self, at: 0) == 2)
    }

    /// The server ends the session before or during a pipeline: the pipeline fails as a lost
    /// connection, in one line; nothing of the transaction stays; the next call connects again.
    @Test func aLostConnectionFailsThePipelineThenTheNextCallReconnects() throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        let administrator = try PostgreSQLServer.connect(toSchema: schema)
        try connection.execute("CREATE TABLE kept (n int)")
        try connection.execute("INSERT INTO kept VALUES ($1)", [1])
        func terminate(_ pid: Int32) throws {
            // Waits (up to 10 s) until the session is gone.
            _ = try administrator.query("SELECT pg_terminate_backend($1, 10000)", [Int(pid)])
        }

        // Killed while idle: the next pipeline finds it gone.
        let idle = connection.serverProcessID
        try terminate(idle)
        let lost = #expect(throws: PostgreSQLError.self) {
            try connection.pipeline([PostgreSQLStatement("SELECT 1"), PostgreSQLStatement("SELECT 2")])
        }
        #expect(lost?.code == .connectionLost, "\(String(describing: lost))")
        #expect(lost.map { !$0.message.contains("\n") } == true)
        // A new session: the search path is the server's default again, so the schema is named.
        let rows = try connection.pipeline([
            PostgreSQLStatement("SELECT count(*) FROM \(schema).kept"), PostgreSQLStatement("SELECT 2"),
        ])
        #expect(try rows.map { try $0[0].decode(Int.self, at: 0) } == [1, 2])
        #expect(connection.serverProcessID != idle)

        // Killed mid-transaction, between its opening and its closing pipeline.
        let busy = connection.serverProcessID
        let midway = #expect(throws: PostgreSQLError.self) {
            try connection.inTransaction(
                .readCommitted, opening: [PostgreSQLStatement("INSERT INTO \(schema).kept VALUES ($1)", [2])]
            ) { _ in
                try terminate(busy)
                return ((), [PostgreSQLStatement("INSERT INTO \(schema).kept VALUES ($1)", [3])])
            }
        }
        #expect(midway?.code == .connectionLost, "\(String(describing: midway))")
        #expect(midway.map { !$0.message.contains("\n") } == true)
        #expect(!connection.hasOpenTransaction)
        // The next call connects again; the opening's row went with the session.
        #expect(try connection.query("SELECT n FROM \(schema).kept").map { try $0.decode(Int.self, at: 0) } == [1])
        #expect(connection.serverProcessID != busy && !connection.hasOpenTransaction)
    }
}
#endif

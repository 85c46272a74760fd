#if PostgreSQL
import Foundation
import PostgreSQLDatabase
import Testing

/// The commit hook (`setCommitHook`) and read-only transactions against a real server: the hook
/// runs inside each read-write transaction before its commit, with its locks held, and never for
/// a read-only one, which the server keeps from writing.
@Suite(.enabled(if: PostgreSQLServer.isEnabled, "COMMANDKIT_POSTGRES_URL names no server (Scripts/postgres.sh start)"))
struct PostgreSQLCommitHookTests {
    @Test func theHookRunsBeforeEachReadWriteCommitInsideTheTransaction() throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        let observer = try PostgreSQLServer.connect(toSchema: schema)
        try connection.execute("CREATE TABLE item (n int)")
        var seenByOthers: [Int?] = []
        var calls = 0
        connection.setCommitHook {
            calls += 1
            // Inside the transaction: another session does not see its rows yet.
            seenByOthers.append(try? observer.query("SELECT count(*) FROM item").first?.decode(Int.self, at: 0))
        }
        try connection.inTransaction { try connection.execute("INSERT INTO item VALUES ($1)", [1]) }
        // The pipelined form: the closing statements go with the COMMIT, after the hook.
        _ = try connection.inTransaction(
            .readCommitted, opening: [PostgreSQLStatement("INSERT INTO item VALUES ($1)", [2])]
        ) { _ in ((), [PostgreSQLStatement("INSERT INTO item VALUES ($1)", [3])]) }
        #expect(calls == 2 && seenByOthers == [0, 1])
        #expect(try observer.query("SELECT count(*) FROM item").first?.decode(Int.self, at: 0) == 3)

        // A read-only transaction: no hook, and the server refuses a write in it (nothing kept).
        let count = try connection.inTransaction(.repeatableRead, readOnly: true) {
            try connection.query("SELECT count(*) FROM item").first?.decode(Int.self, at: 0)
        }
        #expect(count == 3 && calls == 2)
        let refused = #expect(throws: PostgreSQLError.self) {
            try connection.inTransaction(readOnly: true) { try connection.execute("INSERT INTO item VALUES (4)") }
        }
        #expect(refused?.sqlState == "25006" && !connection.hasOpenTransaction && calls == 2)

        // Removed: commits go on without it.
        connection.setCommitHook(nil)
        try connection.inTransaction { try connection.execute("INSERT INTO item VALUES ($1)", [5]) }
        #expect(calls == 2)
        #expect(try observer.query("SELECT count(*) FROM item").first?.decode(Int.self, at: 0) == 4)
    }
}
#endif

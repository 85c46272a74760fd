#if PostgreSQL
import Foundation
import PostgreSQLDatabase
import PostgreSQLTestSupport
import Synchronization
import Testing
import TestSupport

/// Commits that release their locks before the flush (`LockRelease.beforeFlush`), against real
/// servers: they cost no round trip more, return once durable (a crash of the server keeps every
/// acknowledged one), fall back to PostgreSQL's order on a session without the right to flush
/// separately, and say a transaction committed when only its flush failed.
@Suite(.enabled(if: PostgreSQLServer.isEnabled, "COMMANDKIT_POSTGRES_URL names no server (Scripts/postgres.sh start)"))
struct PostgreSQLEarlyLockReleaseTests {
    static func insert(_ id: Int) -> PostgreSQLStatement {
        PostgreSQLStatement("INSERT INTO album (id) VALUES ($1)", [id], prepared: true)
    }

    static func ids(_ connection: PostgreSQLConnection) throws -> [Int] {
        try connection.query("SELECT id FROM album ORDER BY id").compactMap { try $0.decode(Int.self, at: 0) }
    }

    @Test func anEarlyCommitCostsNoRoundTripMoreAndReturnsItsRows() throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        try connection.execute("CREATE TABLE album (id int PRIMARY KEY)")
        for id in 1...3 {
            let trips = try connection.countingRoundTrips { () throws in
                let (_, closed) = try connection.inTransaction(
                    .readCommitted, releasingLocks: .beforeFlush,
                    opening: [PostgreSQLStatement("SELECT count(*) FROM album")]
                ) { (opened) throws in
                    #expect(try opened[0][0].decode(Int.self, at: 0) == id - 1)
                    return ((), [Self.insert(id), PostgreSQLStatement("SELECT max(id) FROM album")])
                }
                #expect(try closed[1][0].decode(Int.self, at: 0) == id)
            }
            // BEGIN with the opening (and the first time the privilege's question); the closing
            // statements with the early COMMIT and the flush.
            #expect(trips == 2)
            #expect(connection.releasesLocksEarly == true)
        }
        // Committed, seen by another session, and no transaction left open.
        #expect(try Self.ids(PostgreSQLServer.connect(toSchema: schema)) == [1, 2, 3])
        #expect(!connection.hasOpenTransaction)
        // A failing closing statement commits nothing, early or not.
        let duplicate = #expect(throws: PostgreSQLError.self) { () throws in
            try connection.inTransaction(.readCommitted, releasingLocks: .beforeFlush) {
                try connection.sendLater(Self.insert(4))
                try connection.sendLater(Self.insert(1))
            }
        }
        #expect(duplicate?.sqlState == "23505" && !duplicate!.message.hasPrefix("committed"))
        #expect(try Self.ids(connection) == [1, 2, 3])
    }

    @Test func withoutTheRightToFlushSeparatelyLocksGoAfterTheFlush() throws {
        try ScratchDatabase.with { scratch in
            try scratch.revokeTheRightToFlushSeparately()
            let connection = try scratch.connectAsPlainRole()
            try connection.inTransaction(.readCommitted, releasingLocks: .beforeFlush) {
                try connection.execute("INSERT INTO album (id) VALUES (1)")
            }
            #expect(connection.releasesLocksEarly == false)
            #expect(try Self.ids(connection) == [1])
        }
    }

    /// With `synchronous_commit` off every commit releases its locks at once: nothing to add.
    @Test func aSessionThatDoesNotWaitForFlushesCommitsPlainly() throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        try connection.execute("CREATE TABLE album (id int PRIMARY KEY)")
        try connection.execute("SET synchronous_commit TO off")
        try connection.inTransaction(.readCommitted, releasingLocks: .beforeFlush) {
            try connection.execute("INSERT INTO album (id) VALUES (1)")
        }
        #expect(connection.releasesLocksEarly == false)
        #expect(try Self.ids(connection) == [1])
    }

    /// The flush runs after the `COMMIT`: when it alone fails (here the right to run it is
    /// revoked once the session learned it had it), the transaction is committed, and the error
    /// says so.
    @Test func aFlushThatFailsAfterTheCommitSaysTheTransactionCommitted() throws {
        try ScratchDatabase.with { scratch in
            let connection = try scratch.connectAsPlainRole()
            try connection.inTransaction(.readCommitted, releasingLocks: .beforeFlush) {
                try connection.execute("INSERT INTO album (id) VALUES (1)")
            }
            #expect(connection.releasesLocksEarly == true)
            try scratch.revokeTheRightToFlushSeparately()
            let error = #expect(throws: PostgreSQLError.self) { () throws in
                try connection.inTransaction(.readCommitted, releasingLocks: .beforeFlush) {
                    try connection.execute("INSERT INTO album (id) VALUES (2)")
                }
            }
            #expect(
                error?.message.hasPrefix("committed, but not known to be on disk: ") == true,
                "\(String(describing: error))")
            #expect(error?.sqlState == "42501")
            #expect(try Self.ids(connection) == [1, 2])
        }
    }

    /// A writer commits early, one row per transaction, on a server of the test's own, which is
    /// killed mid-stream (every server process quits at once, its unwritten log lost) and started
    /// again: every row acknowledged before the crash is there after the recovery. Were a commit
    /// acknowledged before its flush, the last fraction of a second's rows would be missing.
    @Test func aCrashOfTheServerKeepsEveryAcknowledgedCommit() async throws {
        try await PostgreSQLPrivateServer.with { try await crashMidStream($0) }
    }

    private func crashMidStream(_ server: PostgreSQLPrivateServer) async throws {
        let url = server.url
        try PostgreSQLConnection(connectingTo: url).execute("CREATE TABLE album (id int PRIMARY KEY)")
        let acknowledged = Mutex<[Int]>([])
        let crashed = Mutex(false)
        let writer = Task.detached { () -> String in
            do {
                let connection = try PostgreSQLConnection(connectingTo: url)
                for id in 1... {
                    // Its first call after the crash fails; should it not, it stops here.
                    if crashed.withLock({ $0 }) { return "no failure after the crash" }
                    try connection.inTransaction(.readCommitted, releasingLocks: .beforeFlush) {
                        try connection.execute("INSERT INTO album (id) VALUES ($1)", [id])
                    }
                    acknowledged.withLock { $0.append(id) }
                }
                return "never"
            } catch {
                return "\(error)"
            }
        }
        try await eventually("200 commits acknowledged") { acknowledged.withLock { $0.count } >= 200 }
        try await server.crash()
        crashed.withLock { $0 = true }
        let ending = await writer.value
        let acknowledgedIDs = acknowledged.withLock { $0 }
        let kept = Set(try Self.ids(PostgreSQLConnection(connectingTo: url)))
        let lost = acknowledgedIDs.filter { !kept.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) of \(acknowledgedIDs.count) acknowledged commits lost: \(lost.prefix(10))")
        #expect(acknowledgedIDs.count >= 200, "the writer ended with: \(ending)")
    }
}

/// A database of one test's own on the shared server, with a role that is not a superuser (whose
/// privileges the server checks): for the tests that revoke a privilege.
private struct ScratchDatabase {
    let name: String
    /// A superuser's session in the database.
    let asOwner: PostgreSQLConnection

    static func with(_ body: (ScratchDatabase) throws -> Void) throws {
        let server = try PostgreSQLConnection(connectingTo: PostgreSQLServer.url ?? "")
        // Test code: the names are generated here, never input.
        let name = "scratch_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        try server.execute("CREATE ROLE \(name) LOGIN")
        try server.execute("CREATE DATABASE \(name) OWNER \(name)")
        defer {
            _ = try? server.execute("DROP DATABASE \(name) WITH (FORCE)")
            _ = try? server.execute("DROP ROLE \(name)")
        }
        let owner = try PostgreSQLConnection(connectingTo: Self.url(database: name, user: nil))
        try owner.execute("CREATE TABLE album (id int PRIMARY KEY)")
        try owner.execute("ALTER TABLE album OWNER TO \(name)")
        try body(ScratchDatabase(name: name, asOwner: owner))
    }

    /// Takes from every role but superusers the right to run `pg_logical_emit_message` (all its
    /// signatures: PostgreSQL 17 added a parameter), in this database.
    func revokeTheRightToFlushSeparately() throws {
        try asOwner.execute(
            """
            DO $$
            DECLARE signature regprocedure;
            BEGIN
                FOR signature IN SELECT oid::regprocedure FROM pg_catalog.pg_proc
                    WHERE proname = 'pg_logical_emit_message' AND pronamespace = 'pg_catalog'::regnamespace
                LOOP
                    EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', signature);
                END LOOP;
            END
            $$
            """)
    }

    /// A session of the role that is not a superuser.
    func connectAsPlainRole() throws -> PostgreSQLConnection {
        try PostgreSQLConnection(connectingTo: Self.url(database: name, user: name))
    }

    private static func url(database: String, user: String?) -> String {
        var components = URLComponents(string: PostgreSQLServer.url ?? "")!
        components.path = "/" + database
        if let user { components.user = user }
        return components.string!
    }
}
#endif

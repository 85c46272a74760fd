#if PostgreSQL
import Foundation
import PostgreSQLDatabase
import Testing

/// The libpq layer against a real server: bound values, transactions, serialization failures
/// run again, LISTEN/NOTIFY, refused and lost connections.
@Suite(.enabled(if: PostgreSQLServer.isEnabled, "COMMANDKIT_POSTGRES_URL names no server (Scripts/postgres.sh start)"))
struct PostgreSQLConnectionTests {
    /// Hostile texts go in as bound values and come back as they were; no SQL runs from them.
    @Test func valuesAreBoundNeverSpliced() throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        try connection.execute("CREATE TABLE album (id uuid PRIMARY KEY, title text NOT NULL, year int, cover bytea)")
        let hostile = [
            "Robert'); DROP TABLE album;--", "“Quotes” and 'apostrophes' and \"doubles\"", "$1 $2 \\x00",
            "\u{202E}RTL mark", String(repeating: "é", count: 10_000),
        ]
        for (offset, title) in hostile.enumerated() {
            let changed = try connection.execute(
                "INSERT INTO album (id, title, year, cover) VALUES ($1, $2, $3, $4)",
                [UUID(), title, offset % 2 == 0 ? 1959 + offset : nil, Data([0, 255, UInt8(offset)])])
            #expect(changed == 1)
        }
        let rows = try connection.query("SELECT title, year, cover FROM album ORDER BY year NULLS LAST, title")
        #expect(Set(try rows.map { try $0.decode(String.self, at: 0) }) == Set(hostile))
        #expect(try rows.compactMap { try $0.decode(Int.self, at: 1) } == [1959, 1961, 1963])
        #expect(
            try rows.map { try $0.decode(Data.self, at: 2)?.prefix(2) } == Array(repeating: Data([0, 255]), count: 5))
        // A NUL cannot be sent as text: refused before anything is sent.
        let nul = #expect(throws: PostgreSQLError.self) {
            try connection.execute("INSERT INTO album (id, title) VALUES ($1, $2)", [UUID(), "a\u{0}b"])
        }
        #expect(nul?.code == .invalidValue && nul?.message.contains("$2") == true)
        #expect(try connection.query("SELECT count(*) FROM album")[0].decode(Int.self, at: 0) == 5)
    }

    @Test func aFailedTransactionLeavesNothing() throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        try connection.execute("CREATE TABLE step (n int PRIMARY KEY)")
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try connection.inTransaction {
                try connection.execute("INSERT INTO step VALUES ($1)", [1])
                throw Stop()
            }
        }
        let duplicate = #expect(throws: PostgreSQLError.self) {
            try connection.inTransaction {
                try connection.execute("INSERT INTO step VALUES ($1)", [2])
                try connection.execute("INSERT INTO step VALUES ($1)", [2])
            }
        }
        #expect(duplicate?.code == .server && duplicate?.sqlState == "23505", "\(String(describing: duplicate))")
        #expect(try connection.query("SELECT count(*) FROM step")[0].decode(Int.self, at: 0) == 0)
        try connection.inTransaction { try connection.execute("INSERT INTO step VALUES ($1)", [3]) }
        #expect(try connection.query("SELECT n FROM step").map { try $0.decode(Int.self, at: 0) } == [3])
    }

    /// Two clients read the same counter and both write it back plus one: under SERIALIZABLE the
    /// second commit fails, and the transaction runs again from the committed value, so no
    /// increment is lost (under READ COMMITTED one would be).
    @Test func aSerializationFailureRunsTheTransactionAgain() throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        let other = try PostgreSQLServer.connect(toSchema: schema)
        try connection.execute("CREATE TABLE counter (value int NOT NULL)")
        try connection.execute("INSERT INTO counter VALUES (0)")
        var attempts = 0
        try connection.inTransaction {
            attempts += 1
            let value = try #require(try connection.query("SELECT value FROM counter")[0].decode(Int.self, at: 0))
            if attempts == 1 {
                // Another client commits an increment after this transaction's snapshot.
                try other.inTransaction {
                    let seen = try other.query("SELECT value FROM counter")[0].decode(Int.self, at: 0) ?? 0
                    try other.execute("UPDATE counter SET value = $1", [seen + 1])
                }
            }
            try connection.execute("UPDATE counter SET value = $1", [value + 1])
        }
        #expect(attempts == 2)
        #expect(try connection.query("SELECT value FROM counter")[0].decode(Int.self, at: 0) == 2)
    }

    @Test func aNotificationReachesAListeningClientAtCommit() throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        let sender = try PostgreSQLServer.connect(toSchema: schema)
        let channel = "albums changed \(schema)"
        try connection.listen(to: channel)
        #expect(try connection.notifications(waitingUpTo: .milliseconds(10)).isEmpty)
        try sender.inTransaction {
            try sender.notify(channel, payload: "revision 7")
            // Not before the commit.
            #expect(try connection.notifications(waitingUpTo: .milliseconds(10)).isEmpty)
        }
        // Generous: the bound is the suite's patience, not a speed claim (those are benchmarks).
        var received: [PostgreSQLConnection.Notification] = []
        let deadline = ContinuousClock.now + .seconds(60)
        while received.isEmpty && ContinuousClock.now < deadline {
            received = try connection.notifications(waitingUpTo: .seconds(1))
        }
        #expect(received.map(\.channel) == [channel] && received.map(\.payload) == ["revision 7"])
        #expect(received.first?.senderProcessID == sender.serverProcessID)
    }

    /// A refused login, a missing database: one line each, and the password never in it.
    @Test func aRefusedConnectionSaysWhyWithoutThePassword() throws {
        let refused = try #require(PostgreSQLServer.url(user: "refused", password: "not-the-password"))
        let login = #expect(throws: PostgreSQLError.self) { _ = try PostgreSQLConnection(connectingTo: refused) }
        #expect(login?.code == .connectionRefused)
        #expect(login?.message.contains("password authentication failed") == true, "\(String(describing: login))")
        #expect(login?.message.contains("not-the-password") == false && login?.message.contains("\n") == false)
        let missing = try #require(PostgreSQLServer.url).replacingOccurrences(
            of: "/commandkit_test", with: "/no_such_db")
        let database = #expect(throws: PostgreSQLError.self) { _ = try PostgreSQLConnection(connectingTo: missing) }
        #expect(database?.code == .connectionRefused && database?.message.contains("no_such_db") == true)
        let malformed = #expect(throws: PostgreSQLError.self) {
            _ = try PostgreSQLConnection(connectingTo: "postgresql://ada:secret@[::1")
        }
        #expect(malformed?.code == .connectionRefused && malformed?.message.contains("secret") == false)
    }

    /// The server ends this client's session (as a restart would): the running statement fails as
    /// a lost connection, and the next call connects again and works.
    @Test func aLostConnectionIsSaidThenTheNextCallReconnects() throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        let administrator = try PostgreSQLServer.connect(toSchema: schema)
        try connection.execute("CREATE TABLE kept (n int)")
        try connection.execute("INSERT INTO kept VALUES ($1)", [1])
        let pid = connection.serverProcessID
        _ = try administrator.query("SELECT pg_terminate_backend($1)", [Int(pid)])
        let lost = #expect(throws: PostgreSQLError.self) { _ = try connection.query("SELECT 1") }
        #expect(lost?.code == .connectionLost, "\(String(describing: lost))")
        // A new session: the search path is the server's default again, so the schema is named.
        let rows = try connection.query("SELECT count(*) FROM \(schema).kept")
        #expect(try rows[0].decode(Int.self, at: 0) == 1)
        #expect(connection.serverProcessID != pid)
    }
}
#endif

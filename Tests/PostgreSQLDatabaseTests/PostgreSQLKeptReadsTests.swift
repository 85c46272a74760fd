#if PostgreSQL
import Foundation
import PostgreSQLDatabase
import PostgreSQLTestSupport
import Testing

/// Reads that cost no round trip of their own, against a real server: a read made again inside
/// its transaction with nothing sent since answers from its rows, any other statement ends them,
/// nothing is kept across transactions or outside one, and reads queued with `readAhead` travel
/// with the next transaction's `BEGIN`.
@Suite(.enabled(if: PostgreSQLServer.isEnabled, "COMMANDKIT_POSTGRES_URL names no server (Scripts/postgres.sh start)"))
struct PostgreSQLKeptReadsTests {
    static let titleRead = PostgreSQLStatement("SELECT title FROM album WHERE id = $1", [1], prepared: true)
    static let countRead = PostgreSQLStatement("SELECT count(*) FROM album")

    static func title(_ rows: [[PostgreSQLRow]]) throws -> String? { try rows[0].first?.decode(String.self, at: 0) }

    /// A schema of its own with two albums, and a connection to it.
    static func withAlbums(_ body: (PostgreSQLConnection, _ schema: String) throws -> Void) throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        try connection.execute("CREATE TABLE album (id int PRIMARY KEY, title text)")
        try connection.execute("INSERT INTO album VALUES (1, 'Blue Train'), (2, 'Giant Steps')")
        try body(connection, schema)
    }

    @Test func aReadMadeAgainBeforeAnyOtherStatementCostsNoRoundTrip() throws {
        try Self.withAlbums { connection, schema in
            try connection.inTransaction(.readCommitted) {
                var trips = try connection.countingRoundTrips { () throws in
                    #expect(try Self.title(connection.read([Self.titleRead])) == "Blue Train")
                    #expect(try Self.title(connection.read([Self.titleRead])) == "Blue Train")
                }
                #expect(trips == 1)
                // Another read keeps the first (only reads went since): both answer without a trip.
                _ = try connection.read([Self.countRead])
                trips = try connection.countingRoundTrips { () throws in
                    let rows = try connection.read([Self.titleRead, Self.countRead])
                    #expect(try Self.title(rows) == "Blue Train" && rows[1][0].decode(Int.self, at: 0) == 2)
                }
                #expect(trips == 0)
                // A write ends them: the read is sent again and sees it.
                try connection.execute("UPDATE album SET title = 'Blue Train (mono)' WHERE id = 1")
                trips = try connection.countingRoundTrips { () throws in
                    #expect(try Self.title(connection.read([Self.titleRead])) == "Blue Train (mono)")
                }
                #expect(trips == 1)
            }
        }
    }

    @Test func nothingIsKeptOutsideATransactionOrIntoTheNext() throws {
        try Self.withAlbums { connection, schema in
            let other = try PostgreSQLServer.connect(toSchema: schema)
            let trips = try connection.countingRoundTrips { () throws in
                _ = try connection.read([Self.titleRead])
                _ = try connection.read([Self.titleRead])
            }
            #expect(trips == 2)
            try connection.inTransaction(.readCommitted) { _ = try connection.read([Self.titleRead]) }
            try other.execute("UPDATE album SET title = 'Lush Life' WHERE id = 1")
            let title = try connection.inTransaction(.readCommitted) {
                try Self.title(connection.read([Self.titleRead]))
            }
            #expect(title == "Lush Life")
        }
    }

    @Test func readsAheadTravelWithTheNextTransactionsBegin() throws {
        try Self.withAlbums { connection, schema in
            connection.readAhead([Self.titleRead, Self.countRead])
            let trips = try connection.countingRoundTrips { () throws in
                try connection.inTransaction(.readCommitted) {
                    let rows = try connection.read([Self.countRead, Self.titleRead])
                    #expect(
                        try rows[0][0].decode(Int.self, at: 0) == 2
                            && rows[1][0].decode(String.self, at: 0) == "Blue Train")
                }
            }
            // BEGIN with the reads, then COMMIT.
            #expect(trips == 2)
            // Taken by that transaction: the next one sends none.
            let next = try connection.countingRoundTrips { () throws in
                try connection.inTransaction(.readCommitted) { _ = try connection.read([Self.titleRead]) }
            }
            #expect(next == 3)
        }
    }
}
#endif

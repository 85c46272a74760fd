#if PostgreSQL
import Foundation
import PostgreSQLDatabase
import PostgreSQLTestSupport
import Testing

/// Writes sent with the next statement, against a real server: they travel with the next read or
/// the commit and are seen by both, one that must change a row and changes none fails the commit
/// with its message and commits nothing, a rollback drops them, many go in pipelines of a handful,
/// and outside a transaction they run at once.
@Suite(.enabled(if: PostgreSQLServer.isEnabled, "COMMANDKIT_POSTGRES_URL names no server (Scripts/postgres.sh start)"))
struct PostgreSQLDeferredWritesTests {
    typealias Albums = PostgreSQLKeptReadsTests

    static func rename(_ id: Int, to title: String) -> PostgreSQLStatement {
        PostgreSQLStatement("UPDATE album SET title = $1 WHERE id = $2", [title, id], prepared: true)
    }

    static func titles(_ connection: PostgreSQLConnection) throws -> [String] {
        try connection.query("SELECT title FROM album ORDER BY id").map { try $0.decode(String.self, at: 0) ?? "" }
    }

    @Test func writesTravelWithTheNextReadAndTheCommit() throws {
        try Albums.withAlbums { connection, _ in
            let trips = try connection.countingRoundTrips { () throws in
                try connection.inTransaction(.readCommitted) { () throws in
                    try connection.sendLater(Self.rename(1, to: "Blue Train (mono)"), expectingOneRowOtherwise: "no 1")
                    // Sent with this read, before it: the read sees the write.
                    #expect(try Albums.title(connection.read([Albums.titleRead])) == "Blue Train (mono)")
                    try connection.sendLater(
                        PostgreSQLStatement("INSERT INTO album VALUES ($1, $2)", [3, "Lush Life"], prepared: true))
                }
            }
            // BEGIN; the write with the read; the insert with COMMIT.
            #expect(trips == 3)
            #expect(try Self.titles(connection) == ["Blue Train (mono)", "Giant Steps", "Lush Life"])
        }
    }

    @Test func aWriteThatChangesNoRowFailsTheCommitWithItsMessage() throws {
        try Albums.withAlbums { connection, _ in
            let error = #expect(throws: PostgreSQLError.self) { () throws in
                try connection.inTransaction(.readCommitted) { () throws in
                    try connection.sendLater(Self.rename(1, to: "renamed"), expectingOneRowOtherwise: "no album 1")
                    try connection.sendLater(Self.rename(9, to: "renamed"), expectingOneRowOtherwise: "no album 9")
                }
            }
            #expect(error?.message == "no album 9" && error?.code == .server)
            // Nothing of the transaction stays, and the connection goes on.
            #expect(!connection.hasOpenTransaction)
            let titlesAfter = try Self.titles(connection)
            #expect(titlesAfter == ["Blue Train", "Giant Steps"])
            // Another failure of a deferred write is thrown as the server reports it.
            let duplicate = #expect(throws: PostgreSQLError.self) { () throws in
                try connection.inTransaction(.readCommitted) { () throws in
                    try connection.sendLater(PostgreSQLStatement("INSERT INTO album VALUES (1, 'again')"))
                    _ = try connection.read([Albums.countRead])
                }
            }
            #expect(duplicate?.sqlState == "23505")
            let titlesAtLast = try Self.titles(connection)
            #expect(titlesAtLast == ["Blue Train", "Giant Steps"])
        }
    }

    @Test func aRollbackDropsTheWritesNotSent() throws {
        struct Refused: Error {}
        try Albums.withAlbums { connection, _ in
            var refused = false
            do {
                try connection.inTransaction(.readCommitted) { () throws -> Void in
                    try connection.sendLater(Self.rename(1, to: "never"), expectingOneRowOtherwise: "no album 1")
                    // Would fail if it were sent: the rollback drops it unsent.
                    try connection.sendLater(Self.rename(9, to: "never"), expectingOneRowOtherwise: "no album 9")
                    throw Refused()
                }
            } catch is Refused {
                refused = true
            }
            #expect(refused && !connection.hasOpenTransaction)
            // Neither committed nor sent with the next transaction's statements.
            let inNext = try connection.inTransaction(.readCommitted) { try Self.titles(connection) }
            #expect(inNext == ["Blue Train", "Giant Steps"])
        }
    }

    @Test func aTrialSendsItsWritesBeforeItsRollback() throws {
        try Albums.withAlbums { connection, _ in
            try connection.inTransaction(.readCommitted) { () throws in
                let failure = connection.inRolledBackSavepointFailure {
                    try connection.sendLater(Self.rename(9, to: "renamed"), expectingOneRowOtherwise: "no album 9")
                }
                #expect(failure == "no album 9")
                // The transaction goes on after the trial; the trial's writes are gone.
                try connection.sendLater(Self.rename(2, to: "Giant Steps (live)"), expectingOneRowOtherwise: "no 2")
            }
            #expect(try Self.titles(connection) == ["Blue Train", "Giant Steps (live)"])
        }
    }

    @Test func manyWritesGoInPipelinesOfAHandful() throws {
        try Albums.withAlbums { connection, _ in
            let count = 2 * PostgreSQLConnection.deferredWriteLimit + 2
            let trips = try connection.countingRoundTrips { () throws in
                try connection.inTransaction(.readCommitted) { () throws in
                    for id in 3..<(3 + count) {
                        try connection.sendLater(PostgreSQLStatement("INSERT INTO album VALUES ($1, 'x')", [id]))
                    }
                }
            }
            // BEGIN; two pipelines of the limit's size; the last two with COMMIT.
            #expect(trips == 4)
            #expect(try connection.query("SELECT count(*) FROM album")[0].decode(Int.self, at: 0) == 2 + count)
        }
    }

    @Test func outsideATransactionAWriteRunsAtOnce() throws {
        try Albums.withAlbums { connection, _ in
            try connection.sendLater(Self.rename(1, to: "Blue Train (mono)"), expectingOneRowOtherwise: "no album 1")
            #expect(try Self.titles(connection) == ["Blue Train (mono)", "Giant Steps"])
            let error = #expect(throws: PostgreSQLError.self) { () throws in
                try connection.sendLater(Self.rename(9, to: "renamed"), expectingOneRowOtherwise: "no album 9")
            }
            #expect(error?.message == "no album 9")
        }
    }
}

extension PostgreSQLConnection {
    /// The message of what `body` throws in a rolled-back savepoint, or `nil`.
    fileprivate func inRolledBackSavepointFailure(_ body: () throws -> Void) -> String? {
        do {
            try inRolledBackSavepoint(body)
            return nil
        } catch {
            return (error as? PostgreSQLError)?.message ?? "\(error)"
        }
    }
}
#endif

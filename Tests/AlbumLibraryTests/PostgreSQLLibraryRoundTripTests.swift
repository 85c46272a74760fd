#if PostgreSQL
@testable import AlbumLibrary
import CommandKit
import CommandStore
import Foundation
import PostgreSQLCommandStore
import PostgreSQLDatabase
import PostgreSQLTestSupport
import Testing

/// What a change of a server library costs in round trips, each one a wait every other client's
/// change makes too while the history's lock is held: an add, an edit and a move take two (`BEGIN`
/// with the lock and the change's first reads; its writes and the history's with `COMMIT`), a
/// delete three (it asks whether the album showed a cover), an undo three (the entries it reaches
/// first travel with the lock, even when another client's commit emptied the cache), a redo of a
/// delete six (the branches it may follow). And an album write deferred to the commit that finds
/// its album gone outside albums fails the commit: nothing is committed, and the undo (or the
/// jump) is refused naming its step.
@Suite(.enabled(if: PostgreSQLTestServer.isEnabled)) struct PostgreSQLLibraryRoundTripTests {
    private static func roundTrips(of session: LibrarySession, _ body: () throws -> Void) throws -> Int {
        try #require(session.library.server).connection.countingRoundTrips(body)
    }

    @Test func aChangeTakesTwoRoundTripsAndAnUndoThree() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        try LibrarySession.create(postgreSQL: database.url)
        let ada = try LibrarySession.open(postgreSQL: database.url, author: "ada")
        let grace = try LibrarySession.open(postgreSQL: database.url, author: "grace")
        for index in 0..<20 { try ada.add(Album(title: "album \(index)", artist: "Various")) }
        let cost: (String, () throws -> Void) throws -> Int = { _, body in try Self.roundTrips(of: ada, body) }

        #expect(try cost("add") { try ada.add(Album(title: "Blue Train", artist: "John Coltrane"), at: 5) } == 2)
        #expect(try cost("edit") { try ada.edit(.position(3), changes: AlbumChanges(year: 1957)) } == 2)
        #expect(try cost("move down") { try ada.move(.position(3), to: 10) } == 2)
        #expect(try cost("move up") { try ada.move(.position(12), to: 2) } == 2)
        #expect(try cost("delete") { try ada.delete(.position(4)) } == 3)
        #expect(try cost("undo") { try ada.undo() } == 3)
        // A redo of the delete: the lock, the parked branches' count (a redo may follow one), the
        // album at its position, the delete with its cover's read, the branch the next redo would
        // follow, and the commit.
        #expect(try cost("redo") { try ada.redo() } == 6)
        // Another client's commit empties ada's cache of the history: the entries an undo reaches
        // first (the step's, with its payload, and the next undo's record) travel with the lock.
        try grace.edit(.position(1), changes: AlbumChanges(genre: "Jazz"))
        #expect(try cost("edit after grace's") { try ada.edit(.position(2), changes: AlbumChanges(year: 1958)) } == 2)
        try grace.edit(.position(1), changes: AlbumChanges(genre: "Bebop"))
        #expect(try cost("undo after grace's") { try ada.undo() } == 3)

        // 21 albums added, one deleted (undone, redone), grace's second edit undone.
        #expect(try grace.library.count() == 20)
        #expect(try grace.library.album(at: 1).genre == "Jazz")
    }

    @Test func aWriteSentWithTheCommitThatFindsItsAlbumGoneCommitsNothing() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        try LibrarySession.create(postgreSQL: database.url)
        let ada = try LibrarySession.open(postgreSQL: database.url, author: "ada")
        try ada.add(Album(title: "Blue Train", artist: "John Coltrane"))
        try ada.add(Album(title: "Giant Steps", artist: "John Coltrane"))
        // psql, which knows nothing of the history, deletes the album the last step added: the
        // undo's DELETE, sent with the commit, changes no row.
        let psql = try database.connect()
        #expect(try psql.execute("DELETE FROM album WHERE title = 'Giant Steps'") == 1)
        let revision = try #require(
            try psql.query("SELECT revision FROM albums_history_header").first?.decode(Int.self, at: 0))

        let refusal = try #require(throws: LibraryError.self) { try ada.undo() }
        #expect(refusal.code == .stepNoLongerApplies)
        #expect(
            refusal.message.hasPrefix(
                "cannot undo step 2 “Add “Giant Steps””: cannot undo Add: the library no longer matches its history"),
            "\(refusal.message)")
        // Nothing committed: the history's revision and index, and the albums, are as they were.
        #expect(try psql.query("SELECT revision FROM albums_history_header").first?.decode(Int.self, at: 0) == revision)
        #expect(try ada.history.committedIndex() == 2)
        #expect(try ada.library.albums().map(\.title) == ["Blue Train"])
        // The next change goes on as usual, and so does an undo of a step that still applies.
        try ada.edit(.position(1), changes: AlbumChanges(year: 1957))
        #expect(try ada.undo().map(\.text) == ["Edit “Blue Train”"])
    }

    /// A jump over several steps sends each step's writes before the next step runs: the one whose
    /// write finds its album gone is named, and nothing of the jump is committed.
    @Test func aJumpNamesTheStepWhoseWriteFindsItsAlbumGone() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        try LibrarySession.create(postgreSQL: database.url)
        let ada = try LibrarySession.open(postgreSQL: database.url, author: "ada")
        for title in ["Blue Train", "Giant Steps", "Lush Life"] {
            try ada.add(Album(title: title, artist: "John Coltrane"))
        }
        let psql = try database.connect()
        #expect(try psql.execute("DELETE FROM album WHERE title = 'Giant Steps'") == 1)
        let revision = try #require(
            try psql.query("SELECT revision FROM albums_history_header").first?.decode(Int.self, at: 0))

        // Back to the start: step 3's undo applies, step 2's does not.
        let refusal = try #require(throws: LibraryError.self) { try ada.jump(to: .step(.root)) }
        #expect(refusal.code == .stepNoLongerApplies)
        #expect(
            refusal.message.hasPrefix(
                "cannot undo step 2 “Add “Giant Steps””: cannot undo Add: the library no longer matches its history"),
            "\(refusal.message)")
        #expect(try psql.query("SELECT revision FROM albums_history_header").first?.decode(Int.self, at: 0) == revision)
        #expect(try ada.history.committedIndex() == 3)
        #expect(try ada.library.albums().map(\.title) == ["Blue Train", "Lush Life"])
        // A jump over the steps that still apply goes on.
        #expect(try ada.jump(to: .step(HistoryNode.ID(2))).jump.undone.map(\.text) == ["Add “Lush Life”"])
    }
}
#endif

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

    /// The undo's DELETE, sent with the commit, changes no row.
    @Test func aWriteSentWithTheCommitThatFindsItsAlbumGoneCommitsNothing() throws {
        try Self.expectStepTwoRefused(afterAdding: ["Blue Train", "Giant Steps"], by: { try $0.undo() }) {
            (ada) throws in
            // The next change goes on as usual, and so does an undo of a step that still applies.
            try ada.edit(.position(1), changes: AlbumChanges(year: 1957))
            #expect(try ada.undo().map(\.text) == ["Edit “Blue Train”"])
        }
    }

    /// A jump over several steps sends each step's writes before the next step runs: the one whose
    /// write finds its album gone is named. Back to the start here: step 3's undo applies, step 2's
    /// does not.
    @Test func aJumpNamesTheStepWhoseWriteFindsItsAlbumGone() throws {
        try Self.expectStepTwoRefused(
            afterAdding: ["Blue Train", "Giant Steps", "Lush Life"], by: { try $0.jump(to: .step(.root)) }
        ) { (ada) throws in
            // A jump over the steps that still apply goes on.
            #expect(try ada.jump(to: .step(HistoryNode.ID(2))).jump.undone.map(\.text) == ["Add “Lush Life”"])
        }
    }

    /// Adds `titles` to a library of the test's own, has psql (which knows nothing of the history)
    /// delete “Giant Steps”, added by step 2, then expects `change` to be refused naming that step
    /// and to commit nothing; `then` goes on with the session.
    private static func expectStepTwoRefused(
        afterAdding titles: [String], by change: (LibrarySession) throws -> Void, then: (LibrarySession) throws -> Void
    ) throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        try LibrarySession.create(postgreSQL: database.url)
        let ada = try LibrarySession.open(postgreSQL: database.url, author: "ada")
        for title in titles { try ada.add(Album(title: title, artist: "John Coltrane")) }
        let psql = try database.connect()
        #expect(try psql.execute("DELETE FROM album WHERE title = 'Giant Steps'") == 1)
        let revision = { try psql.query("SELECT revision FROM albums_history_header").first?.decode(Int.self, at: 0) }
        let revisionBefore = try revision()

        let refusal = try #require(throws: LibraryError.self) { try change(ada) }
        #expect(refusal.code == .stepNoLongerApplies)
        #expect(
            refusal.message.hasPrefix(
                "cannot undo step 2 “Add “Giant Steps””: cannot undo Add: the library no longer matches its history"),
            "\(refusal.message)")
        // Nothing committed: the history's revision and index, and the albums, are as they were.
        #expect(try revision() == revisionBefore)
        #expect(try ada.history.committedIndex() == titles.count)
        #expect(try ada.library.albums().map(\.title) == titles.filter { $0 != "Giant Steps" })
        try then(ada)
    }
}
#endif

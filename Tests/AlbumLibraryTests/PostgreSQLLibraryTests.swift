#if PostgreSQL
import AlbumLibrary
import CommandKit
import CommandStore
import Foundation
import PostgreSQLDatabase
import Synchronization
import PostgreSQLTestSupport
import TestSupport
import Testing

/// The album library on a PostgreSQL server (`COMMANDKIT_POSTGRES_URL`, a schema per test): two
/// authors' clients change, undo mine and time-travel one library, and a seeded run of every
/// change a session offers gives the same albums and the same answers on PostgreSQL as on SQLite.
@Suite(.enabled(if: PostgreSQLTestServer.isEnabled)) struct PostgreSQLLibraryTests {
    /// A new library in a schema of its own, and two clients of it, "ada" and "grace".
    private func withAuthors(
        _ body: (_ ada: LibrarySession, _ grace: LibrarySession, _ database: PostgreSQLTestServer.Database) throws ->
            Void
    ) throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        #expect(try LibrarySession.create(postgreSQL: database.url) == 0)
        let ada = try LibrarySession.open(postgreSQL: database.url, author: "ada")
        let grace = try LibrarySession.open(postgreSQL: database.url, author: "grace")
        try body(ada, grace, database)
    }

    private func titles(_ session: LibrarySession) throws -> [String] { try session.library.albums().map(\.title) }

    @Test func twoAuthorsChangeUndoMineAndTimeTravelOneLibrary() throws {
        try withAuthors { ada, grace, _ in
            for title in ["Blue Train", "Giant Steps", "Kind of Blue"] {
                try ada.add(Album(title: title, artist: "Various"))
            }
            // Grace names an album by its title, case aside, as committed when her edit runs.
            let edit = try grace.edit(.title("giant steps"), changes: AlbumChanges(year: 1960))
            #expect(edit.position == 2 && edit.album.title == "Giant Steps")
            try ada.delete(.title("Blue Train"))
            try grace.move(.title("Kind of Blue"), to: 1)
            #expect(try titles(ada) == ["Kind of Blue", "Giant Steps"])
            #expect(try ada.refresh() && ada.history.count == 6)

            // Ada takes back her delete only: grace's move stays, and Blue Train is back.
            let undone = try ada.undoMine(author: "ada")
            #expect(undone.text == "Undo Delete “Blue Train” (step 5)", "\(undone)")
            #expect(try Set(titles(grace)) == ["Blue Train", "Giant Steps", "Kind of Blue"])
            #expect(try titles(grace).filter { $0 != "Blue Train" } == ["Kind of Blue", "Giant Steps"])
            // Grace's move is no longer the last step (ada's undo is): undone as a revert of it alone.
            #expect(try grace.undoMine(author: "grace").text == "Undo Move “Kind of Blue” (step 6)")
            #expect(try titles(ada).filter { $0 != "Blue Train" } == ["Giant Steps", "Kind of Blue"])

            // Time travel: back to the state after the first add, then to the newest step again.
            let tree = try grace.historyTree()
            let first = try #require(tree.nodes.first { $0.parent == .root })
            let newest = tree.current
            try grace.jump(to: .step(first.id))
            #expect(try titles(ada) == ["Blue Train"])
            let records = try ada.historySteps().records
            #expect(Set(records.compactMap(\.author)) == ["ada", "grace"])
            try ada.jump(to: .step(newest))
            #expect(try titles(grace).count == 3)
            // A stale jump (the caller showed another current step) changes nothing.
            let stale = #expect(throws: LibraryError.self) {
                try grace.jump(to: .step(first.id), expecting: first.id)
            }
            #expect(stale?.code == .historyChanged)
            #expect(try titles(grace).count == 3)
        }
    }

    /// Every feature works on a server (the history's repair too: `PostgreSQLHistoryRepairTests`);
    /// only the library file's own SQLite connection is refused, in one line.
    @Test func theLibraryFilesConnectionIsRefusedInOneLine() throws {
        try withAuthors { ada, _, _ in
            try ada.add(Album(title: "Blue Train", artist: "John Coltrane"))
            let error = #expect(throws: LibraryError.self) { _ = try ada.database }
            #expect(error?.code == .unsupported && error?.message.contains("\n") == false)
            // Nothing was written by the refusal.
            #expect(try titles(ada) == ["Blue Train"] && ada.history.count == 1)
        }
    }

    /// What `albums list`, `export` and the terminal UI read: pages in one snapshot, the
    /// defaults seeded once, the current album.
    @Test func readsAndTheApplicationsStateWorkOnAServer() throws {
        try withAuthors { ada, grace, _ in
            #expect(try ada.library.seedDefaultsIfNeeded())
            #expect(try grace.library.seedDefaultsIfNeeded() == false)
            let defaults = try titles(grace)
            #expect(defaults.count == 5 && defaults.first == "Best of Bowie")
            var paged: [String] = []
            try ada.library.inOneSnapshot {
                try ada.library.forEachAlbum(batchSize: 2) { paged += $0.map(\.title) }
            }
            #expect(paged == defaults)
            var measured = 0
            try ada.library.forEachAlbumText { title, _, _, hasYear in
                measured += hasYear && !title.isEmpty ? 1 : 0
            }
            #expect(measured == 5)
            let second = try ada.library.album(at: 2)
            try ada.library.setCurrentAlbumID(second.id)
            #expect(try grace.library.currentAlbumID() == second.id)
            try grace.delete(.position(2))
            #expect(try ada.library.currentAlbumID() == nil)
            #expect(try ada.library.coverSummaries(of: [second.id]).isEmpty)
        }
    }

    /// Covers on a server: the bytes come back as stored (`bytea`, bound), a delete keeps its
    /// album's image for the undo, and an image leaves the database with the last step keeping it.
    @Test func coversAreStoredKeptByADeleteAndReleasedWithTheirStep() throws {
        try withAuthors { ada, grace, database in
            try ada.add(Album(title: "Blue Train", artist: "John Coltrane"))
            try ada.add(Album(title: "Giant Steps", artist: "John Coltrane"))
            // Every byte value, and more than a page of them.
            let large = try CoverImage(bytes: CoverTests.image("png") + Data((0..<300_000).map { UInt8($0 % 251) }))
            try ada.setCover(.title("Blue Train"), to: large)
            let id = try grace.library.album(at: 1).id
            #expect(try grace.library.cover(of: id) == large)
            #expect(try grace.library.coverSummaries(of: [id, UUID()]).count == 1)
            let same = #expect(throws: LibraryError.self) { try grace.setCover(.position(1), to: large) }
            #expect(same?.code == .nothingToChange)

            // Grace deletes the album: its image is kept for the undo, then shown again.
            try grace.delete(.title("Blue Train"))
            #expect(try ada.library.coverSummary(of: id) == nil)
            try grace.undo()
            #expect(try ada.library.cover(of: id) == large)
            try ada.setCover(.position(1), to: try CoverTests.cover("second"))
            try ada.undo()
            #expect(try grace.library.cover(of: id) == large)

            // A new step drops the undone one from the redo tail: its image leaves the database.
            let images = {
                try database.connect().query("SELECT count(*) FROM cover_image").first?.decode(Int.self, at: 0)
            }
            #expect(try images() == 2)
            try grace.history.setUndoLimit(1)
            try grace.setCover(.position(1), to: nil)
            #expect(try images() == 1)
            try grace.undo()
            #expect(try ada.library.cover(of: id) == large)
        }
    }

    /// Imports and replacements on a server: duplicates skipped, a dry run writes nothing, undo
    /// and redo move the albums between the library and their batch, a replacement keeps the
    /// replaced albums and their covers.
    @Test func importsAndReplacementsUndoAndRedo() throws {
        try withAuthors { ada, grace, _ in
            try ada.add(Album(title: "Blue Train", artist: "John Coltrane", year: 1958))
            try ada.setCover(.position(1), to: try CoverTests.cover("train"))
            let file = [
                Album(title: "BLUE TRAIN", artist: "john coltrane", year: 1958), Album(title: "Solo", artist: "A"),
                Album(title: "Duo", artist: "B"),
            ]
            let preview = try grace.importAlbums(file, keepingDuplicates: false, dryRun: true)
            #expect(preview.albums.count == 2 && preview.skipped.count == 1 && preview.firstPosition == 2)
            #expect(try grace.library.count() == 1 && grace.history.count == 2)
            let outcome = try grace.importAlbums(file, keepingDuplicates: false)
            #expect(outcome.command?.text == "Import 2 albums")
            #expect(try titles(ada) == ["Blue Train", "Solo", "Duo"])
            try ada.undo()
            #expect(try titles(grace) == ["Blue Train"] && grace.library.stagedImportCount() == 2)
            try ada.redo()
            #expect(try titles(grace) == ["Blue Train", "Solo", "Duo"] && grace.library.stagedImportCount() == 0)

            let backup = try ada.library.albums()
            let replacement = try grace.replaceAlbums(with: [Album(title: "New", artist: "C")])
            #expect(try replacement.replacedCount == 3 && titles(ada) == ["New"])
            #expect(try ada.library.coverSummaries(of: backup.map(\.id)).isEmpty)
            try ada.undo()
            #expect(try ada.library.albums() == backup)
            #expect(try grace.library.coverSummary(of: backup[0].id)?.byteCount == 13)
            let same = #expect(throws: LibraryError.self) { try ada.replaceAlbums(with: backup) }
            #expect(same?.code == .nothingToChange)
        }
    }

    /// Four clients import the same file at once: which albums are duplicates is decided in each
    /// import's transaction, after the history's lock, so one client imports them and the others
    /// find them there (nothing to import), never two copies.
    @Test func concurrentImportsOfOneFileImportItOnce() throws {
        try withAuthors { ada, _, database throws in
            let file = (1...40).map { Album(title: "Album \($0)", artist: "A", year: 2000) }
            let outcomes = LockedFailures()
            DispatchQueue.concurrentPerform(iterations: 4) { client in
                do {
                    let session = try LibrarySession.open(postgreSQL: database.url, author: "client \(client)")
                    let fresh = file.map { Album(title: $0.title, artist: $0.artist, year: $0.year) }
                    outcomes.append(
                        "imported \(try session.importAlbums(fresh, keepingDuplicates: false).albums.count)")
                } catch let error as LibraryError {
                    outcomes.append("\(error.code)")
                } catch {
                    outcomes.append("\(error)")
                }
            }
            #expect(
                outcomes.all.sorted() == ["imported 40", "nothing-to-change", "nothing-to-change", "nothing-to-change"])
            #expect(try ada.library.count() == 40 && ada.library.stagedImportCount() == 0)
        }
    }

    /// `albums stats` on a server: the figures a file gives, the size its tables take there.
    @Test func statisticsAreReadOnTheServer() throws {
        try withAuthors { ada, _, _ in
            try ada.add(Album(title: "Blue Train", artist: "John Coltrane", genre: "Jazz", year: 1958))
            try ada.add(Album(title: "Low", artist: "David Bowie", year: 1977))
            try ada.add(Album(title: "Untitled", artist: "David Bowie"))
            let statistics = try ada.statistics()
            #expect(statistics.albums == 3 && statistics.artists == 2 && statistics.genres == 1)
            #expect(statistics.firstYear == 1958 && statistics.lastYear == 1977 && statistics.albumsWithoutYear == 1)
            #expect(statistics.historySteps == 3 && statistics.bytesOnDisk > 8192)
        }
    }

    /// A library a version-1 program made (albums and history only) is brought up to this
    /// version when it is opened: covers and imports work on it at once.
    @Test func openingAnOlderLibraryMigratesIt() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        try LibrarySession.create(postgreSQL: database.url)
        let connection = try database.connect()
        try Self.makeVersionOne(connection)
        let session = try LibrarySession.open(postgreSQL: database.url)
        #expect(try connection.schemaVersion(of: "albums") == 3)
        try session.importAlbums([Album(title: "Blue Train", artist: "John Coltrane")])
        try session.setCover(.position(1), to: try CoverTests.cover("train"))
        #expect(try session.library.coverSummary(of: session.library.album(at: 1).id) != nil)
        #expect(try LibrarySession.create(postgreSQL: database.url) == 3)
    }

    /// Takes a library back to what a version-1 program made: albums and history only.
    static func makeVersionOne(_ connection: PostgreSQLConnection) throws {
        try connection.execute(
            "DROP TABLE import_batch, replaced_album, cover_image, album_cover, kept_cover, bulk_album")
        try connection.execute("UPDATE commandkit_schema SET version = 1 WHERE identifier = 'albums'")
    }

    /// Forty albums inserted into the same gap use it up (keys halve each time): the keys are
    /// spread out again, in one statement, keeping the order.
    @Test func aUsedUpGapIsSpreadKeepingTheOrder() throws {
        try withAuthors { ada, grace, _ in
            try ada.add(Album(title: "first", artist: "A"))
            try ada.add(Album(title: "last", artist: "A"))
            var expected = ["first", "last"]
            for number in 0..<40 {
                let session = number % 2 == 0 ? ada : grace
                try session.add(Album(title: "n\(number)", artist: "A"), at: 2)
                expected.insert("n\(number)", at: 1)
                try session.move(.title("n\(number)"), by: 1)
                expected.swapAt(1, 2)
                try session.undo()
                expected.swapAt(1, 2)
            }
            #expect(try titles(ada) == expected)
            for position in [1, 20, 42] {
                #expect(try ada.library.position(of: ada.library.album(at: position).id) == position)
            }
        }
    }

    /// Rows are read from their texts (ids through `UUIDText`): an id written in lower case by
    /// another program reads as the same album; a malformed id, year or key is a storage error.
    @Test func albumRowsAreReadFromTheirTextsAndMalformedOnesRefused() throws {
        try withAuthors { ada, _, database in
            let album = Album(title: "Blue Train", artist: "John Coltrane", genre: "Jazz", year: 1958)
            try ada.add(album)
            try ada.add(Album(title: "Untitled", artist: "Nobody"))
            let connection = try database.connect()
            try connection.execute("UPDATE album SET id = lower(id) WHERE title = $1", ["Blue Train"])
            let read = try ada.library.albums()
            #expect(read.first == album && read.last?.year == nil)
            for (column, value) in [("id", "not-a-uuid"), ("year", "19x8"), ("sort_key", "key")] {
                let before =
                    try connection.query("SELECT \(column)::text FROM album WHERE title = $1", ["Untitled"])
                    .first?.columns.first ?? nil
                // The column's type is changed to text for the malformed value, then back.
                try connection.execute("ALTER TABLE album ALTER COLUMN \(column) TYPE text")
                try connection.execute("UPDATE album SET \(column) = $1 WHERE title = $2", [value, "Untitled"])
                let refused = #expect(throws: LibraryError.self) { try ada.library.albums() }
                #expect(refused?.code == .storage && refused?.message.contains(value) == true, "\(column)")
                try connection.execute("UPDATE album SET \(column) = $1 WHERE title = $2", [before, "Untitled"])
            }
        }
    }

    @Test func aDatabaseWithoutALibraryOrWithANewerOneIsRefused() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        let missing = #expect(throws: LibraryError.self) { try LibrarySession.open(postgreSQL: database.url) }
        #expect(missing?.code == .notALibrary && missing?.message.contains("albums init") == true)
        #expect(try LibrarySession.create(postgreSQL: database.url) == 0)
        #expect(try LibrarySession.create(postgreSQL: database.url) == database.connect().schemaVersion(of: "albums"))
        try database.connect().execute("UPDATE commandkit_schema SET version = 99 WHERE identifier = 'albums'")
        let newer = #expect(throws: LibraryError.self) { try LibrarySession.open(postgreSQL: database.url) }
        #expect(newer?.code == .newerLibrary)
        let refused = #expect(throws: LibraryError.self) { try LibrarySession.create(postgreSQL: database.url) }
        #expect(refused?.code == .newerLibrary)
    }

    /// A library made by a program of schema version 1 (before bulk changes kept their albums on
    /// the server) is brought up to date by the first client that opens it: a bulk change then
    /// runs, and is undone and redone.
    @Test func openingAnOlderLibraryMigratesItForBulkChanges() throws {
        let database = try PostgreSQLTestServer.Database()
        defer { database.drop() }
        try LibrarySession.create(postgreSQL: database.url)
        let connection = try database.connect()
        try Self.makeVersionOne(connection)
        let ada = try LibrarySession.open(postgreSQL: database.url, author: "ada")
        #expect(try connection.schemaVersion(of: "albums") > 1)
        #expect(try LibrarySession.create(postgreSQL: database.url) == connection.schemaVersion(of: "albums"))
        #expect(try ada.library.seedDefaultsIfNeeded())
        let edit = try ada.editAlbums(
            .matching(try AlbumQuery(parsing: "year:2000..")), changes: AlbumChanges(genre: "Rock"))
        #expect(edit.text == "Edit 3 albums" && edit.members.map(\.position) == [2, 4, 5])
        #expect(try ada.library.stagedBulkAlbumCount() == 3)
        var rock: [Int] = []
        try ada.library.forEachAlbum(matching: try AlbumQuery(parsing: "genre:rock"), sort: AlbumSort(.position)) {
            rock += $0.map(\.position)
        }
        #expect(rock == [2, 4, 5])
        try ada.undo()
        #expect(try ada.library.albums().allSatisfy { $0.genre == "Pop" })
        try ada.redo()
        #expect(try ada.library.albums().filter { $0.genre == "Rock" }.count == 3)
    }

    /// A bulk change held to the albums a caller showed changes nothing when another client
    /// changed which albums the query matches in between; a query's values are never SQL.
    @Test func aBulkChangeIsDecidedInItsTransaction() throws {
        try withAuthors { ada, grace, _ in
            #expect(try ada.library.seedDefaultsIfNeeded())
            let sun = AlbumSelection.matching(try AlbumQuery(parsing: "sun"))
            let shown = try ada.albums(in: sun)
            #expect(shown.map(\.album.title) == ["Nothing Like The Sun", "Staring at the Sun"])
            try grace.add(Album(title: "Sun King", artist: "The Beatles"))
            let stale = #expect(throws: LibraryError.self) {
                try ada.deleteAlbums(sun, expecting: Set(shown.map(\.album.id)))
            }
            #expect(stale?.code == .historyChanged)
            #expect(try ada.library.count() == 6)
            let deleted = try ada.deleteAlbums(sun)
            #expect(deleted.members.map(\.album.title) == ["Nothing Like The Sun", "Staring at the Sun", "Sun King"])
            let moved = try grace.moveAlbums(.albums([.title("American Pie"), .position(1)]), to: 2)
            #expect(moved.members.map(\.position) == [1, 3])
            #expect(try titles(ada) == ["It's My Life", "Best of Bowie", "American Pie"])
            for text in ["'; DROP TABLE album; --", "$1", "\\", "%_"] {
                var found = 0
                try ada.library.forEachAlbum(matching: AlbumQuery.containing(text), sort: AlbumSort(.title)) {
                    found += $0.count
                }
                #expect(found == 0, "\(text)")
            }
            try grace.undo(count: 2)
            #expect(try titles(ada) == Album.defaults().map(\.title) + ["Sun King"])
        }
    }

    /// Four clients at once, each adding albums and deleting them by title: every change is
    /// decided in its transaction, so none is lost, doubled, or applied to another client's album.
    @Test func concurrentClientsLoseNothing() throws {
        try withAuthors { ada, _, database throws in
            let clients = 4
            let rounds = 8
            let failures = LockedFailures()
            DispatchQueue.concurrentPerform(iterations: clients) { client in
                do {
                    let session = try LibrarySession.open(postgreSQL: database.url, author: "client \(client)")
                    for round in 0..<rounds {
                        try session.add(Album(title: "c\(client) r\(round)", artist: "A"))
                        try session.add(Album(title: "c\(client) gone \(round)", artist: "A"), at: 1)
                        let deleted = try session.delete(.title("c\(client) gone \(round)"))
                        if deleted.album.title != "c\(client) gone \(round)" {
                            failures.append("client \(client) deleted \(deleted.album.title)")
                        }
                    }
                } catch {
                    failures.append("client \(client): \(error)")
                }
            }
            #expect(failures.all.isEmpty, "\(failures.all)")
            let expected = (0..<clients).flatMap { client in (0..<rounds).map { "c\(client) r\($0)" } }
            #expect(try titles(ada).sorted() == expected.sorted())
            #expect(try ada.historySteps().records.count == clients * rounds * 3)
        }
    }

    /// The same seeded run of changes, undos, undo mine and jumps, by two authors, on a library
    /// file and on a server: after every step both hold the same albums and answered the same.
    @Test(arguments: TwinOperation.seeds)
    func postgreSQLAnswersAsSQLiteDoes(seed: UInt64) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("albums-twin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("library.sqlite").path
        try withAuthors { ada, grace, _ in
            let fileAda = try LibrarySession.open(path: path)
            fileAda.history.author = "ada"
            let fileGrace = try LibrarySession.open(path: path)
            fileGrace.history.author = "grace"
            var random = SplitMix64(seed: seed)
            // A fixed opening makes every kind of change once; the seeded run follows.
            var steps = TwinOperation.opening
            for _ in 0..<200 {
                steps.append((TwinOperation.random(&random), random.next() % 2 == 0 ? "ada" : "grace"))
            }
            var kinds: [String: Int] = [:]
            for (step, (operation, author)) in steps.enumerated() {
                let onFile = operation.run(on: author == "ada" ? fileAda : fileGrace, author: author)
                let onServer = operation.run(on: author == "ada" ? ada : grace, author: author)
                kinds[operation.kind, default: 0] += onServer.hasPrefix("ok") ? 1 : 0
                try #require(
                    onFile == onServer, "seed \(seed), step \(step), \(author) \(operation): \(onFile) ≠ \(onServer)")
                let albums = try fileAda.library.albums()
                try #require(
                    albums == (try ada.library.albums()),
                    "seed \(seed), step \(step), \(author) \(operation): the libraries differ")
                // The covers shown, and what undone imports keep staged.
                let ids = albums.map(\.id)
                try #require(
                    try fileAda.library.coverSummaries(of: ids) == ada.library.coverSummaries(of: ids)
                        && fileAda.library.stagedImportCount() == ada.library.stagedImportCount(),
                    "seed \(seed), step \(step), \(author) \(operation): the covers or staged imports differ")
            }
            #expect(try fileGrace.historySteps().records.map(\.text) == grace.historySteps().records.map(\.text))
            // Every kind of change ran at least once, so the comparison covered it.
            let missing = TwinOperation.kinds.filter { (kinds[$0] ?? 0) == 0 }
            #expect(missing.isEmpty, "seed \(seed): never applied: \(missing)")
        }
    }
}

/// Failures collected from concurrent clients.
private final class LockedFailures: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ failure: String) { storage.withLock { $0.append(failure) } }
    var all: [String] { storage.withLock { $0 } }
}

/// One change of the twin run, made the same way on either library.
private enum TwinOperation: CustomStringConvertible {
    case add(Album, after: AlbumReference?)
    case addAt(Album, Int)
    case delete(AlbumReference)
    case edit(AlbumReference, AlbumChanges)
    case move(AlbumReference, by: Int)
    case moveTo(AlbumReference, Int)
    case undo(Int)
    case redo(Int)
    case undoMine
    case redoMine
    case jump(back: Int)
    case search(String, AlbumOrder)
    case setCover(AlbumReference, String?)
    case importAlbums([Album], keepingDuplicates: Bool)
    case replace([Album])
    case query(String, sort: String)
    case bulkDelete(AlbumSelection)
    case bulkEdit(AlbumSelection, AlbumChanges)
    case bulkMove(AlbumSelection, to: Int)

    static let kinds = [
        "add", "delete", "edit", "move", "undo", "redo", "undoMine", "redoMine", "jump", "search", "cover", "import",
        "replace", "query", "bulkDelete", "bulkEdit", "bulkMove",
    ]

    /// Two fixed seeds; `TWIN_SEEDS=N` runs N more, from the clock (each printed when it fails).
    static let seeds: [UInt64] = {
        let more = ProcessInfo.processInfo.environment["TWIN_SEEDS"].flatMap { Int($0) } ?? 0
        let start = UInt64(Date().timeIntervalSince1970 * 1000)
        return [0x5EED_2026_1205, 0xA1B0_0029] + (0..<UInt64(more)).map { start &+ $0 }
    }()

    var kind: String {
        switch self {
        case .add, .addAt: "add"
        case .delete: "delete"
        case .edit: "edit"
        case .move, .moveTo: "move"
        case .undo: "undo"
        case .redo: "redo"
        case .undoMine: "undoMine"
        case .redoMine: "redoMine"
        case .jump: "jump"
        case .search: "search"
        case .setCover: "cover"
        case .importAlbums: "import"
        case .replace: "replace"
        case .query: "query"
        case .bulkDelete: "bulkDelete"
        case .bulkEdit: "bulkEdit"
        case .bulkMove: "bulkMove"
        }
    }

    var description: String {
        switch self {
        case .add(let album, let after): "add \(album.title) after \(String(describing: after))"
        case .addAt(let album, let position): "add \(album.title) at \(position)"
        case .delete(let reference): "delete \(reference)"
        case .edit(let reference, let changes): "edit \(reference) \(changes)"
        case .move(let reference, let offset): "move \(reference) by \(offset)"
        case .moveTo(let reference, let target): "move \(reference) to \(target)"
        case .undo(let count): "undo \(count)"
        case .redo(let count): "redo \(count)"
        case .undoMine: "undo mine"
        case .redoMine: "redo mine"
        case .jump(let back): "jump \(back) nodes back"
        case .search(let text, let order): "search \(text) by \(order)"
        case .setCover(let reference, let tail): "cover \(reference) \(tail ?? "removed")"
        case .importAlbums(let albums, let keeping): "import \(albums.map(\.title)) keeping \(keeping)"
        case .replace(let albums): "replace with \(albums.map(\.title))"
        case .query(let text, let sort): "list \(text) --sort \(sort)"
        case .bulkDelete(let selection): "delete \(selection)"
        case .bulkEdit(let selection, let changes): "edit \(selection) \(changes)"
        case .bulkMove(let selection, let to): "move \(selection) to \(to)"
        }
    }

    /// Titles that collide on purpose: exact twins, and twins with case and accents aside.
    private static let titles = ["Blue Train", "blue train", "Björk", "Bjork", "Giant Steps", "Kind of Blue"]

    /// Queries of every kind of term: exact in SQL (words, years, ids, their negations and
    /// alternatives) and narrowed down there, decided by the matcher (fields, regular expressions).
    private static let queries = [
        "blue", "-blue year:..1980", "title::(?i)^b", "artist:\"artist 2\" , genre:pop", "year:1970..", "id:a",
        "bjork , train", "genre:jazz -artist:1", "o year:1950..1999", "^title::Blue", "it's $1 , \"blue\u{0}\"",
    ]

    /// Every kind of change once, each where it applies: single and bulk changes, a query, then
    /// undo and redo, and an author's own step undone and redone.
    static let opening: [(operation: TwinOperation, author: String)] = {
        func album(_ title: String, _ genre: String = "", _ year: Int? = nil) -> Album {
            Album(title: title, artist: "Artist 1", genre: genre, year: year)
        }
        return [
            (.add(album("Blue Train", "Jazz", 1958), after: nil), "ada"),
            (.add(album("Björk", "", 1997), after: nil), "grace"),
            (.add(album("Giant Steps", "Jazz", 1960), after: nil), "ada"),
            (.addAt(album("Kind of Blue", "", 1959), 2), "grace"),
            (.search("blue", .year), "ada"),
            (.query("-genre:jazz , year:..1959", sort: "year-,title"), "grace"),
            (.edit(.title("Björk"), AlbumChanges(year: 1995)), "ada"),
            (.move(.position(1), by: 1), "grace"),
            (.bulkEdit(.matching(try! AlbumQuery(parsing: "blue")), AlbumChanges(genre: "Jazz")), "ada"),
            (.bulkMove(.albums([.position(3), .position(4)]), to: 1), "grace"),
            (.bulkDelete(.matching(try! AlbumQuery(parsing: "-genre:jazz"))), "grace"),
            (.delete(.title("Giant Steps")), "ada"),
            (.undo(1), "ada"),
            (.redo(1), "grace"),
            (.add(album("Solo"), after: nil), "ada"),
            (.undoMine, "ada"),
            (.redoMine, "ada"),
            (.jump(back: 2), "grace"),
            (.setCover(.position(1), "a"), "ada"),
            (.importAlbums([album("Imported", "Pop", 2001), album("Blue Train")], keepingDuplicates: false), "grace"),
            (.undo(1), "grace"),
            (.replace([album("Replacement", "Jazz", 1999)]), "ada"),
            (.undo(1), "ada"),
        ]
    }()

    static func random(_ random: inout SplitMix64) -> TwinOperation {
        func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
        func reference() -> AlbumReference {
            pick(3) == 0 ? .title(titles[pick(titles.count)]) : .position(pick(8) + 1)
        }
        func album() -> Album {
            Album(
                id: UUID(uuid: uuid(random.next(), random.next())), title: titles[pick(titles.count)],
                artist: "Artist \(pick(3))", year: pick(2) == 0 ? nil : 1950 + pick(60))
        }
        func selection() -> AlbumSelection {
            pick(2) == 0
                ? .matching(try! AlbumQuery(parsing: queries[pick(queries.count)]))
                : .albums((0...pick(2)).map { _ in reference() })
        }
        switch pick(23) {
        case 0, 1, 2:
            return .add(album(), after: pick(3) == 0 ? reference() : nil)
        case 3: return .delete(reference())
        case 4, 5:
            let changes: AlbumChanges =
                switch pick(4) {
                case 0: AlbumChanges(title: titles[pick(titles.count)])
                case 1: AlbumChanges(artist: "Artist \(pick(3))")
                case 2: AlbumChanges(genre: ["Jazz", "Pop"][pick(2)])
                default: AlbumChanges(year: 1950 + pick(60))
                }
            return .edit(reference(), changes)
        case 6: return .move(reference(), by: pick(5) - 2)
        case 7: return .moveTo(reference(), pick(6) + 1)
        case 8: return .undo(pick(2) + 1)
        case 9: return .redo(pick(2) + 1)
        case 10: return .undoMine
        case 11: return .redoMine
        case 12: return .jump(back: pick(4) + 1)
        case 13:
            let texts = ["blue", "BJÖRK", "artist 1", "train", "o", "jazz", ""]
            return .search(texts[pick(texts.count)], [.position, .title, .artist, .year][pick(4)])
        case 14:
            let sorts = ["position", "title", "year-,title", "artist-,year+", "position-", "year"]
            return .query(queries[pick(queries.count)], sort: sorts[pick(sorts.count)])
        case 15: return .bulkDelete(selection())
        case 16:
            let changes: AlbumChanges =
                switch pick(3) {
                case 0: AlbumChanges(genre: ["Jazz", "Pop"][pick(2)])
                case 1: AlbumChanges(year: 1950 + pick(60))
                default: AlbumChanges(artist: "Artist \(pick(3))")
                }
            return .bulkEdit(selection(), changes)
        case 17: return .bulkMove(selection(), to: pick(6) + 1)
        case 18, 19: return .setCover(reference(), pick(3) == 0 ? nil : ["a", "b", "c"][pick(3)])
        case 20: return .importAlbums((0...pick(3)).map { _ in album() }, keepingDuplicates: pick(3) == 0)
        // A replacement half the time, else a redo mine, which needs an undo mine just before it.
        case 21: return pick(2) == 0 ? .replace((0..<pick(4)).map { _ in album() }) : .redoMine
        default:
            let album = Album(id: UUID(uuid: uuid(random.next(), random.next())), title: "Solo", artist: "A")
            return .addAt(album, pick(9) + 1)
        }
    }

    /// What a bulk change answered: its text and the albums it touched, where they were.
    private static func answer(_ command: BulkChangeCommand) -> String {
        "ok \(command.text): " + command.members.map { "\($0.position) \($0.album.id)" }.joined(separator: ", ")
    }

    private static func uuid(_ high: UInt64, _ low: UInt64) -> uuid_t {
        let h = withUnsafeBytes(of: high.bigEndian) { Array($0) }
        let l = withUnsafeBytes(of: low.bigEndian) { Array($0) }
        return (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], l[0], l[1], l[2], l[3], l[4], l[5], l[6], l[7])
    }

    /// Runs the change; returns what it answered: "ok" and what it reported, or the refusal's code and message.
    func run(on session: LibrarySession, author: String) -> String {
        do {
            switch self {
            case .add(let album, let after):
                return "ok \(try session.add(album, after: after).position)"
            case .addAt(let album, let position):
                return "ok \(try session.add(album, at: position).position)"
            case .delete(let reference):
                let change = try session.delete(reference)
                return "ok \(change.position) \(change.album.title)"
            case .edit(let reference, let changes):
                let change = try session.edit(reference, changes: changes)
                return "ok \(change.position) \(change.command.changes)"
            case .move(let reference, let offset):
                return "ok \(try session.move(reference, by: offset).command.to)"
            case .moveTo(let reference, let target):
                return "ok \(try session.move(reference, to: target).position)"
            case .undo(let count):
                return "ok " + (try session.undo(count: count).map(\.text).joined(separator: ", "))
            case .redo(let count):
                return "ok " + (try session.redo(count: count).map(\.text).joined(separator: ", "))
            case .undoMine:
                return "ok \(try session.undoMine(author: author).text)"
            case .redoMine:
                return "ok \(try session.redoMine(author: author).text)"
            case .setCover(let reference, let tail):
                let change = try session.setCover(reference, to: try tail.map { try CoverTests.cover($0) })
                return "ok \(change.position) \(change.command.text)"
            case .importAlbums(let albums, let keeping):
                let outcome = try session.importAlbums(albums, keepingDuplicates: keeping)
                return "ok \(outcome.firstPosition) \(outcome.command?.text ?? "") skipped \(outcome.skipped.count)"
            case .replace(let albums):
                let command = try session.replaceAlbums(with: albums)
                return "ok \(command.replacedCount ?? -1) \(command.text)"
            case .search(let text, let order):
                let found = try session.library.albums(matching: text, order: order)
                return "ok " + found.map { "\($0.position) \($0.album.id)" }.joined(separator: ", ")
            case .query(let text, let sort):
                var found: [String] = []
                try session.library.forEachAlbum(
                    matching: try AlbumQuery(parsing: text), sort: try AlbumSort(parsing: sort), batchSize: 3
                ) { rows in found += rows.map { "\($0.position) \($0.album.id)" } }
                return "ok " + found.joined(separator: ", ")
            case .bulkDelete(let selection):
                return Self.answer(try session.deleteAlbums(selection))
            case .bulkEdit(let selection, let changes):
                return Self.answer(try session.editAlbums(selection, changes: changes))
            case .bulkMove(let selection, let to):
                return Self.answer(try session.moveAlbums(selection, to: to))
            case .jump(let back):
                // Nodes are numbered in the order they were made, on both: the same number is the same state.
                let tree = try session.historyTree()
                let target = max(0, tree.current.rawValue - back)
                return "ok \(try session.jump(to: .step(HistoryNode.ID(target))).node)"
            }
        } catch let error as LibraryError {
            return "\(error.code): \(error.message)"
        } catch {
            return "error: \(error)"
        }
    }
}
#endif

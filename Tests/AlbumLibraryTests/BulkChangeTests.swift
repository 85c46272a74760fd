import AlbumLibrary
import CommandStore
import Foundation
import TestSupport
import Testing

/// Changes to several albums as one step: decided in the transaction, undone and redone exactly.
@Suite struct BulkChangeTests {
    private static func makeSession() throws -> (LibrarySession, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bulk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let session = try LibrarySession.open(path: folder.appendingPathComponent("library.sqlite").path)
        return (session, folder)
    }

    private static func query(_ text: String) throws -> AlbumSelection { .matching(try AlbumQuery(parsing: text)) }

    @Test func aDeleteOfAQueryIsOneStepThatUndoesToTheSamePositions() throws {
        let (session, folder) = try Self.makeSession()
        defer { try? FileManager.default.removeItem(at: folder) }
        for number in 1...12 {
            _ = try session.add(Album(title: "T\(number)", artist: "A", genre: number % 3 == 0 ? "Jazz" : "Pop"))
        }
        let before = try session.library.albums()
        let deleted = try session.deleteAlbums(try Self.query("genre:jazz"))
        #expect(deleted.text == "Delete 4 albums")
        #expect(deleted.members.map(\.position) == [3, 6, 9, 12])
        #expect(try session.library.albums() == before.filter { $0.genre != "Jazz" })
        _ = try session.undo()
        #expect(try session.library.albums() == before)
        _ = try session.redo()
        #expect(try session.library.count() == 8)
        #expect(session.undoText == "Delete 4 albums")
    }

    @Test func editsLeaveOutAlbumsThatHaveTheValuesAndMovesKeepLibraryOrder() throws {
        let (session, folder) = try Self.makeSession()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (title, genre) in [("A", "Bop"), ("B", "Jazz"), ("C", "Bop"), ("D", "Pop"), ("E", "Bop")] {
            _ = try session.add(Album(title: title, artist: "X", genre: genre))
        }
        var changes = AlbumChanges()
        changes.genre = "Jazz"
        let edit = try session.editAlbums(try Self.query("genre:bop , genre:jazz"), changes: changes)
        #expect(edit.text == "Edit 3 albums")
        #expect(try session.library.albums().map(\.genre) == ["Jazz", "Jazz", "Jazz", "Pop", "Jazz"])
        #expect(throws: LibraryError.self) { try session.editAlbums(try Self.query("genre:jazz"), changes: changes) }
        let move = try session.moveAlbums(.albums([.position(5), .position(2)]), to: 1)
        #expect(move.text == "Move 2 albums to position 1")
        #expect(try session.library.albums().map(\.title) == ["B", "E", "A", "C", "D"])
        #expect(throws: LibraryError.self) { try session.moveAlbums(.albums([.position(1), .position(2)]), to: 1) }
        #expect(throws: LibraryError.self) { try session.moveAlbums(.albums([.position(1), .position(2)]), to: 5) }
        _ = try session.undo(count: 2)
        #expect(try session.library.albums().map(\.title) == ["A", "B", "C", "D", "E"])
        #expect(try session.library.albums().map(\.genre) == ["Bop", "Jazz", "Bop", "Pop", "Bop"])
    }

    @Test func theSelectionIsResolvedInTheTransactionAndHeldToWhatWasShown() throws {
        let (session, folder) = try Self.makeSession()
        defer { try? FileManager.default.removeItem(at: folder) }
        for title in ["Blue", "Blue Train", "Kind of Blue", "Red"] {
            _ = try session.add(Album(title: title, artist: "X"))
        }
        let shown = try session.albums(in: try Self.query("title:blue"))
        #expect(shown.map(\.album.title) == ["Blue", "Blue Train", "Kind of Blue"])
        // Another change after the albums were shown: the delete changes nothing.
        _ = try session.add(Album(title: "Blue Moon", artist: "Y"))
        #expect {
            try session.deleteAlbums(try Self.query("title:blue"), expecting: Set(shown.map(\.album.id)))
        } throws: { ($0 as? LibraryError)?.code == .historyChanged }
        #expect(try session.library.count() == 5)
        #expect(session.undoText == "Add “Blue Moon”")
        // Refusals: no match, an album named twice.
        #expect { try session.deleteAlbums(try Self.query("title:zzz")) } throws: {
            ($0 as? LibraryError)?.code == .albumNotFound
        }
        #expect { try session.deleteAlbums(.albums([.position(1), .title("Blue")])) } throws: {
            ($0 as? LibraryError)?.message.contains("named twice") == true
        }
        #expect(try session.library.count() == 5)
    }

    /// Undo puts a few thousand scattered albums back in one walk: the same albums, ids and order.
    @Test func undoingABulkDeleteOfScatteredAlbumsRestoresTheExactOrder() throws {
        let seed = UInt64(0x0026_B0CC)
        var random = SplitMix64(seed: seed)
        let (session, folder) = try Self.makeSession()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Runs of deleted albums (1 to 12 long) between runs of kept ones, the first and last included.
        var albums: [Album] = []
        var gone = true
        while albums.count < 3_000 {
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                albums.append(Album(title: "T\(albums.count)", artist: "A", genre: gone ? "Gone" : "Kept"))
            }
            gone.toggle()
        }
        try session.importAlbums(albums)
        let before = try session.library.albums()
        let deleted = try session.deleteAlbums(try Self.query("genre:gone"))
        #expect(deleted.members.count == before.filter { $0.genre == "Gone" }.count, "seed \(seed)")
        #expect(try session.library.albums() == before.filter { $0.genre != "Gone" }, "seed \(seed)")
        _ = try session.undo()
        #expect(try session.library.albums() == before, "seed \(seed): undo")
        _ = try session.redo()
        _ = try session.undo()
        #expect(try session.library.albums() == before, "seed \(seed): undo after redo")
    }

    /// The albums go back in as one statement of JSON rows: every text comes back as it was.
    @Test func undoKeepsQuotesBackslashesAndAnyScriptInTheTexts() throws {
        let (session, folder) = try Self.makeSession()
        defer { try? FileManager.default.removeItem(at: folder) }
        let albums = [
            Album(title: #"He said "hi" \ left"#, artist: "A", genre: "X"),
            Album(title: "Ünïcødé 🎵 日本", artist: #"\u0041"#, genre: "X", year: 1999),
            Album(title: "Plain", artist: "B", genre: "Y"),
            Album(
                title: "Cover", artist: "C", genre: "X", coverURL: URL(string: "https://example.com/a%20b?c=\"d\"")),
        ]
        try session.importAlbums(albums)
        let before = try session.library.albums()
        _ = try session.deleteAlbums(try Self.query("genre:x"))
        #expect(try session.library.count() == 1)
        _ = try session.undo()
        #expect(try session.library.albums() == before)
        #expect(try session.library.albums(matching: "🎵", order: .position).count == 1)
    }

    /// A bulk move into a gap between sort keys too narrow for its albums spreads the keys once
    /// and lands them in order; its undo puts every album back.
    @Test func aBulkMoveIntoANarrowGapKeepsTheOrder() throws {
        let (session, folder) = try Self.makeSession()
        defer { try? FileManager.default.removeItem(at: folder) }
        try session.importAlbums((0..<10).map { Album(title: "T\($0)", artist: "A") })
        // Each add at position 2 halves the gap after the first album: 19 of them leave keys 2 apart.
        for number in 0..<19 { _ = try session.add(Album(title: "N\(number)", artist: "B"), at: 2) }
        let keys = try session.database.fetchAll("SELECT sort_key FROM album ORDER BY sort_key LIMIT 2").map {
            try $0.decode(Int64.self, at: 0)
        }
        #expect(keys.count == 2 && keys[1] - keys[0] < 4)
        let before = try session.library.albums()
        let move = try session.moveAlbums(try Self.query("title:t5 , title:t7 , title:t9"), to: 2)
        #expect(move.members.count == 3)
        let moved = before.filter { ["T5", "T7", "T9"].contains($0.title) }
        var expected = before.filter { !["T5", "T7", "T9"].contains($0.title) }
        expected.insert(contentsOf: moved, at: 1)
        #expect(try session.library.albums() == expected)
        _ = try session.undo()
        #expect(try session.library.albums() == before)
        _ = try session.redo()
        #expect(try session.library.albums() == expected)
    }

    /// Random bulk steps, undone all at once and redone, against the albums they started from.
    @Test func randomBulkStepsUndoAndRedoExactly() throws {
        let seed = UInt64(0xB01C_0026)
        var random = SplitMix64(seed: seed)
        let (session, folder) = try Self.makeSession()
        defer { try? FileManager.default.removeItem(at: folder) }
        let genres = ["Pop", "Jazz", "Rock"]
        try session.importAlbums(
            (0..<60).map { Album(title: "T\($0)", artist: "A\($0 % 4)", genre: genres[$0 % 3], year: 1990 + $0 % 7) })
        var snapshots = [try session.library.albums()]
        for step in 0..<20 {
            let count = try session.library.count()
            let query = try Self.query(
                ["genre:pop", "genre:jazz", "artist:a1", "year:1990..1992", "^genre:rock"][
                    Int.random(in: 0..<5, using: &random)])
            do {
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    let positions = Set((0..<3).map { _ in Int.random(in: 1...count, using: &random) })
                    _ = try session.deleteAlbums(.albums(positions.map { .position($0) }))
                case 1:
                    var changes = AlbumChanges()
                    changes.genre = genres[Int.random(in: 0..<3, using: &random)]
                    _ = try session.editAlbums(query, changes: changes)
                default:
                    let members = try session.albums(in: query).count
                    _ = try session.moveAlbums(query, to: Int.random(in: 1...(count - members + 1), using: &random))
                }
                snapshots.append(try session.library.albums())
            } catch let error as LibraryError where error.code == .nothingToChange || error.code == .albumNotFound {
                continue
            }
            #expect(try session.library.albums() == snapshots.last, "seed \(seed) step \(step)")
        }
        let steps = snapshots.count - 1
        #expect(steps >= 10, "seed \(seed): only \(steps) bulk steps made")
        _ = try session.undo(count: steps)
        #expect(try session.library.albums() == snapshots[0], "seed \(seed): undo of \(steps) steps")
        _ = try session.redo(count: steps)
        #expect(try session.library.albums() == snapshots.last, "seed \(seed): redo of \(steps) steps")
        for index in stride(from: steps - 1, through: 0, by: -1) {
            _ = try session.undo()
            #expect(try session.library.albums() == snapshots[index], "seed \(seed): undo to \(index)")
        }
    }
}

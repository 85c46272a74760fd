import AlbumLibrary
import CommandStore
import Foundation
import Testing

/// "Undo mine": each author undoes their own latest change, even after others changed the
/// library, when and only when no later change touched the same album parts.
@Suite struct UndoMineTests {
    /// Two sessions (two processes' worth: two connections) on one library, as "ada" and "grace".
    private func withAuthors(_ body: (_ ada: LibrarySession, _ grace: LibrarySession) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("albums-mine-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("library.sqlite").path
        let ada = try LibrarySession.open(path: path)
        try ada.library.seedDefaultsIfNeeded()
        ada.history.author = "ada"
        let grace = try LibrarySession.open(path: path)
        grace.history.author = "grace"
        try body(ada, grace)
    }

    private func titles(_ session: LibrarySession) throws -> [String] { try session.library.albums().map(\.title) }

    /// A bulk step touches albums undo mine cannot rebase over: undone on its own only as the last
    /// step (a plain undo), refused behind another author's step, and it blocks an older change's.
    @Test func aBulkStepIsUndoneMineOnlyAsTheLastStep() throws {
        try withAuthors { ada, grace in
            let before = try titles(ada)
            try ada.deleteAlbums(.matching(try AlbumQuery(parsing: "sun")))
            try grace.add(Album(title: "Blue Train", artist: "John Coltrane"))
            #expect {
                try ada.undoMine(author: "ada")
            } throws: { error in
                (error as? LibraryError)?.message.contains("can be undone only as the last step") == true
            }
            try grace.edit(.position(1), changes: AlbumChanges(genre: "Rock"))
            _ = try grace.undo(count: 2)
            #expect(try titles(ada) == before.filter { !$0.contains("Sun") })
            // Now the bulk step is ada's last: undo mine undoes it plainly.
            _ = try ada.undoMine(author: "ada")
            #expect(try titles(ada) == before)
        }
    }

    /// The issue's example: my delete of X, then another author adds Y at position 1; undoing
    /// mine re-inserts X where it belongs now (its position rebased), and Y stays.
    @Test func undoingMyDeleteAfterAnotherAuthorsAddPutsTheAlbumBackWhereItBelongs() throws {
        try withAuthors { ada, grace in
            let before = try titles(ada)
            let deleted = try ada.delete(.position(3)).command
            try grace.add(Album(title: "Blue Train", artist: "John Coltrane"), at: 1)
            let result = try ada.undoMine(author: "ada")
            #expect(result.text == "Undo \(deleted.text) (step 1)")
            #expect(try titles(ada) == ["Blue Train"] + before)
            // Undo mine again: nothing of ada's left (the delete is undone).
            #expect(throws: LibraryError.self) { try ada.undoMine(author: "ada") }
            // Redo mine: the delete again, Blue Train still first.
            #expect(try ada.redoMine(author: "ada").text == "Redo \(deleted.text) (step 1)")
            #expect(try titles(ada) == ["Blue Train"] + before.filter { $0 != before[2] })
            // The undo and its redo cancel out: the delete can be undone once more.
            try grace.add(Album(title: "Giant Steps", artist: "John Coltrane"))
            #expect(try ada.undoMine(author: "ada").text == "Undo \(deleted.text) (step 1)")
            #expect(try titles(ada) == ["Blue Train"] + before + ["Giant Steps"])
        }
    }

    @Test func anEditOfTheSameFieldByAnotherAuthorIsARefusalNamingThem() throws {
        try withAuthors { ada, grace in
            try ada.edit(.position(1), changes: AlbumChanges(year: 1990))
            try grace.edit(.position(1), changes: AlbumChanges(year: 1991))
            let library = try ada.library.albums()
            let count = try ada.history.committedIndex()
            let error = #expect(throws: LibraryError.self) { try ada.undoMine(author: "ada") }
            #expect(error?.code == .conflict)
            #expect(
                error?.message == "grace changed the year of “\(library[0].title)” after your edit (step 2)",
                "\(String(describing: error))")
            #expect(try ada.library.albums() == library && ada.history.committedIndex() == count)
        }
    }

    @Test func anEditOfAnotherFieldCommutes() throws {
        try withAuthors { ada, grace in
            let original = try ada.library.album(at: 1)
            try ada.edit(.position(1), changes: AlbumChanges(year: 1990))
            try grace.edit(.position(1), changes: AlbumChanges(title: "Renamed"))
            try grace.move(.position(1), to: 4)
            #expect(try ada.undoMine(author: "ada").text.hasPrefix("Undo Edit"))
            let now = try #require(try ada.library.albums().first { $0.id == original.id })
            #expect(now.title == "Renamed" && now.year == original.year)
            #expect(try ada.library.albums().firstIndex { $0.id == original.id } == 3)
        }
    }

    @Test func myLastStepIsUndoneAsAPlainUndo() throws {
        try withAuthors { ada, grace in
            try grace.add(Album(title: "Theirs", artist: "G"))
            try ada.move(.position(1), to: 3)
            let result = try ada.undoMine(author: "ada")
            guard case .undone(let record) = result else {
                Issue.record("expected a plain undo, got \(result)")
                return
            }
            #expect(record.author == "ada" && ada.history.index == 1)
            // A move followed by another author's step is not undone on its own.
            try ada.redo()
            try grace.add(Album(title: "Later", artist: "G"))
            let error = #expect(throws: LibraryError.self) { try ada.undoMine(author: "ada") }
            #expect(error?.code == .conflict && error?.message.contains("only as the last step") == true)
            #expect(throws: LibraryError.self) { try grace.redoMine(author: "grace") }
        }
    }

    /// Every pair of an author's change and a later change by someone else: applies or refuses,
    /// as the "Authors and selective undo" article's table says.
    @Test func theConflictTable() throws {
        enum Change: String, CaseIterable {
            case add, delete, editYear, editTitle, move, importAlbums, replace
        }
        // For each of ada's changes (rows), which later changes of grace's let it be undone.
        let commutes: [Change: Set<Change>] = [
            .add: [.add],
            .delete: [.add, .delete, .editYear, .editTitle, .move],
            .editYear: [.add, .editTitle, .move],
            .editTitle: [.add, .editYear, .move],
        ]
        for (mine, allowed) in commutes {
            for theirs in Change.allCases {
                try withAuthors { ada, grace in
                    // Ada's change concerns the album at position 1 (or adds one there); grace's
                    // concerns that album too where it still exists, else another one.
                    let target = try ada.library.album(at: 1)
                    switch mine {
                    case .add: try ada.add(Album(title: "Mine", artist: "A"), at: 1)
                    case .delete: try ada.delete(.position(1))
                    case .editYear: try ada.edit(.position(1), changes: AlbumChanges(year: 1970))
                    case .editTitle: try ada.edit(.position(1), changes: AlbumChanges(title: "Mine"))
                    default: break
                    }
                    let same: AlbumReference = mine == .delete ? .position(2) : .position(1)
                    switch theirs {
                    case .add: try grace.add(Album(title: "Theirs", artist: "G"), at: 1)
                    case .delete: try grace.delete(same)
                    case .editYear: try grace.edit(same, changes: AlbumChanges(year: 1980))
                    case .editTitle: try grace.edit(same, changes: AlbumChanges(title: "Theirs"))
                    case .move: try grace.move(same, to: 3)
                    case .importAlbums: try grace.importAlbums([Album(title: "Imported", artist: "G")])
                    case .replace: try grace.replaceAlbums(with: [Album(title: "Only", artist: "G")])
                    }
                    let before = try ada.library.albums()
                    do {
                        try ada.undoMine(author: "ada")
                        #expect(allowed.contains(theirs), "\(mine) then \(theirs): undone, expected a refusal")
                        let after = try ada.library.albums()
                        switch mine {
                        case .add: #expect(!after.contains { $0.title == "Mine" })
                        case .delete: #expect(after.contains { $0.id == target.id })
                        case .editYear: #expect(after.first { $0.id == target.id }?.year == target.year)
                        case .editTitle: #expect(after.first { $0.id == target.id }?.title == target.title)
                        default: break
                        }
                    } catch let error as LibraryError {
                        #expect(!allowed.contains(theirs), "\(mine) then \(theirs): \(error.message)")
                        #expect(error.code == .conflict && error.message.hasPrefix("grace "), "\(error)")
                        #expect(try ada.library.albums() == before, "\(mine) then \(theirs): changed on a refusal")
                    }
                }
            }
        }
    }
}

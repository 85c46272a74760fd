import AlbumLibrary
import CommandKit
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

    /// A form that sends every field (the page's Edit, a script's PATCH) changes only the ones
    /// that differ: the step records those, so another author's later change to a field sent
    /// unchanged neither blocks undoing mine nor is taken back by it.
    @Test func aFieldSentWithTheValueItHadIsNoPartOfTheEdit() throws {
        try withAuthors { ada, grace in
            let album = try ada.library.album(at: 1)
            let edit = try ada.edit(
                .position(1), changes: AlbumChanges(title: album.title, artist: album.artist, genre: "Glam")
            ).command
            #expect(edit.changes == AlbumChanges(genre: "Glam"))
            try grace.edit(.position(1), changes: AlbumChanges(title: "Bowie: The Best Of"))
            _ = try ada.undoMine(author: "ada")
            let after = try ada.library.album(at: 1)
            #expect(after.title == "Bowie: The Best Of" && after.genre == album.genre && after.artist == album.artist)
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
            // An import followed by another author's step is not undone on its own.
            try ada.importAlbums([Album(title: "Imported", artist: "A")])
            try grace.add(Album(title: "Later", artist: "G"))
            let error = #expect(throws: LibraryError.self) { try ada.undoMine(author: "ada") }
            #expect(error?.code == .conflict && error?.message.contains("only as the last step") == true)
            #expect(throws: LibraryError.self) { try grace.redoMine(author: "grace") }
        }
    }

    /// Every pair of an author's change and a later change by someone else (add, delete, an edit of
    /// each field, move, import, replace, in both orders): applies or refuses, as the "Authors and
    /// selective undo" article's table says.
    @Test func theConflictTable() throws {
        enum Change: String, CaseIterable {
            case add, delete, editTitle, editArtist, editGenre, editYear, editCover, move, importAlbums, replace
            /// A stored cover image (`setCover`), apart from the cover URL (`editCover`).
            case setCover

            static let edits: Set<Change> = [.editTitle, .editArtist, .editGenre, .editYear, .editCover]

            /// The edit of this field, to `text` (a year from its length).
            func changes(_ text: String) -> AlbumChanges {
                switch self {
                case .editTitle: AlbumChanges(title: text)
                case .editArtist: AlbumChanges(artist: text)
                case .editGenre: AlbumChanges(genre: text)
                case .editYear: AlbumChanges(year: 1900 + text.count)
                default: AlbumChanges(coverURL: URL(string: "https://example.com/\(text).png"))
                }
            }

            /// The field this edit changes, read from an album.
            func field(of album: Album) -> String {
                switch self {
                case .editTitle: album.title
                case .editArtist: album.artist
                case .editGenre: album.genre
                case .editYear: album.year.map(String.init) ?? ""
                default: album.coverURL?.absoluteString ?? ""
                }
            }
        }
        // For each of ada's changes (rows), which later changes of grace's let it be undone; an
        // import or a replacement of ada's is undone only as the last step, so after nothing.
        var commutes: [Change: Set<Change>] = [
            .add: [.add],
            .delete: Set<Change>([.add, .delete, .move, .setCover]).union(Change.edits),
            .move: Set<Change>([.add, .setCover]).union(Change.edits),
            .importAlbums: [],
            .replace: [],
            .setCover: Set<Change>([.add, .move]).union(Change.edits),
        ]
        for edit in Change.edits {
            commutes[edit] = Set<Change>([.add, .move, .setCover]).union(Change.edits.subtracting([edit]))
        }
        #expect(commutes.count == Change.allCases.count)
        for (mine, allowed) in commutes {
            for theirs in Change.allCases {
                try withAuthors { ada, grace in
                    // Ada's change concerns the album at position 1 (or adds one there); grace's
                    // concerns that album too where it still exists, else another one.
                    let target = try ada.library.album(at: 1)
                    switch mine {
                    case .add: try ada.add(Album(title: "Mine", artist: "A"), at: 1)
                    case .delete: try ada.delete(.position(1))
                    case .move: try ada.move(.position(1), to: 3)
                    case .importAlbums: try ada.importAlbums([Album(title: "Mine", artist: "A")])
                    case .replace: try ada.replaceAlbums(with: [target, Album(title: "Mine", artist: "A")])
                    case .setCover: try ada.setCover(.position(1), to: try CoverTests.cover("Mine"))
                    case let edit: try ada.edit(.position(1), changes: edit.changes("Mine"))
                    }
                    let same: AlbumReference =
                        switch mine {
                        case .delete: .position(2)
                        case .move: .position(3)
                        default: .position(1)
                        }
                    switch theirs {
                    case .add: try grace.add(Album(title: "Theirs", artist: "G"), at: 1)
                    case .delete: try grace.delete(same)
                    case .move: try grace.move(same, to: mine == .move ? 1 : mine == .replace ? 2 : 3)
                    case .importAlbums: try grace.importAlbums([Album(title: "Imported", artist: "G")])
                    case .replace: try grace.replaceAlbums(with: [Album(title: "Only", artist: "G")])
                    case .setCover: try grace.setCover(same, to: try CoverTests.cover("Theirs"))
                    case let edit: try grace.edit(same, changes: edit.changes("Theirs"))
                    }
                    let before = try ada.library.albums()
                    // The preview (a button's title) says what the call then does, or its refusal.
                    let preview = try ada.previewMine(author: "ada")
                    #expect(try ada.library.albums() == before, "a preview changes nothing")
                    let cell = "\(mine) then \(theirs)"
                    do {
                        let result = try ada.undoMine(author: "ada")
                        #expect(allowed.contains(theirs), "\(cell): undone, expected a refusal")
                        #expect(preview == .change(Self.changeText(of: result)), "\(cell): \(preview)")
                        let after = try ada.library.albums()
                        let now = after.first { $0.id == target.id }
                        switch mine {
                        case .add: #expect(!after.contains { $0.title == "Mine" }, "\(cell)")
                        case .delete: #expect(now != nil, "\(cell)")
                        case .move:
                            // Back first, or after the album grace added before it.
                            #expect(after.firstIndex { $0.id == target.id } == (theirs == .add ? 1 : 0), "\(cell)")
                        case .setCover:
                            #expect(try ada.library.cover(of: target.id) == nil, "\(cell)")
                        case let edit:
                            // Ada's field is back; grace's change (another field) stays.
                            #expect(now.map(edit.field) == edit.field(of: target), "\(cell)")
                            if Change.edits.contains(theirs), let now {
                                let theirsApplied = try target.applying(theirs.changes("Theirs"))
                                #expect(theirs.field(of: now) == theirs.field(of: theirsApplied), "\(cell)")
                            }
                        }
                    } catch let error as LibraryError {
                        #expect(!allowed.contains(theirs), "\(cell): \(error.message)")
                        #expect(preview == .refused(error), "\(cell): \(preview)")
                        let expected = mine == .importAlbums || mine == .replace ? "your " : "grace "
                        #expect(error.code == .conflict && error.message.hasPrefix(expected), "\(cell): \(error)")
                        #expect(try ada.library.albums() == before, "\(cell): changed on a refusal")
                    }
                }
            }
        }
    }

    /// The history text of the change a result undid or did again ("Delete “X”").
    private static func changeText(of result: LibrarySession.MineResult) -> String {
        switch result {
        case .reverted(let command): command.change.text
        case .undone(let record), .redone(let record): record.text
        }
    }

    /// A move of mine, undone after others added, deleted and moved albums around it: the album
    /// goes back between the neighbours it had, and the redo mine takes it where the move had put
    /// it, rebased the same way; every other album keeps its order.
    @Test func undoingMyMoveAfterOthersChangedTheOrderPutsTheAlbumBackBetweenItsNeighbours() throws {
        try withAuthors { ada, grace in
            for title in ["F", "G", "H"] { try grace.add(Album(title: title, artist: "G")) }
            let original = try titles(ada)  // eight albums
            let moved = original[1]
            try ada.move(.position(2), to: 7)
            try grace.add(Album(title: "New first", artist: "G"), at: 1)
            try grace.delete(.position(4))  // original[3] (original[2] is at 3)
            try grace.move(.position(2), to: 5)  // original[0]
            let before = try titles(ada).filter { $0 != moved }
            #expect(try ada.undoMine(author: "ada").text.hasPrefix("Undo Move “\(moved)”"))
            let undone = try titles(ada)
            #expect(undone.filter { $0 != moved } == before, "the others keep their order")
            // Right after what came before it originally (original[0] moved on since: its other
            // neighbour, original[2], which came after it, follows it again).
            let index = try #require(undone.firstIndex(of: moved))
            #expect(undone[index + 1] == original[2], "\(undone)")
            #expect(try ada.redoMine(author: "ada").text.hasPrefix("Redo Move “\(moved)”"))
            let redone = try titles(ada)
            #expect(redone.filter { $0 != moved } == before)
            let again = try #require(redone.firstIndex(of: moved))
            // The move had put it between original[6] and original[7], which no one moved since.
            #expect(redone[again - 1] == original[6] && redone[again + 1] == original[7], "\(redone)")
            // A shared undo of the redo mine takes it back to where the undo mine had put it.
            try ada.undo()
            #expect(try titles(ada) == undone)
        }
    }

    /// Another author's move of the same album, taken back by them since, is no conflict: the
    /// pair cancels out, and the album still goes back between its first neighbours.
    @Test func aMoveOfMineUndoesAfterAnotherAuthorsMoveOfItTakenBack() throws {
        try withAuthors { ada, grace in
            let original = try titles(ada)
            let hopper = try LibrarySession.open(path: ada.path)
            defer { hopper.close() }
            hopper.history.author = "hopper"
            try ada.move(.position(2), to: 4)
            try grace.add(Album(title: "New first", artist: "G"), at: 1)
            try grace.move(.title(original[1]), to: 2)
            // Not grace's last step: her undo mine is a new step that moves the album back.
            try hopper.add(Album(title: "Last", artist: "H"))
            #expect(try grace.undoMine(author: "grace").text.hasPrefix("Undo Move “\(original[1])”"))
            #expect(try ada.undoMine(author: "ada").text.hasPrefix("Undo Move “\(original[1])”"))
            #expect(try titles(ada) == ["New first"] + original + ["Last"])
        }
    }

    /// "Undo mine" of the author's last step is a plain undo; "redo mine" then redoes it plainly,
    /// as long as it is the next step to redo (another author's push parks it on a branch).
    @Test func redoMineRedoesMyPlainlyUndoneLastStep() throws {
        try withAuthors { ada, grace in
            let added = try ada.add(Album(title: "Mine", artist: "A"))
            guard case .undone = try ada.undoMine(author: "ada") else {
                Issue.record("ada's last step: a plain undo")
                return
            }
            #expect(try ada.previewMine(author: "ada", reapplying: true) == .change(added.text))
            // Not grace's to redo: hers is no undone change.
            #expect(throws: LibraryError.self) { try grace.redoMine(author: "grace") }
            guard case .redone(let record) = try ada.redoMine(author: "ada") else {
                Issue.record("the next step to redo is ada's: a plain redo")
                return
            }
            #expect(try record.text == added.text && titles(ada).last == "Mine")
            try ada.undoMine(author: "ada")
            try grace.add(Album(title: "Theirs", artist: "G"))
            let error = #expect(throws: LibraryError.self) { try ada.redoMine(author: "ada") }
            #expect(error?.code == .nothingToRedo)
        }
    }

    /// Previews follow the history: nothing of the author's, then their change, then the redo
    /// of their undo mine, each as the call made next does.
    @Test func aPreviewSaysWhatTheCallWouldDo() throws {
        try withAuthors { ada, grace in
            #expect(
                try ada.previewMine(author: "ada")
                    == .refused(LibraryError(.nothingToUndo, "ada has no change to undo")))
            let deleted = try ada.delete(.position(2)).command
            #expect(try ada.previewMine(author: "ada") == .change(deleted.text))
            try grace.add(Album(title: "Blue Train", artist: "John Coltrane"), at: 1)
            #expect(try ada.previewMine(author: "ada") == .change(deleted.text))
            #expect(try grace.previewMine(author: "grace") == .change("Add “Blue Train”"))
            try ada.undoMine(author: "ada")
            #expect(try ada.previewMine(author: "ada", reapplying: true) == .change(deleted.text))
            guard case .refused(let error) = try ada.previewMine(author: "ada") else {
                Issue.record("ada's only change is undone: nothing left to undo")
                return
            }
            #expect(error.code == .nothingToUndo)
        }
    }
}

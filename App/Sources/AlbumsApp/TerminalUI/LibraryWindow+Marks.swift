import AlbumLibrary
import Foundation

/// The marked selection: space marks or unmarks the current album (by id), `d` deletes and `e`
/// edits all marked albums as one step, through ``LibrarySession``'s bulk changes, which find them
/// by id inside the transaction. Marks outlive reloads; an album gone from the library drops out.
extension LibraryWindow {
    /// Space: marks the current album, or unmarks it.
    func toggleMark() {
        guard let album = state.currentAlbum else {
            state.status = "No album to mark"
            return
        }
        let title = DisplayText.quoted(album.title)
        if state.marked.remove(album.id) != nil {
            state.status = "Unmarked \(title) (\(state.marked.count) marked)"
        } else {
            state.marked.insert(album.id)
            state.status = "Marked \(title) (\(state.marked.count) marked)"
        }
        refreshToolbar()
    }

    /// Esc in the browser: drops every mark.
    func clearMarks() {
        guard !state.marked.isEmpty else { return }
        let count = state.marked.count
        state.marked = []
        state.status = "Cleared \(count) mark\(count == 1 ? "" : "s")"
        refreshToolbar()
    }

    /// Forgets the marks of albums that are no longer in the library (another process deleted them).
    func dropMarksOfMissingAlbums() throws {
        guard !state.marked.isEmpty else { return }
        state.marked = try state.marked.filter { try session.library.contains($0) }
    }

    /// `d` with marks: one album is deleted at once; several only after a y/n question.
    func deleteMarked() {
        let marked = state.marked
        guard marked.count > 1 else {
            deleteAlbums(marked)
            return
        }
        state.confirmation = "Delete \(marked.count) marked albums?"
        pendingDelete = marked
        state.status = nil
    }

    /// The answer to the question: `y` deletes, `n` or Esc changes nothing; other keys are ignored.
    func handleConfirmationKey(_ key: KeyInput) {
        switch key {
        case .character("y"), .character("Y"):
            let marked = pendingDelete ?? []
            state.confirmation = nil
            pendingDelete = nil
            deleteAlbums(marked)
        case .character("n"), .character("N"), .escape:
            state.confirmation = nil
            pendingDelete = nil
            state.status = "Delete cancelled: nothing changed"
        default:
            break
        }
    }

    /// One step that deletes exactly these albums, found by id when the transaction runs (refused,
    /// changing nothing, when one is gone by then).
    private func deleteAlbums(_ ids: Set<UUID>) {
        change {
            let command = try session.deleteAlbums(.albums(ids.map { .id($0) }), expecting: ids)
            state.marked.subtract(ids)
            let count = command.members.count
            return "Deleted \(count) marked album\(count == 1 ? "" : "s")"
        }
    }

    /// `e` with marks: the form for the marked albums' genre and year.
    func openMarkedEditForm() {
        state.form = AddForm(editingMarked: state.marked.count)
        state.status = nil
    }

    /// Saves the marked albums' form: one step that edits each marked album that does not
    /// already have the values; or keeps the form open with its problem.
    func submitMarkedEdit(_ form: AddForm) {
        var form = form
        let changes: AlbumChanges
        do {
            changes = try form.changes()
        } catch {
            form.problem = error.message
            state.form = form
            return
        }
        guard !changes.isEmpty else {
            form.problem = "Type a genre or a year (Esc cancels)"
            state.form = form
            return
        }
        state.form = nil
        let ids = state.marked
        change(currentID: state.currentAlbum?.id) {
            let command = try session.editAlbums(.albums(ids.map { .id($0) }), changes: changes)
            let count = command.members.count
            return "Edited \(count) marked album\(count == 1 ? "" : "s")"
        }
    }
}

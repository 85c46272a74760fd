import AlbumLibrary
import CommandStore
import Foundation
import SQLiteDatabase

/// The window and the library file under it: another program may move a backup over the file
/// (`mv`), copy one over it (`cp`) or remove it (`rm`) while the terminal UI has it open.
///
/// Before each key and at each idle look (``followExternalChanges()``) the window asks its session
/// whether the path still names the file it opened, unchanged (``LibrarySession/fileStatus()``). If
/// not, it acts on nothing it shows: the key is dropped, and the loop (``TerminalApp``) asks
/// ``reopenedWindow(after:)`` for a window on the file at the path now, whose status line says what
/// happened. The old connection is closed without touching the new file (its log is never
/// replayed into it). A file that is gone stops the terminal UI: there is no library to show, and
/// making a new one in its place would hide that it is gone.
extension LibraryWindow {
    /// What became of the library file, and what it cost.
    struct FileChange: Equatable {
        /// What the session saw.
        var status: Database.FileStatus
        /// The key that was not handled because of it, handled after all if a write over the file
        /// turns out to have changed nothing the window shows.
        var droppedKey: KeyInput?
        /// Whether a key or a change was dropped or refused because of it.
        var actionLost: Bool
    }

    /// Whether the window still shows the file at its path; when not, notes why in ``fileChange``.
    ///
    /// - Parameter key: The key about to be handled, `nil` for an idle look.
    /// - Returns: `true` when the window may go on with the file it has.
    func followLibraryFile(droppingKey key: KeyInput?) -> Bool {
        guard fileChange == nil else { return false }
        // A read that fails here fails again where the window reads, which reports it.
        guard let status = try? session.fileStatus(), status != .unchanged else { return true }
        fileChange = FileChange(status: status, droppedKey: key, actionLost: key != nil)
        return false
    }

    /// After a change failed: if it failed because the file is no longer the one opened (a commit
    /// through it is refused), notes that the change was lost with it.
    func noteFailedChange() {
        guard fileChange == nil, let status = try? session.fileStatus(), status != .unchanged else { return }
        fileChange = FileChange(status: status, droppedKey: nil, actionLost: true)
    }

    /// A window on the library file at the path now, after ``fileChange`` (this window's session is
    /// closed: its connection, and nothing of the new file).
    ///
    /// The album shown stays shown if the file holds it, and an open form, search or move prompt
    /// stays open. After a write over the file in place (a copy, or what cannot be told from one:
    /// another connection's checkpoint) the history panel stays open too and the dropped key is
    /// handled now, on the reopened file; the status line says the file changed only when what
    /// the window shows did. After a replacement (another file at the path) the key stays dropped.
    ///
    /// - Parameter change: What became of the file.
    /// - Returns: The new window.
    /// - Throws: ``LibraryError`` when the file is gone (the terminal UI then stops with that
    ///   message) or what is there now cannot be opened as a library.
    func reopenedWindow(after change: FileChange) throws -> LibraryWindow {
        let path = session.path
        guard change.status != .removed else {
            session.close()
            throw LibraryError(
                .storage,
                "the library \(path) was removed or renamed by another program while it was open here; albums "
                    + "stopped without writing to it")
        }
        let shown = (steps: shownHistory.steps, done: shownHistory.done, albums: state.albumCount)
        let window = try LibraryWindow(
            session: try session.reopened(settlingFor: .seconds(3)), currentAlbumID: state.currentAlbum?.id,
            undoScope: undoScope)
        window.width = width
        window.state.form = state.form
        window.state.search = state.search
        window.state.movePrompt = state.movePrompt
        window.state.help = state.help
        let now = (steps: window.shownHistory.steps, done: window.shownHistory.done, albums: window.state.albumCount)
        // A write in place cannot be told from another albums process's checkpoint of a change it
        // just committed (under a slow machine the two are seconds apart): the key is handled on
        // the reopened file, where every action decides inside its transaction from what is
        // committed then, with the history panel's expectation (a stale panel is refused, as ever).
        if change.status == .overwritten {
            window.state.history = state.history
            window.state.status =
                now == shown
                ? state.status : "The library file changed on disk (another process, or a copy): reopened it"
            if let key = change.droppedKey { window.handle(key) }
            return window
        }
        window.state.status =
            "Another program replaced the library file (a restore?): reopened it"
            + (change.actionLost ? "; your last action was not applied" : "")
        return window
    }
}

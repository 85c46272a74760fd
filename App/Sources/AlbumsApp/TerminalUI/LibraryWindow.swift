import AlbumLibrary
import CommandKit
import CommandStore
import Foundation

/// The terminal UI's controller: the library on one side, the toolbar's controls and the
/// ``BrowserState`` view model on the other.
///
/// The toolbar buttons are CommandKit ``ActionControl``s (Target-Action): a key press sends the
/// button's action, unless the button is disabled. Undo and Redo are the kit's own controls on the
/// durable history (`makeUndoControl`): they follow its state ("Undo Delete “Best of Bowie”",
/// dimmed when there is nothing to undo) and undo or redo exactly the step they show; if another
/// process has changed the history since, the history refuses, the refusal goes to the status line
/// and the buttons show the new state. Every change is committed as it happens, so killing the
/// process loses nothing.
///
/// The window never loads the whole library: it keeps the albums around the current one
/// (``margin`` on each side) and reads a new window when a scroll nears its edge or a change
/// lands. A change, a scroll or the first screen therefore reads a few hundred albums, whether
/// the library holds five or 100,000. What still grows with the library is SQLite stepping
/// through index entries (counting the albums, finding the current album's position, skipping
/// to the window's first album): about a millisecond per 50,000 albums each.
final class LibraryWindow {
    /// How many albums on each side of the current one are loaded. A screen shows one box per
    /// 23 columns, so half of it (what is left after scrolling towards an edge) covers any
    /// terminal up to about 2,000 columns wide.
    static let margin = 100

    let session: LibrarySession
    /// The kit's controls on the history; their errors go to the status line.
    private(set) lazy var undoButton = session.history.makeUndoControl { [weak self] in self?.refused($0) }
    private(set) lazy var redoButton = session.history.makeRedoControl { [weak self] in self?.refused($0) }
    let deleteButton = ActionControl(title: "Delete")
    let addButton = ActionControl(title: "Add")
    let quitButton = ActionControl(title: "Quit")

    /// What the screen shows.
    var state = BrowserState(albums: [], currentIndex: 0, toolbar: [])
    /// The terminal's width, which sets a page for Page Up and Page Down (the loop keeps it current).
    var width = 80
    /// Whether the input loop goes on.
    private(set) var isRunning = true
    /// Set when something visible changed since the last draw.
    var needsRedraw = true
    /// What the last undo or redo through the buttons reports ("Undid …"), set by the history's
    /// change handler: the step named is the one the button showed, which is the one undone.
    private var historyReport: String?
    /// Whether the last button press ended in an error (shown instead of a report).
    private var historyButtonFailed = false
    /// The history's steps and done steps as of the last ``reload(currentID:fallbackIndex:)``: what
    /// the window shows. (The history's own properties are read as committed now, so after a copy
    /// over the file they already describe the copy.)
    private(set) var shownHistory = (steps: 0, done: 0)
    /// Set when the history reread another process's commits outside ``followExternalChanges()``
    /// (any read of its state does, since issue 25): the next idle look reloads the albums too, as
    /// if its own `refresh()` had found the change.
    private var externalChangeSeen = false
    /// Set when the library file is no longer the one the window shows (another program replaced,
    /// overwrote or removed it): the loop then reopens it or stops (``reopenedWindow(after:)``).
    var fileChange: FileChange?
    /// Whose changes `u` and `r` take back (``UndoScope``).
    var undoScope: UndoScope
    /// What "undo mine" and "redo mine" would do, as of a history revision: the toolbar's titles
    /// in the ``UndoScope/mine`` scope (a scan of the later steps, so not redone on every draw).
    var minePreviews: (revision: Int, undo: LibrarySession.MinePreview?, redo: LibrarySession.MinePreview?)?
    /// The marked albums a `y` to ``BrowserState/confirmation`` deletes.
    var pendingDelete: Set<UUID>?

    /// Creates the window.
    ///
    /// - Parameters:
    ///   - session: The open library.
    ///   - currentAlbumID: The album to show first (restored at launch); the first one when `nil`.
    ///   - undoScope: Whose changes `u` and `r` take back at first.
    init(session: LibrarySession, currentAlbumID: UUID?, undoScope: UndoScope = .everyone) throws {
        self.session = session
        self.undoScope = undoScope
        deleteButton.setTarget(self, action: LibraryWindow.deleteCurrent)
        addButton.setTarget(self, action: LibraryWindow.openAddForm)
        quitButton.setTarget(self, action: LibraryWindow.quit)
        for control in toolbarControls.map(\.control) {
            control.addObserver { [weak self] _, _ in
                self?.needsRedraw = true
                self?.refreshToolbar()
            }
        }
        session.history.addChangeHandler { [weak self] change in self?.historyChanged(change) }
        try reload(currentID: currentAlbumID)
    }

    private var toolbarControls: [(key: String, control: ActionControl)] {
        [("u", undoButton), ("r", redoButton), ("d", deleteButton), ("a", addButton), ("q", quitButton)]
    }

    // MARK: - Keys

    /// Handles one key press: the open overlay's keys first (help, history, search, move prompt,
    /// form), else
    /// the browser's. Every key is listed in ``helpEntries`` and named by the hints line.
    func handle(_ key: KeyInput) {
        needsRedraw = true
        guard key != .resize else { return }
        // Before anything acts on what the screen shows: is it still the file at the path?
        guard followLibraryFile(droppingKey: key) else { return }
        if state.help != nil {
            state.help = nil  // any key closes the help
        } else if state.confirmation != nil {
            handleConfirmationKey(key)
        } else if state.history != nil {
            handleHistoryKey(key)
        } else if state.search != nil {
            handleSearchKey(key)
        } else if state.movePrompt != nil {
            handleMovePromptKey(key)
        } else if state.form != nil {
            handleFormKey(key)
        } else if let index = BrowserNavigation.index(
            after: key, current: state.clampedIndex, count: state.albumCount, width: width)
        {
            go(to: index)
        } else {
            handleBrowserKey(key)
        }
    }

    private func handleBrowserKey(_ key: KeyInput) {
        switch key {
        case .character("/"): openSearch()
        case .character("e") where !state.marked.isEmpty, .character("E") where !state.marked.isEmpty:
            openMarkedEditForm()
        case .character("e"), .character("E"): openEditForm()
        case .character(" "): toggleMark()
        case .escape: clearMarks()
        case .character("<"): moveCurrent(by: -1)
        case .character(">"): moveCurrent(by: 1)
        case .character("m"), .character("M"): openMovePrompt()
        case .character("H"): openHistory()
        case .character("?"): state.help = Self.helpEntries
        case .character("u") where undoScope == .mine: undoMine(redoing: false)
        case .character("r") where undoScope == .mine: undoMine(redoing: true)
        case .character("u"): pressHistoryButton(undoButton, unavailable: "Nothing to undo")
        case .character("r"): pressHistoryButton(redoButton, unavailable: "Nothing to redo")
        case .character("o"), .character("O"): switchUndoScope()
        case .character("U"): undoMine(redoing: false)
        case .character("R"): undoMine(redoing: true)
        case .character("d"), .character("D"): press(deleteButton, unavailable: "No album to delete")
        case .character("a"), .character("A"): press(addButton, unavailable: "")
        case .character("q"), .character("Q"): press(quitButton, unavailable: "")
        default: break
        }
    }

    private func press(_ control: ActionControl, unavailable: String) {
        if !control.sendAction() {
            state.status = unavailable
        }
    }

    /// Sends an Undo or Redo button's action, then shows the albums as they are now: the step the
    /// button showed was undone (or redone), or the history refused and nothing changed.
    private func pressHistoryButton(_ control: ActionControl, unavailable: String) {
        let index = state.clampedIndex
        historyReport = nil
        historyButtonFailed = false
        guard control.sendAction() else {
            state.status = unavailable
            return
        }
        if !historyButtonFailed, let historyReport { state.status = historyReport }
        do {
            try reload(currentID: nil, fallbackIndex: index)
        } catch {
            state.status = AlbumsApp.describe(error)
        }
    }

    /// A button's undo or redo failed or was refused (another process changed the history).
    private func refused(_ error: any Error) {
        historyButtonFailed = true
        state.status = AlbumsApp.describe(error)
        needsRedraw = true
        noteFailedChange()
    }

    /// Notes what an undo or redo did, for the status line (other changes report themselves).
    private func historyChanged(_ change: UndoChange) {
        switch change.operation {
        case .undo: historyReport = "Undid " + change.old.undoText
        case .redo: historyReport = "Redid " + change.old.redoText
        case .reload: externalChangeSeen = true
        default: break
        }
    }

    private func handleFormKey(_ key: KeyInput) {
        guard var form = state.form else { return }
        switch key {
        case .escape:
            state.form = nil
            state.status = form.original == nil && form.markedCount == nil ? "Add cancelled" : "Edit cancelled"
            return
        case .tab, .down: form.focusNext()
        case .up: form.focusPrevious()
        case .backspace: form.deleteBackward()
        case .character(let character): form.type(character)
        case .enter where form.markedCount != nil:
            submitMarkedEdit(form)
            return
        case .enter where form.original != nil:
            // Closes the form, or keeps it open with the problem.
            submitEdit(form)
            return
        case .enter:
            do {
                let album = try form.album()
                state.form = nil
                addAlbum(album)
                return
            } catch {
                form.problem = error.message
            }
        default: break
        }
        state.form = form
    }

    // MARK: - Actions (the toolbar's targets)

    /// The Delete button: the marked albums when there are marks, else the current one.
    func deleteCurrent() {
        guard state.marked.isEmpty else {
            deleteMarked()
            return
        }
        guard let shown = state.currentAlbum else { return }
        change {
            // By id, found inside the transaction: another process may have moved or deleted it.
            let change = try session.delete(.id(shown.id))
            return "Deleted \(DisplayText.quoted(change.album.title)) (position \(change.position))"
        }
    }

    /// Shows what other processes committed since the last look: called while the terminal is
    /// idle (each key timeout). Two statements and two `stat` calls when nothing changed.
    func followExternalChanges() {
        guard followLibraryFile(droppingKey: nil) else { return }
        do {
            let changed = try session.refresh()
            guard changed || externalChangeSeen else { return }
            try reload(currentID: state.currentAlbum?.id, fallbackIndex: state.clampedIndex)
            needsRedraw = true
        } catch {
            state.status = AlbumsApp.describe(error)
            needsRedraw = true
        }
    }

    func openAddForm() {
        state.form = AddForm()
        state.status = nil
    }

    func quit() {
        isRunning = false
    }

    private func addAlbum(_ album: Album) {
        let shown = state.currentAlbum
        change(currentID: album.id) {
            // Right after the album on screen, found by id inside the transaction.
            let command = try session.add(album, after: shown.map { .id($0.id) })
            return "Added \(DisplayText.quoted(album.title)) (position \(command.position))"
        }
    }

    // MARK: - State

    /// Makes the album at a library index current, reading a new window only when the loaded one
    /// does not cover the screen around it (so End on 100,000 albums reads a few hundred).
    func go(to index: Int) {
        guard state.albumCount > 0 else { return }
        let index = min(max(index, 0), state.albumCount - 1)
        guard index != state.clampedIndex else { return }
        state.currentIndex = index
        state.status = nil
        if !windowCovers(index) {
            do {
                try loadWindow(around: index)
            } catch {
                state.status = AlbumsApp.describe(error)
            }
        }
        rememberCurrent()
    }

    /// Runs one change, then reloads what the screen shows (a window around the current album).
    func change(currentID: UUID? = nil, _ body: () throws -> String) {
        let index = state.clampedIndex
        do {
            // Each change decides inside its transaction, from what is committed then.
            state.status = try body()
        } catch {
            state.status = AlbumsApp.describe(error)
            noteFailedChange()
        }
        do {
            try reload(currentID: currentID, fallbackIndex: index)
        } catch {
            state.status = AlbumsApp.describe(error)
        }
    }

    /// Reads the number of albums and the window around the current album: the album with
    /// `currentID` when it is in the library, else the one at `fallbackIndex` (clamped).
    func reload(currentID: UUID?, fallbackIndex: Int = 0) throws {
        externalChangeSeen = false
        state.albumCount = try session.library.count()
        let history = session.history.state
        shownHistory = (history.count, history.index)
        try dropMarksOfMissingAlbums()
        if let currentID, let position = try session.library.position(of: currentID) {
            state.currentIndex = position - 1
        } else {
            state.currentIndex = fallbackIndex
        }
        state.currentIndex = state.clampedIndex
        try loadWindow(around: state.currentIndex)
        rememberCurrent()
        deleteButton.isEnabled = state.albumCount > 0
        refreshToolbar()
        // After each change, the window's own or another process's: the file then holds every
        // commit, so a copy over it replaces all of it, and the copy can be told from a commit.
        try? session.checkpoint()
    }

    /// Whether the loaded window holds the albums a screen around `index` can show.
    private func windowCovers(_ index: Int) -> Bool {
        let needed = max(0, index - Self.margin / 2)..<min(state.albumCount, index + Self.margin / 2 + 1)
        let loaded = state.windowStart..<(state.windowStart + state.albums.count)
        return loaded.lowerBound <= needed.lowerBound && needed.upperBound <= loaded.upperBound
    }

    /// Loads the albums from `margin` before `index` to `margin` after it.
    private func loadWindow(around index: Int) throws {
        let start = max(0, index - Self.margin)
        let requested = (start + 1)..<(index + Self.margin + 2)
        let albums = try session.library.albums(at: requested)
        state.albums = albums
        state.windowStart = start
        // Fewer albums than asked for: the library ends inside the window (perhaps another
        // process deleted some since the count was read), so the window says where it ends.
        if albums.count < requested.count {
            state.albumCount = start + albums.count
            state.currentIndex = state.clampedIndex
            // The library ends before the window starts: load the one around its last album.
            if albums.isEmpty && start > 0 {
                try loadWindow(around: state.clampedIndex)
            }
        } else {
            // More than counted (another process added some): the window runs past the count.
            state.albumCount = max(state.albumCount, start + albums.count)
        }
    }

    func refreshToolbar() {
        deleteButton.title = state.marked.isEmpty ? "Delete" : "Delete \(state.marked.count) marked"
        state.toolbar = toolbarControls.map {
            BrowserState.ToolbarItem(key: $0.key, title: $0.control.title, isEnabled: $0.control.isEnabled)
        }
        if undoScope == .mine { state.toolbar.replaceSubrange(0..<2, with: mineToolbarItems()) }
    }

    private func rememberCurrent() {
        // A window that failed to load does not hold the current album: keep the one stored.
        guard state.albumCount == 0 || state.currentAlbum != nil else { return }
        // The current album survives a restart; failing to store it is not worth interrupting for.
        try? session.library.setCurrentAlbumID(state.currentAlbum?.id)
    }
}

@available(*, unavailable, message: "The window and its controls belong to the terminal UI's thread.")
extension LibraryWindow: Sendable {}

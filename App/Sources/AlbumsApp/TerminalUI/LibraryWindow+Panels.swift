import AlbumLibrary
import CommandKit
import CommandStore
import Foundation

/// The browser's keys beyond scrolling and the toolbar: search, edit, move, the history panel
/// and the help. Each change goes through ``LibrarySession`` by album id, found inside its
/// transaction, as Delete and Add do.
extension LibraryWindow {
    /// What `?` lists: every key the browser handles.
    static let helpEntries: [BrowserPanels.HelpEntry] = [
        .init("←/→ h/l", "previous / next album"),
        .init("Home/End g/G", "first / last album"),
        .init("PgUp/PgDn", "a screenful back / on"),
        .init("/", "search; Enter: next match, Esc: stop"),
        .init("e", "edit it; empty Year or Cover to remove it"),
        .init("space Esc", "mark / unmark it; Esc clears all marks"),
        .init("< > m", "move it one place, or (m) to a position"),
        .init("a", "add an album after it"),
        .init("d", "delete it; with marks, d and e act on them"),
        .init("u r", "undo / redo the step the toolbar names"),
        .init("U R", "undo / redo your own latest change"),
        .init("o", "u r: only your own changes, or everyone's"),
        .init("H", "history: ↑/↓ a step, Enter goes there"),
        .init("? q", "this help (any key closes it) / quit"),
    ]

    // MARK: - Search

    func openSearch() {
        state.search = ""
        state.status = nil
    }

    func handleSearchKey(_ key: KeyInput) {
        switch key {
        case .escape:
            state.search = nil
            state.status = nil
        case .enter:
            findNextMatch()
        case .backspace:
            if state.search?.isEmpty == false { state.search?.removeLast() }
            state.status = nil
        case .character(let character):
            state.search?.append(character)
            state.status = nil
        default:
            break
        }
    }

    /// Jumps to the first match after the current album, wrapping to the first one.
    private func findNextMatch() {
        let query = state.search ?? ""
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else {
            state.status = "Type what to search for"
            return
        }
        do {
            let matches = try session.library.albums(matching: query, order: .position)
            guard !matches.isEmpty else {
                state.status = "No album matches \(DisplayText.quoted(query))"
                return
            }
            let current = state.clampedIndex + 1
            let later = matches.firstIndex { $0.position > current }
            let number = later ?? 0
            let match = matches[number]
            // By id: the count and positions are read again, as after a change.
            try reload(currentID: match.album.id, fallbackIndex: match.position - 1)
            let wrapped = later == nil && matches.count > 1 ? ", from the start" : ""
            state.status = "Match \(number + 1) of \(matches.count)\(wrapped): position \(match.position)"
        } catch {
            state.status = AlbumsApp.describe(error)
        }
    }

    // MARK: - Edit and move

    func openEditForm() {
        guard let album = state.currentAlbum else {
            state.status = "No album to edit"
            return
        }
        state.form = AddForm(editing: album)
        state.status = nil
    }

    /// Saves an edit form: closes it and edits the album by id, or leaves it open with its problem.
    func submitEdit(_ form: AddForm) {
        guard let original = form.original else { return }
        let changes: AlbumChanges
        do {
            changes = try form.changes()
        } catch {
            var form = form
            form.problem = error.message
            state.form = form
            return
        }
        state.form = nil
        guard !changes.isEmpty else {
            state.status = "\(DisplayText.quoted(original.title)) already has those values: nothing to edit"
            return
        }
        change(currentID: original.id) {
            let change = try session.edit(.id(original.id), changes: changes)
            // The title as the edit left it: the album as the transaction found it, with the changes.
            let title = (try? change.album.applying(changes))?.title ?? change.album.title
            return "Edited \(DisplayText.quoted(title)) (position \(change.position))"
        }
    }

    /// `U` and `R`: the user's own latest change (this run's author: `--author`, `ALBUMS_AUTHOR`
    /// or login@host), even after other people's changes; the status line says what was undone,
    /// or who changed what since (nothing changes then).
    func undoMine(redoing: Bool) {
        let shown = state.currentAlbum?.id
        change(currentID: shown) {
            let author = session.history.author ?? ""
            switch redoing ? try session.redoMine(author: author) : try session.undoMine(author: author) {
            case .reverted(let command):
                let verb = redoing ? "Redid" : "Undid"
                return "\(verb) your \(DisplayText.sanitized(command.change.text)) (step \(command.step))"
            case .undone(let record):
                return "Undid your \(DisplayText.sanitized(record.text))"
            case .redone(let record):
                return "Redid your \(DisplayText.sanitized(record.text))"
            }
        }
    }

    func moveCurrent(by offset: Int) {
        guard let shown = state.currentAlbum else {
            state.status = "No album to move"
            return
        }
        change(currentID: shown.id) {
            let change = try session.move(.id(shown.id), by: offset)
            return "Moved \(DisplayText.quoted(change.album.title)) to position \(change.command.to)"
        }
    }

    /// Opens the move-to-position prompt for the current album.
    func openMovePrompt() {
        guard state.currentAlbum != nil else {
            state.status = "No album to move"
            return
        }
        state.movePrompt = MovePrompt()
        state.status = nil
    }

    func handleMovePromptKey(_ key: KeyInput) {
        switch key {
        case .escape:
            state.movePrompt = nil
            state.status = "Move cancelled"
        case .backspace:
            state.movePrompt?.deleteBackward()
        case .character(let character):
            state.movePrompt?.type(character)
        case .enter:
            submitMove()
        default:
            break
        }
    }

    /// Moves the current album, by id, to the position typed: one step, or a refusal (out of
    /// range, already there) decided inside the transaction, which closes the prompt with the
    /// reason in the status line and records nothing.
    private func submitMove() {
        guard var prompt = state.movePrompt else { return }
        guard let position = prompt.position else {
            prompt.problem = "Type a position from 1 to \(state.albumCount)"
            state.movePrompt = prompt
            return
        }
        state.movePrompt = nil
        guard let shown = state.currentAlbum else {
            state.status = "No album to move"
            return
        }
        change(currentID: shown.id) {
            let change = try session.move(.id(shown.id), to: position)
            let title = DisplayText.quoted(change.album.title)
            return "Moved \(title) from position \(change.command.from) to \(change.command.to)"
        }
    }

    // MARK: - History panel

    /// Opens the panel on the history's tree as committed now, the cursor on the current step.
    func openHistory() {
        do {
            let (nodes, current) = try session.historyTree()
            let layout = HistoryTreeLayout.rows(nodes, current: current)
            let rows = layout.enumerated().map { offset, row in
                BrowserPanels.History.Row(
                    id: row.id.rawValue, text: row.node?.text ?? "Start", depth: row.depth,
                    startsBranch: offset > 0 && layout[offset - 1].depth < row.depth,
                    isOnPath: row.node?.isOnPath ?? true, isDone: row.isDone)
            }
            state.history = BrowserPanels.History(
                rows: rows, current: rows.firstIndex { $0.id == current.rawValue } ?? 0)
        } catch {
            state.status = AlbumsApp.describe(error)
        }
    }

    func handleHistoryKey(_ key: KeyInput) {
        let page = 10
        let rows = state.history?.rows.count ?? 0
        switch key {
        case .escape, .character("H"), .character("q"):
            state.history = nil
        case .up, .character("k"): state.history?.moveSelection(by: -1)
        case .down, .character("j"): state.history?.moveSelection(by: 1)
        case .pageUp: state.history?.moveSelection(by: -page)
        case .pageDown: state.history?.moveSelection(by: page)
        case .home, .character("g"): state.history?.moveSelection(by: -rows)
        case .end, .character("G"): state.history?.moveSelection(by: rows)
        case .enter: jumpToSelectedStep()
        default: break
        }
    }

    /// Goes to the step under the cursor, on any branch, in one transaction, but only if the
    /// current step is still the one the panel read. Otherwise nothing changes, the refusal goes
    /// to the status line and the panel shows the history as it is now.
    private func jumpToSelectedStep() {
        guard let panel = state.history else { return }
        let target = panel.rows[panel.selected].id
        guard target != panel.currentStep else {
            closeHistory(status: "Already at step \(target)")
            return
        }
        let index = state.clampedIndex
        do {
            let (node, jump) = try session.jump(
                to: .step(HistoryNode.ID(target)), expecting: HistoryNode.ID(panel.currentStep))
            closeHistory(status: Self.report(jump) + " (now at step \(node))")
        } catch {
            let reason = AlbumsApp.describe(error)
            openHistory()
            state.status = reason
            noteFailedChange()
        }
        do {
            try reload(currentID: state.currentAlbum?.id, fallbackIndex: index)
        } catch {
            state.status = AlbumsApp.describe(error)
        }
    }

    private func closeHistory(status: String) {
        state.history = nil
        state.status = status
    }

    /// "Undid “X”", "Redid 3 steps", "Undid 2 and redid 3 steps".
    private static func report(_ jump: HistoryJump) -> String {
        switch (jump.undone.count, jump.redone.count) {
        case (1, 0): "Undid \(jump.undone[0].text)"
        case (let undone, 0): "Undid \(undone) steps"
        case (0, 1): "Redid \(jump.redone[0].text)"
        case (0, let redone): "Redid \(redone) steps"
        case (let undone, let redone): "Undid \(undone) and redid \(redone) step\(redone == 1 ? "" : "s")"
        }
    }
}

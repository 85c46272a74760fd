import AlbumLibrary
import CommandStore

/// Whose changes the toolbar's Undo and Redo take back: everyone's, in the order the shared
/// history holds them (the default, as the CLI's `undo`), or only the user's own ("undo mine":
/// the latest change of this run's author, even after other people's changes). `o` switches;
/// `ALBUMS_UNDO=mine` starts with the user's own.
extension LibraryWindow {
    /// Whose changes `u` and `r` undo and redo.
    enum UndoScope: Sendable, Hashable {
        /// The shared history's last step, whoever made it.
        case everyone
        /// The user's own latest change (`U` and `R` do this in either scope).
        case mine

        /// The scope `ALBUMS_UNDO` names: `mine` or `all` (`nil`: unset, the default).
        ///
        /// - Throws: A ``UsageError`` for any other value.
        static func named(_ name: String?) throws(UsageError) -> UndoScope {
            switch name {
            case nil, "all": .everyone
            case "mine": .mine
            case let other?:
                throw UsageError("ALBUMS_UNDO must be “mine” or “all”, not \(DisplayText.quoted(other))")
            }
        }
    }

    /// `o`: switches whose changes `u` and `r` take back, and says so.
    func switchUndoScope() {
        undoScope = undoScope == .everyone ? .mine : .everyone
        state.status =
            undoScope == .mine
            ? "u and r now undo and redo only your own changes (o: everyone's)"
            : "u and r now undo and redo the last step, whoever made it (o: only yours)"
        refreshToolbar()
    }

    /// The toolbar's Undo and Redo in the ``UndoScope/mine`` scope: "Undo your Delete “X”", or
    /// dimmed "Undo yours" when the user has no change to undo or it would be refused (pressed,
    /// it then says why). Previewed once per history revision.
    func mineToolbarItems() -> [BrowserState.ToolbarItem] {
        let revision = session.history.revision
        if minePreviews?.revision != revision {
            let author = session.history.author ?? ""
            minePreviews = (
                revision,
                try? session.previewMine(author: author),
                try? session.previewMine(author: author, reapplying: true)
            )
        }
        func item(_ key: String, _ verb: String, _ preview: LibrarySession.MinePreview?) -> BrowserState.ToolbarItem {
            guard case .change(let text)? = preview else {
                return BrowserState.ToolbarItem(key: key, title: "\(verb) yours", isEnabled: false)
            }
            return BrowserState.ToolbarItem(
                key: key, title: "\(verb) your \(DisplayText.sanitized(text))", isEnabled: true)
        }
        return [item("u", "Undo", minePreviews?.undo), item("r", "Redo", minePreviews?.redo)]
    }
}

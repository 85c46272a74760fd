public import AlbumLibrary

/// One thing the `albums` command line asks for, parsed and checked.
///
/// Positions are 1-based, as `albums list` prints them. Values are checked for form
/// (a whole number, a URL) by ``CommandLineParser``; whether an album exists is checked
/// against the library when the action runs.
public enum AlbumsAction: Sendable, Hashable {
    /// No subcommand: the terminal UI on a TTY, `list` otherwise.
    case interactive
    /// `list [--search TEXT] [--sort KEY]`: the albums with their positions.
    case list(search: String?, order: AlbumOrder)
    /// `show ALBUM`: one album's details.
    case show(AlbumReference)
    /// `add --title T --artist A [...] [--at POSITION]`: a new album, at the end by default.
    case add(Album, at: Int?)
    /// `edit ALBUM [--title T] [...]`: change fields of one album.
    case edit(AlbumReference, changes: AlbumChanges)
    /// `move ALBUM TO`: move one album so that it ends up at `TO`.
    case move(AlbumReference, to: Int)
    /// `delete ALBUM`.
    case delete(AlbumReference)
    /// `undo [COUNT]`.
    case undo(count: Int)
    /// `redo [COUNT]`.
    case redo(count: Int)
    /// `undo --mine` (`redoing == false`) and `redo --mine`: the author's own latest change, even
    /// after others' changes, unless one of them touched the same album parts.
    case mine(redoing: Bool)
    /// `undo --to STEP|AGO|TIME`: any state of the history's tree, on any branch, in one transaction.
    case undoTo(HistoryTarget)
    /// `history --tree`: every step of the tree, the current one marked.
    case historyTree
    /// `history [--limit N]`: each step's text, time and author, the current position marked
    /// (with `--author NAME`, only that author's steps).
    case history(limit: Int?)
    /// `import [--replace] FILE|-`: append the albums of a file (or standard input) as one step,
    /// or replace the library with them.
    case importAlbums(source: String, replace: Bool)
    /// `export [--force] [FILE|-]`: write the library in the exchange format (standard output by
    /// default); `force` replaces a read-only file.
    case export(destination: String?, force: Bool = false)
    /// `info`: the library's path, album count and history length.
    case info
    /// `serve [--port N] [--host ADDR] [--token T]`: the page and the JSON API, until a signal.
    case serve(ServeOptions)
    /// Text to print as it is, exit 0: help, the version, a completion script.
    case output(String)

    /// Whether the action changes the library.
    public var isMutating: Bool {
        switch self {
        case .add, .edit, .move, .delete, .undo, .redo, .undoTo, .mine, .importAlbums: true
        case .interactive, .list, .show, .history, .historyTree, .export, .info, .serve, .output: false
        }
    }
}

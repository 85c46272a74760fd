public import AlbumLibrary

/// One thing the `albums` command line asks for, parsed and checked.
///
/// Positions are 1-based, as `albums list` prints them. Values are checked for form
/// (a whole number, a URL) by ``CommandLineParser``; whether a position exists is checked
/// against the library when the command runs.
public enum AlbumsCommand: Sendable, Hashable {
    /// No command: the terminal UI on a TTY, `list` otherwise.
    case interactive
    /// `list`: every album with its position.
    case list
    /// `show POSITION`: one album's details.
    case show(position: Int)
    /// `add --title T --artist A [...] [--at POSITION]`: a new album, at the end by default.
    case add(Album, at: Int?)
    /// `edit POSITION [--title T] [...]`: change fields of one album.
    case edit(position: Int, changes: AlbumChanges)
    /// `move FROM TO`: move one album so that it ends up at `TO`.
    case move(from: Int, to: Int)
    /// `delete POSITION`.
    case delete(position: Int)
    /// `undo [COUNT]`.
    case undo(count: Int)
    /// `redo [COUNT]`.
    case redo(count: Int)
    /// `history`: each step's text, the current position marked.
    case history
    /// `import FILE|-`: append the albums of a file (or standard input) as one step.
    case importAlbums(source: String)
    /// `export [FILE|-]`: write the library in the exchange format (standard output by default).
    case export(destination: String?)
    /// `help [COMMAND]` or `--help`.
    case help(topic: String?)
    /// `--version`.
    case version

    /// Whether the command changes the library.
    public var isMutating: Bool {
        switch self {
        case .add, .edit, .move, .delete, .undo, .redo, .importAlbums: true
        case .interactive, .list, .show, .history, .export, .help, .version: false
        }
    }
}

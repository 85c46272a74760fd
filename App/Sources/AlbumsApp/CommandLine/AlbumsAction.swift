public import AlbumLibrary

/// One thing the `albums` command line asks for, parsed and checked.
///
/// Positions are 1-based, as `albums list` prints them. Values are checked for form
/// (a whole number, a URL) by ``CommandLineParser``; whether an album exists is checked
/// against the library when the action runs.
public enum AlbumsAction: Sendable, Hashable {
    /// No subcommand: the terminal UI on a TTY, `list` otherwise.
    case interactive
    /// `list [QUERY…] [--search TEXT] [--sort KEYS]`: the albums (those the query matches) with
    /// their positions.
    /// With `--format`, one line per album from the template instead of the table.
    case list(query: AlbumQuery?, order: AlbumSort, format: ListTemplate? = nil)
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
    /// `delete`, `edit` or `move --to` naming several albums or a query: one step.
    case bulk(BulkRequest)
    /// `cover set ALBUM FILE`: store the image in FILE as the album's cover, one step.
    case setCover(AlbumReference, file: String)
    /// `cover remove ALBUM`: remove the album's stored cover, one step.
    case removeCover(AlbumReference)
    /// `cover export ALBUM FILE [--force]`: write the album's stored cover to FILE.
    case exportCover(AlbumReference, file: String, force: Bool)
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
    /// `import [--replace] [--allow-duplicates] [--dry-run] FILE|-`: append the albums of a file
    /// (or standard input) as one step, without those equal to one in the library or earlier in
    /// the file unless `allowDuplicates`, or replace the library with them; `dryRun` says what it
    /// would do and changes nothing.
    case importAlbums(source: String, replace: Bool, allowDuplicates: Bool = false, dryRun: Bool = false)
    /// `export [--force] [FILE|-]`: write the library in the exchange format (standard output by
    /// default); `force` replaces a read-only file.
    case export(destination: String?, force: Bool = false)
    /// `history --repair`: set aside the first step that no longer applies (the library was
    /// changed outside albums), so that undo and redo go on without it.
    case repairHistory
    /// `info`: the library's path, album count and history length.
    case info
    /// `init [PATH] [--empty]`: create a library at `path` (the library albums uses when `nil`),
    /// with the five default albums unless `empty`; refused when something is there already.
    case initLibrary(path: String?, empty: Bool)
    /// `stats`: albums, artists, genres, year span, history steps and size on disk.
    case stats
    /// `serve [--port N] [--host ADDR] [--token T]`: the page and the JSON API, until a signal.
    case serve(ServeOptions)
    /// Text to print as it is, exit 0: help, the version, a completion script.
    case output(String)

    /// Whether the action changes the library.
    public var isMutating: Bool {
        switch self {
        case .importAlbums(_, _, _, let dryRun): !dryRun
        case .add, .edit, .move, .delete, .setCover, .removeCover, .undo, .redo, .undoTo, .mine, .initLibrary,
            .repairHistory:
            true
        case .bulk(let request): !request.dryRun
        case .interactive, .list, .show, .exportCover, .history, .historyTree, .export, .info, .stats, .serve, .output:
            false
        }
    }
}

import AlbumLibrary
import ArgumentParser

/// `albums delete ALBUM…|QUERY… [--yes] [--dry-run]`.
struct DeleteSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an album, several, or those a query matches, as one step.",
        discussion: """
            'albums undo' brings them back, even in a later run. Several albums (3 4 7, or a query \
            such as genre:pop year:..1970: see 'albums list --help') are one step; albums asks \
            before changing more than one on a terminal and refuses without one unless --yes.
            """
    )

    @ParentCommand var root: AlbumsCommandLine

    @Argument(help: ArgumentHelp("A position, an album id or an exact title; several; or a query.", valueName: "album"))
    var albums: [String] = []

    @OptionGroup var bulk: BulkOptions

    func action() throws(UsageError) -> AlbumsAction {
        guard !albums.isEmpty else { throw UsageError("delete needs ALBUM", command: Self.name) }
        if let selection = try BulkOptions.selection(albums, command: Self.name) {
            return .bulk(BulkRequest(selection: selection, action: .delete, yes: bulk.yes, dryRun: bulk.dryRun))
        }
        return .delete(try AlbumReference(parsing: albums[0], label: "ALBUM", command: Self.name))
    }
}

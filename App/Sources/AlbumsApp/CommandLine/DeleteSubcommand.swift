import AlbumLibrary
import ArgumentParser

/// `albums delete ALBUM`.
struct DeleteSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an album.",
        discussion: "'albums undo' brings it back, even in a later run."
    )

    @ParentCommand var root: AlbumsCommandLine

    @Argument(help: ArgumentHelp("A position, an album id or an exact title.", valueName: "album"))
    var album: String

    func action() throws(UsageError) -> AlbumsAction {
        .delete(try AlbumReference(parsing: album, label: "ALBUM", command: Self.name))
    }
}

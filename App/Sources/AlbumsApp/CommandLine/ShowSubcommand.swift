import AlbumLibrary
import ArgumentParser

/// `albums show ALBUM`.
struct ShowSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one album's details: title, artist, genre, year, cover and id."
    )

    @ParentCommand var root: AlbumsCommandLine

    @Argument(help: ArgumentHelp("A position, an album id or a title.", valueName: "album"))
    var album: String

    func action() throws(UsageError) -> AlbumsAction {
        .show(try AlbumReference(parsing: album, label: "ALBUM", command: Self.name))
    }
}

import AlbumLibrary
import ArgumentParser

/// `albums move ALBUM TO`.
struct MoveSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move an album so that it ends up at position TO."
    )

    @ParentCommand var root: AlbumsCommandLine

    @Argument(help: ArgumentHelp("A position, an album id or a title.", valueName: "album"))
    var album: String

    @Argument(help: ArgumentHelp("The position it ends up at.", valueName: "to"))
    var to: String

    func action() throws(UsageError) -> AlbumsAction {
        let selector = try AlbumReference(parsing: album, label: "ALBUM", command: Self.name)
        return .move(selector, to: try ArgumentValue.position(to, label: "TO", command: Self.name))
    }
}

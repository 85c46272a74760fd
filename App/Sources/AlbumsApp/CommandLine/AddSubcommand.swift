import AlbumLibrary
import ArgumentParser

/// `albums add --title T --artist A [--genre G] [--year Y] [--cover URL] [--at POSITION]`.
struct AddSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an album (at the end unless --at)."
    )

    @ParentCommand var root: AlbumsCommandLine

    // Not optional, so the usage shows them as required (no brackets) and ArgumentParser refuses
    // a line without them; `CommandLineParser.reworded` says which one is missing.
    @Option(name: [.short, .long], parsing: .unconditional, help: ArgumentHelp("The title.", valueName: "title"))
    var title: String

    @Option(name: [.short, .long], parsing: .unconditional, help: ArgumentHelp("The artist.", valueName: "artist"))
    var artist: String

    @OptionGroup var fields: AlbumFieldOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Where to insert it, from 1 to the number of albums plus one.", valueName: "position"))
    var at: String?

    func action() throws(UsageError) -> AlbumsAction {
        let name = Self.name
        var album = Album(title: title, artist: artist, genre: fields.genre ?? "")
        album.year = try fields.year.map { word throws(UsageError) in try ArgumentValue.year(word, command: name) }
        album.coverURL = try fields.cover.map { word throws(UsageError) in
            try ArgumentValue.cover(word, command: name)
        }
        let position = try at.map { word throws(UsageError) in
            try ArgumentValue.position(word, label: "--at", command: name)
        }
        do {
            album = try album.validated()
        } catch {
            throw UsageError(error.message, command: name)
        }
        return .add(album, at: position)
    }
}

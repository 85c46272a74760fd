import AlbumLibrary
import ArgumentParser
import Foundation

/// `albums edit ALBUM [--title T] [--artist A] [--genre G] [--year Y] [--cover URL]`.
struct EditSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change an album's fields.",
        discussion: "At least one field is required; --genre \"\", --year \"\" and --cover \"\" clear those fields."
    )

    @ParentCommand var root: AlbumsCommandLine

    @Argument(help: ArgumentHelp("A position, an album id or a title.", valueName: "album"))
    var album: String

    @Option(name: [.short, .long], parsing: .unconditional, help: ArgumentHelp("The new title.", valueName: "title"))
    var title: String?

    @Option(
        name: [.short, .long], parsing: .unconditional, help: ArgumentHelp("The new artist.", valueName: "artist"))
    var artist: String?

    @OptionGroup var fields: AlbumFieldOptions

    func action() throws(UsageError) -> AlbumsAction {
        let name = Self.name
        let selector = try AlbumReference(parsing: album, label: "ALBUM", command: name)
        var changes = AlbumChanges()
        changes.title = try title.map { word throws(UsageError) in
            try ArgumentValue.text(word, field: "title", required: true, command: name)
        }
        changes.artist = try artist.map { word throws(UsageError) in
            try ArgumentValue.text(word, field: "artist", required: true, command: name)
        }
        changes.genre = try fields.genre.map { word throws(UsageError) in
            try ArgumentValue.text(word, field: "genre", required: false, command: name)
        }
        // An empty year or cover removes it, as an empty genre clears the genre.
        if let year = fields.year, year.trimmingCharacters(in: .whitespaces).isEmpty {
            changes.removesYear = true
        } else {
            changes.year = try fields.year.map { word throws(UsageError) in
                try ArgumentValue.year(word, command: name)
            }
        }
        if let cover = fields.cover, cover.trimmingCharacters(in: .whitespaces).isEmpty {
            changes.removesCoverURL = true
        } else {
            changes.coverURL = try fields.cover.map { word throws(UsageError) in
                try ArgumentValue.cover(word, command: name)
            }
        }
        guard !changes.isEmpty else {
            throw UsageError("edit needs at least one of --title, --artist, --genre, --year, --cover", command: name)
        }
        return .edit(selector, changes: changes)
    }
}

import AlbumLibrary
import ArgumentParser
import Foundation

/// `albums edit ALBUM…|QUERY… [--title T] [--artist A] [--genre G] [--year Y] [--cover URL] [--yes] [--dry-run]`.
struct EditSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change an album's fields.",
        discussion: """
            At least one field is required; --genre "", --year "" and --cover "" clear those fields. \
            Several albums (3 4 7, or a query such as genre:bop: see 'albums list --help') are one \
            step; albums asks before changing more than one on a terminal and refuses without one unless --yes.
            """
    )

    @ParentCommand var root: AlbumsCommandLine

    @Argument(help: ArgumentHelp("A position, an album id or a title; several; or a query.", valueName: "album"))
    var albums: [String] = []

    @Option(name: [.short, .long], parsing: .unconditional, help: ArgumentHelp("The new title.", valueName: "title"))
    var title: String?

    @Option(
        name: [.short, .long], parsing: .unconditional, help: ArgumentHelp("The new artist.", valueName: "artist"))
    var artist: String?

    @OptionGroup var fields: AlbumFieldOptions

    @OptionGroup var bulk: BulkOptions

    func action() throws(UsageError) -> AlbumsAction {
        let name = Self.name
        guard !albums.isEmpty else { throw UsageError("edit needs ALBUM", command: name) }
        let selection = try BulkOptions.selection(albums, command: name)
        let selector = try selection == nil ? AlbumReference(parsing: albums[0], label: "ALBUM", command: name) : nil
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
        if let selection {
            return .bulk(BulkRequest(selection: selection, action: .edit(changes), yes: bulk.yes, dryRun: bulk.dryRun))
        }
        return .edit(selector!, changes: changes)
    }
}

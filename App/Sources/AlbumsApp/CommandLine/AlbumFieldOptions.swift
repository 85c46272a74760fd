import ArgumentParser

/// The album fields `add` and `edit` take. Values are parsed unconditionally, so a title may look
/// like an option (`--title --help`).
struct AlbumFieldOptions: ParsableArguments {
    @Option(name: [.short, .long], parsing: .unconditional, help: ArgumentHelp("The title.", valueName: "title"))
    var title: String?

    @Option(name: [.short, .long], parsing: .unconditional, help: ArgumentHelp("The artist.", valueName: "artist"))
    var artist: String?

    @Option(
        name: [.short, .long], parsing: .unconditional,
        help: ArgumentHelp("The genre (\"\" clears it).", valueName: "genre"))
    var genre: String?

    @Option(
        name: [.short, .long], parsing: .unconditional,
        help: ArgumentHelp("The release year, a whole number from 1 to 9999.", valueName: "year"))
    var year: String?

    @Option(
        name: [.short, .long], parsing: .unconditional,
        help: ArgumentHelp("Where the cover image lives, an absolute URL.", valueName: "url"))
    var cover: String?
}

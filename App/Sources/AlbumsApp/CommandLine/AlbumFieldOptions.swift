import ArgumentParser

/// The optional album fields `add` and `edit` share (each declares its own title and artist:
/// `add` requires them, `edit` does not). Values are parsed unconditionally, so a value may look
/// like an option (`--genre --help`).
struct AlbumFieldOptions: ParsableArguments {
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

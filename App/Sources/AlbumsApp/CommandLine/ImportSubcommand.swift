import ArgumentParser

/// `albums import [--replace] [--allow-duplicates] [--dry-run] FILE|-`.
struct ImportSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Append the albums of a JSON file (- reads standard input), as one undoable step.",
        discussion: """
            All or nothing. The file is a JSON array of objects: "title" and "artist" (required \
            strings), "genre" (string), "year" (whole number), "cover" (absolute URL), "id" (UUID); \
            no other keys, null for an empty field. FILE must be a regular file (a link to one is \
            followed); for a pipe, use -. An album equal to one in the library, or to one earlier in \
            the file (title, artist and year, case and accents aside), is skipped and counted, unless \
            --allow-duplicates. With --replace the file's albums replace the whole library, also as \
            one undoable step: importing an export this way restores it exactly, duplicates included. \
            --dry-run prints what the import would do and changes nothing.
            """
    )

    @ParentCommand var root: AlbumsCommandLine

    @Flag(name: [.short, .long], help: "Replace the library with the file's albums instead of appending them.")
    var replace = false

    @Flag(help: "Import albums equal to one already in the library or earlier in the file, too.")
    var allowDuplicates = false

    @Flag(help: "Print what the import would do; change nothing.")
    var dryRun = false

    @Argument(help: ArgumentHelp("The file, or - for standard input.", valueName: "file"), completion: .file())
    var source: String?

    func action() throws(UsageError) -> AlbumsAction {
        guard let source else {
            throw UsageError("import needs a FILE (or - for standard input)", command: Self.name)
        }
        guard !source.isEmpty else {
            throw UsageError("import needs a file path, not an empty argument", command: Self.name)
        }
        guard !(replace && allowDuplicates) else {
            throw UsageError(
                "--allow-duplicates is for appending: --replace imports every album of the file as it is",
                command: Self.name)
        }
        return .importAlbums(source: source, replace: replace, allowDuplicates: allowDuplicates, dryRun: dryRun)
    }
}

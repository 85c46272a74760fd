import ArgumentParser

/// `albums import [--replace] FILE|-`.
struct ImportSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Append the albums of a JSON file (- reads standard input), as one undoable step.",
        discussion: """
            All or nothing. The file is a JSON array of objects: "title" and "artist" (required \
            strings), "genre" (string), "year" (whole number), "cover" (absolute URL), "id" (UUID); \
            no other keys, null for an empty field. FILE must be a regular file (a link to one is \
            followed); for a pipe, use -. With --replace the file's albums replace the whole library, \
            also as one undoable step: importing an export this way restores it exactly.
            """
    )

    @ParentCommand var root: AlbumsCommandLine

    @Flag(name: [.short, .long], help: "Replace the library with the file's albums instead of appending them.")
    var replace = false

    @Argument(help: ArgumentHelp("The file, or - for standard input.", valueName: "file"), completion: .file())
    var source: String?

    func action() throws(UsageError) -> AlbumsAction {
        guard let source else {
            throw UsageError("import needs a FILE (or - for standard input)", command: Self.name)
        }
        guard !source.isEmpty else {
            throw UsageError("import needs a file path, not an empty argument", command: Self.name)
        }
        return .importAlbums(source: source, replace: replace)
    }
}

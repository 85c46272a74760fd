import ArgumentParser

/// `albums init [PATH] [--empty]`.
struct InitSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a library (with five albums to start from, unless --empty).",
        discussion: """
            PATH defaults to the library albums uses (--db, ALBUMS_DB, else the default library). \
            Refused when a library (or any file) is there already. Reading commands never create \
            a library at a path named by --db or ALBUMS_DB; changes create one there, saying so.
            """
    )

    @ParentCommand var root: AlbumsCommandLine

    @Flag(help: "Create the library with no albums.")
    var empty = false

    @Argument(help: ArgumentHelp("Where to create it.", valueName: "path"), completion: .file())
    var path: String?

    func action() throws(UsageError) -> AlbumsAction {
        guard path != "" else {
            throw UsageError("init needs a file path, not an empty argument", command: Self.name)
        }
        return .initLibrary(path: path, empty: empty)
    }
}

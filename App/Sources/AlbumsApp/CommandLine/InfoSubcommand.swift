import ArgumentParser

/// `albums info`.
struct InfoSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show the library's path, album count and history length."
    )

    @ParentCommand var root: AlbumsCommandLine

    func action() throws(UsageError) -> AlbumsAction { .info }
}

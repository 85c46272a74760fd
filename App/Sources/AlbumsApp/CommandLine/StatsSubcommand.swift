import ArgumentParser

/// `albums stats`.
struct StatsSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show the library's albums, artists, genres, year span, history steps and size on disk.",
        discussion: "With --json: an object of those figures (firstYear and lastYear null when no album has a year)."
    )

    @ParentCommand var root: AlbumsCommandLine

    func action() throws(UsageError) -> AlbumsAction { .stats }
}

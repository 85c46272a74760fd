import ArgumentParser

/// `albums history [--limit N]`.
struct HistorySubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show each step with its time, the current position marked.",
        discussion: """
            Oldest first; > marks where the library is now. Steps after the mark are undone and can \
            be redone. With --json: each step's time in ISO 8601.
            """
    )

    @ParentCommand var root: AlbumsCommandLine

    @Option(name: [.customShort("n"), .long], help: ArgumentHelp("Show only the last N steps.", valueName: "n"))
    var limit: String?

    func action() throws(UsageError) -> AlbumsAction {
        .history(
            limit: try limit.map { word throws(UsageError) in
                try ArgumentValue.count(word, label: "--limit", command: Self.name)
            })
    }
}

import ArgumentParser

/// `albums redo [COUNT]`.
struct RedoSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "redo",
        abstract: "Redo the last COUNT undone changes (default 1).",
        discussion: "Fails, changing nothing, when fewer are left."
    )

    @ParentCommand var root: AlbumsCommandLine

    @Argument(help: ArgumentHelp("How many steps to redo.", valueName: "count"))
    var count: String?

    func action() throws(UsageError) -> AlbumsAction {
        .redo(
            count: try count.map { word throws(UsageError) in
                try ArgumentValue.count(word, label: "COUNT", command: Self.name)
            } ?? 1)
    }
}

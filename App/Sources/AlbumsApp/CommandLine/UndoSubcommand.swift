import ArgumentParser

/// `albums undo [COUNT]`.
struct UndoSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Undo the last COUNT changes (default 1).",
        discussion: "Fails, changing nothing, when fewer are left."
    )

    @ParentCommand var root: AlbumsCommandLine

    @Argument(help: ArgumentHelp("How many steps to undo.", valueName: "count"))
    var count: String?

    func action() throws(UsageError) -> AlbumsAction {
        .undo(
            count: try count.map { word throws(UsageError) in
                try ArgumentValue.count(word, label: "COUNT", command: Self.name)
            } ?? 1)
    }
}

import ArgumentParser

/// `albums redo [COUNT]`.
struct RedoSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "redo",
        abstract: "Redo the last COUNT undone changes (default 1).",
        discussion: """
            Fails, changing nothing, when fewer are left. --mine does your latest `undo --mine` \
            again, under the same rule.
            """
    )

    @ParentCommand var root: AlbumsCommandLine

    @Argument(help: ArgumentHelp("How many steps to redo.", valueName: "count"))
    var count: String?

    @Flag(help: "Redo your own latest `undo --mine`.")
    var mine = false

    func action() throws(UsageError) -> AlbumsAction {
        if mine {
            guard count == nil else {
                throw UsageError("--mine redoes one change: leave out COUNT", command: Self.name)
            }
            return .mine(redoing: true)
        }
        return .redo(
            count: try count.map { word throws(UsageError) in
                try ArgumentValue.count(word, label: "COUNT", command: Self.name)
            } ?? 1)
    }
}

import ArgumentParser

/// `albums history [--limit N] [--author NAME]`, `albums history --tree`, `albums history --repair`.
struct HistorySubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show each step with its time and author, the current position marked.",
        discussion: """
            Oldest first; > marks where the library is now. Steps after the mark are undone and can \
            be redone. Each step's number is the one `albums undo --to` takes. With --author NAME \
            (before or after `history`): only NAME's steps. With --json: each step's time in ISO 8601 \
            and its author. --repair: when another program changed the library so that a step no \
            longer applies (undo or redo refuses it), sets that step aside so the history goes on \
            without it; every other step and every album stay as they are.
            """
    )

    @ParentCommand var root: AlbumsCommandLine

    @Option(name: [.customShort("n"), .long], help: ArgumentHelp("Show only the last N steps.", valueName: "n"))
    var limit: String?

    @Flag(name: .long, help: "Show every step of the history's tree, branches included, by number.")
    var tree = false

    @Flag(name: .long, help: "Set aside the step that no longer applies, so undo and redo go on without it.")
    var repair = false

    func action() throws(UsageError) -> AlbumsAction {
        if repair {
            guard limit == nil, !tree else {
                throw UsageError("--repair changes the history: leave out --limit and --tree", command: Self.name)
            }
            return .repairHistory
        }
        if tree {
            guard limit == nil else {
                throw UsageError("--tree shows the whole tree: leave out --limit", command: Self.name)
            }
            return .historyTree
        }
        return .history(
            limit: try limit.map { word throws(UsageError) in
                try ArgumentValue.count(word, label: "--limit", command: Self.name)
            })
    }
}

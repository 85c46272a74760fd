import AlbumLibrary
import ArgumentParser

/// `albums move ALBUM TO`, or `albums move ALBUM…|QUERY… --to N [--yes] [--dry-run]`.
struct MoveSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move an album so that it ends up at position TO.",
        discussion: """
            With --to N, the albums named (several, or a query: see 'albums list --help') move, in \
            library order, to positions N, N+1, … as one step; albums asks before moving more than \
            one on a terminal and refuses without one unless --yes.
            """
    )

    @ParentCommand var root: AlbumsCommandLine

    @Argument(
        help: ArgumentHelp(
            "A position, an album id or a title, then the position it ends up at (without --to).",
            valueName: "album"))
    var words: [String] = []

    @Option(name: .customLong("to"), help: ArgumentHelp("Where the first album named goes.", valueName: "n"))
    var target: String?

    @OptionGroup var bulk: BulkOptions

    func action() throws(UsageError) -> AlbumsAction {
        if let target {
            let to = try ArgumentValue.position(target, label: "--to", command: Self.name)
            guard !words.isEmpty else { throw UsageError("move needs ALBUM", command: Self.name) }
            var selection = try BulkOptions.selection(words, command: Self.name)
            if selection == nil {
                selection = .albums([try AlbumReference(parsing: words[0], label: "ALBUM", command: Self.name)])
            }
            return .bulk(BulkRequest(selection: selection!, action: .move(to: to), yes: bulk.yes, dryRun: bulk.dryRun))
        }
        guard let album = words.first else { throw UsageError("move needs ALBUM", command: Self.name) }
        guard words.count >= 2 else { throw UsageError("move needs TO", command: Self.name) }
        guard words.count == 2 else {
            throw UsageError(
                "unexpected argument '\(words[2])' for move (several albums move with --to N)", command: Self.name)
        }
        guard try BulkOptions.selection([album], command: Self.name) == nil else {
            throw UsageError("a query moves its albums with --to N (albums move QUERY… --to N)", command: Self.name)
        }
        let selector = try AlbumReference(parsing: album, label: "ALBUM", command: Self.name)
        return .move(selector, to: try ArgumentValue.position(words[1], label: "TO", command: Self.name))
    }
}

import ArgumentParser

/// The `albums` command line as ArgumentParser sees it: the global options and the subcommands.
///
/// Parsed by ``CommandLineParser``, never run: the parsed subcommand becomes an ``AlbumsAction``.
/// The global options belong to this root, and ArgumentParser lets them appear before or after
/// the subcommand (`albums --json list`, `albums list --json`).
struct AlbumsCommandLine: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "albums",
        abstract: "An album library with undo that survives the process.",
        discussion: """
            With no subcommand, albums opens the terminal UI on a TTY and lists the albums otherwise. \
            An ALBUM is a position (1 is the first), an album id, or a title (the exact one first, else \
            the one title that matches with case and accents aside). Changes are saved \
            as they happen; undo and redo work across runs. Exit status: 0 on success, 1 when the \
            command fails, 2 for a usage error, 3 when a change was saved but its report could not \
            be written.
            """,
        version: "albums 1.0.0",
        subcommands: CommandLineParser.subcommands.map { subcommand -> any ParsableCommand.Type in subcommand },
        helpNames: [.short, .long]
    )

    @OptionGroup var global: GlobalArguments
}

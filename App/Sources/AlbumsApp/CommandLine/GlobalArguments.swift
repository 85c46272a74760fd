import ArgumentParser

/// The options every subcommand takes, as ArgumentParser parses them (see ``GlobalOptions``).
struct GlobalArguments: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            The library file (default: $ALBUMS_DB, else $XDG_DATA_HOME/albums/library.sqlite, \
            else ~/.local/share/albums/library.sqlite).
            """,
            valueName: "path"
        ),
        completion: .file()
    )
    var db: String?

    @Option(
        help: ArgumentHelp(
            "The name recorded with each change (default: $ALBUMS_AUTHOR, else login@host).",
            valueName: "name"))
    var author: String?

    @Flag(name: [.customShort("j"), .long], help: "Print results as JSON (every subcommand).")
    var json = false

    @Flag(help: "Print the start-up report on standard error after the command.")
    var launchReport = false

    /// The checked options.
    func options() throws(UsageError) -> GlobalOptions {
        if let db, db.isEmpty { throw UsageError("--db needs a file path") }
        return GlobalOptions(databasePath: db, json: json, launchReport: launchReport, author: author)
    }
}

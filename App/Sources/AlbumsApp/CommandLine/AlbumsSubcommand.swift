import ArgumentParser

/// A subcommand of `albums`: parsed by ArgumentParser, then turned into an ``AlbumsAction``.
///
/// Values arrive as the words typed and are checked here, not by ArgumentParser's conversions,
/// so every problem reads as one line in the program's own words ("POSITION 'x' is not a whole
/// number"), with the subcommand's `--help` to point at.
protocol AlbumsSubcommand: ParsableCommand {
    /// The root, holding the global options.
    var root: AlbumsCommandLine { get }

    /// The checked action.
    func action() throws(UsageError) -> AlbumsAction
}

extension AlbumsSubcommand {
    /// The subcommand's name on the command line.
    static var name: String { configuration.commandName ?? "" }
}

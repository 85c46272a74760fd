/// The options that apply to every command: `--db PATH`, `--json`, `--launch-report`.
public struct GlobalOptions: Sendable, Hashable {
    /// The library file given with `--db`, if any.
    public var databasePath: String?
    /// Whether `list`, `show` and `history` print JSON.
    public var json: Bool
    /// Whether to print the launch report on standard error after the command.
    public var launchReport: Bool

    /// Creates options.
    ///
    /// - Parameters:
    ///   - databasePath: The library file given with `--db`.
    ///   - json: Whether to print JSON.
    ///   - launchReport: Whether to print the launch report.
    public init(databasePath: String? = nil, json: Bool = false, launchReport: Bool = false) {
        self.databasePath = databasePath
        self.json = json
        self.launchReport = launchReport
    }
}

/// A parsed command line: the global options and the command.
public struct CommandLineRequest: Sendable, Hashable {
    /// The options given.
    public var options: GlobalOptions
    /// The command asked for.
    public var command: AlbumsCommand

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - options: The options.
    ///   - command: The command.
    public init(options: GlobalOptions = GlobalOptions(), command: AlbumsCommand) {
        self.options = options
        self.command = command
    }
}

/// The options that apply to every command: `--db PATH`, `--author NAME`, `--json`, `--launch-report`.
public struct GlobalOptions: Sendable, Hashable {
    /// The library file given with `--db`, if any.
    public var databasePath: String?
    /// The author given with `--author`, if any (checked when the command runs).
    public var author: String?
    /// Whether results are printed as JSON.
    public var json: Bool
    /// Whether to print the launch report on standard error after the command.
    public var launchReport: Bool

    /// Creates options.
    ///
    /// - Parameters:
    ///   - databasePath: The library file given with `--db`.
    ///   - json: Whether to print JSON.
    ///   - launchReport: Whether to print the launch report.
    ///   - author: The name to record with each step.
    public init(databasePath: String? = nil, json: Bool = false, launchReport: Bool = false, author: String? = nil) {
        self.databasePath = databasePath
        self.author = author
        self.json = json
        self.launchReport = launchReport
    }
}

/// A parsed command line: the global options and the action.
public struct CommandLineRequest: Sendable, Hashable {
    /// The options given.
    public var options: GlobalOptions
    /// The action asked for.
    public var action: AlbumsAction

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - options: The options.
    ///   - action: The action.
    public init(options: GlobalOptions = GlobalOptions(), action: AlbumsAction) {
        self.options = options
        self.action = action
    }
}

/// A command line `albums` cannot run: an unknown command or option, a missing or malformed value.
///
/// The message is one line; ``exitCode`` is 2, the usual code for usage errors.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One line naming what was wrong.
    public var message: String
    /// The command it concerns, to point at its `--help`.
    public var command: String?

    /// The process exit code for a usage error.
    public static let exitCode: Int32 = 2

    /// Creates a usage error.
    ///
    /// - Parameters:
    ///   - message: One line naming what was wrong.
    ///   - command: The command it concerns, if any.
    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    /// The line printed on standard error, control characters made visible: the message may
    /// quote an argument as typed (``DisplayText/sanitized(_:)``).
    public var description: String {
        let help = command.map { "albums \($0) --help" } ?? "albums --help"
        return DisplayText.sanitized("albums: \(message) (see '\(help)')")
    }
}

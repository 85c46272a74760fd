/// The stable identifier of a launch command.
///
/// Commands name their dependencies by identifier. A command's identifier defaults to the name of
/// its type, so most commands never spell one out, and a dependent can refer to a command by type:
///
/// ```swift
/// struct PushCommand: AppCommand {
///     var dependencies: [LaunchID] { [LaunchID(FirebaseCommand.self), "database"] }
///     func execute(in context: LaunchContext) async throws { ... }
/// }
/// ```
public struct LaunchID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The identifier's text, as shown in reports and errors.
    public let rawValue: String

    /// Creates an identifier from its text.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates the default identifier of a command type: the type's name.
    ///
    /// Refers to a command that does not override ``AppCommand/id``.
    public init<Command: AppCommand>(_ type: Command.Type) {
        self.rawValue = String(describing: type)
    }

    /// Creates an identifier from a string literal, as in `dependsOn: ["database"]`.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The identifier's text.
    public var description: String { rawValue }

    /// Orders identifiers by their text, so reports and errors list them the same way every run.
    public static func < (lhs: LaunchID, rhs: LaunchID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// A result builder that turns a list of commands, written one per line, into an array.
///
/// `Element` is the existential the list holds: `any Command` for a ``CompositeCommand``,
/// `any AsyncCommand` for an ``Invoker`` or an ``AsyncCompositeCommand``. Inside the list you may
/// write `if`, `if`/`else`, `switch`, `for … in`, an optional command (skipped when `nil`) or an
/// array of commands (spliced in).
///
/// ```swift
/// let invoker = Invoker {
///     ConfigureLogging()
///     if options.crashReports { ConfigureCrashReporting(options: options) }
///     for plugin in plugins { LoadPlugin(plugin) }
///     options.pushToken.map { RegisterForPush(token: $0) }  // optional
/// }
/// ```
@resultBuilder
public enum CommandBuilder<Element> {
    /// Turns one command into a one-element list.
    public static func buildExpression(_ command: Element) -> [Element] {
        [command]
    }

    /// Turns an optional command into a list: empty when it is `nil`.
    public static func buildExpression(_ command: Element?) -> [Element] {
        command.map { [$0] } ?? []
    }

    /// Splices an array of commands into the list.
    public static func buildExpression(_ commands: [Element]) -> [Element] {
        commands
    }

    /// Joins the lines of a block.
    public static func buildBlock(_ parts: [Element]...) -> [Element] {
        parts.flatMap { $0 }
    }

    /// Supports `if` without `else`.
    public static func buildOptional(_ part: [Element]?) -> [Element] {
        part ?? []
    }

    /// Supports the first branch of `if`/`else` and `switch`.
    public static func buildEither(first part: [Element]) -> [Element] {
        part
    }

    /// Supports the second branch of `if`/`else` and `switch`.
    public static func buildEither(second part: [Element]) -> [Element] {
        part
    }

    /// Supports `for … in` loops.
    public static func buildArray(_ parts: [[Element]]) -> [Element] {
        parts.flatMap { $0 }
    }

    /// Supports `if #available` blocks.
    public static func buildLimitedAvailability(_ part: [Element]) -> [Element] {
        part
    }
}

// A namespace with no instances.
extension CommandBuilder: Sendable {}

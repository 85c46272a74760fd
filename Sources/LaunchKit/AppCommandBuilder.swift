/// Builds a list of launch commands from statements, `if`s and `for` loops.
///
/// ```swift
/// let invoker = AppInvoker {
///     FirebaseCommand()
///     if options.contains(flag: "--push") { OneSignalCommand(launchOptions: options) }
///     for name in plugins { PluginCommand(name: name) }
/// }
/// ```
@resultBuilder
public enum AppCommandBuilder {
    /// Takes one command.
    public static func buildExpression(_ command: any AppCommand) -> [any AppCommand] {
        [command]
    }

    /// Takes a list of commands built elsewhere.
    public static func buildExpression(_ commands: [any AppCommand]) -> [any AppCommand] {
        commands
    }

    /// Joins the statements' commands, in order.
    public static func buildBlock(_ components: [any AppCommand]...) -> [any AppCommand] {
        components.flatMap { $0 }
    }

    /// Takes the commands of an `if` without `else`: none when the condition is false.
    public static func buildOptional(_ component: [any AppCommand]?) -> [any AppCommand] {
        component ?? []
    }

    /// Takes the commands of an `if`'s first branch.
    public static func buildEither(first component: [any AppCommand]) -> [any AppCommand] {
        component
    }

    /// Takes the commands of an `else` branch.
    public static func buildEither(second component: [any AppCommand]) -> [any AppCommand] {
        component
    }

    /// Joins the commands of a `for` loop's iterations, in order.
    public static func buildArray(_ components: [[any AppCommand]]) -> [any AppCommand] {
        components.flatMap { $0 }
    }

    /// Takes the commands of an `if #available` branch.
    public static func buildLimitedAvailability(_ component: [any AppCommand]) -> [any AppCommand] {
        component
    }
}

extension AppCommandBuilder: Sendable {}

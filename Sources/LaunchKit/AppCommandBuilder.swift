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
    public static func buildExpression(_ command: any AppCommand) -> [any AppCommand] {
        [command]
    }

    public static func buildExpression(_ commands: [any AppCommand]) -> [any AppCommand] {
        commands
    }

    public static func buildBlock(_ components: [any AppCommand]...) -> [any AppCommand] {
        components.flatMap { $0 }
    }

    public static func buildOptional(_ component: [any AppCommand]?) -> [any AppCommand] {
        component ?? []
    }

    public static func buildEither(first component: [any AppCommand]) -> [any AppCommand] {
        component
    }

    public static func buildEither(second component: [any AppCommand]) -> [any AppCommand] {
        component
    }

    public static func buildArray(_ components: [[any AppCommand]]) -> [any AppCommand] {
        components.flatMap { $0 }
    }

    public static func buildLimitedAvailability(_ component: [any AppCommand]) -> [any AppCommand] {
        component
    }
}

extension AppCommandBuilder: Sendable {}

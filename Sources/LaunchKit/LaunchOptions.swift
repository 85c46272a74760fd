import Foundation

/// What a launch was started with: command-line arguments, environment, and typed custom values.
///
/// The counterpart of the `launchOptions` an app delegate receives, for every platform. Commands read
/// it from ``LaunchContext/options``, or take it in their initializer as the seed's OneSignal command
/// does.
///
/// ```swift
/// extension LaunchOptions.Key where Value == URL {
///     static var libraryURL: Self { Self("libraryURL") }
/// }
///
/// var options = LaunchOptions.current
/// options[.libraryURL] = URL(filePath: "/tmp/albums.sqlite")
/// ```
public struct LaunchOptions: Sendable {
    /// A typed key for a custom value.
    public typealias Key<Value> = LaunchKey<Value>

    /// The command-line arguments, program name first.
    public var arguments: [String]

    /// The environment variables.
    public var environment: [String: String]

    private var values: [AnyLaunchKey: any Sendable] = [:]

    /// Creates options.
    ///
    /// - Parameters:
    ///   - arguments: The command-line arguments, program name first.
    ///   - environment: The environment variables.
    public init(arguments: [String] = [], environment: [String: String] = [:]) {
        self.arguments = arguments
        self.environment = environment
    }

    /// The current process's arguments and environment.
    public static var current: LaunchOptions {
        LaunchOptions(arguments: ProcessInfo.processInfo.arguments, environment: ProcessInfo.processInfo.environment)
    }

    /// The custom value stored under a key, or `nil`.
    public subscript<Value: Sendable>(key: Key<Value>) -> Value? {
        get { values[key.erased] as? Value }
        set { values[key.erased] = newValue }
    }

    /// Whether the arguments contain a flag, such as `--launch-report`.
    ///
    /// - Parameter flag: The exact argument to look for (the program name is not considered).
    /// - Returns: `true` if an argument after the program name equals `flag`.
    public func contains(flag: String) -> Bool {
        arguments.dropFirst().contains(flag)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A Unix signal that shuts the app down gracefully (see ``AppInvoker/runUntilShutdown(signals:)``).
public struct LaunchSignal: Hashable, Sendable, CustomStringConvertible {
    /// The signal number.
    public let rawValue: Int32

    /// Creates a signal from its number.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// `SIGTERM`: the polite request to terminate (sent by `kill`, service managers, containers).
    public static let terminate = LaunchSignal(rawValue: SIGTERM)
    /// `SIGINT`: interrupt from the keyboard (Control-C).
    public static let interrupt = LaunchSignal(rawValue: SIGINT)
    /// `SIGHUP`: the terminal hung up.
    public static let hangup = LaunchSignal(rawValue: SIGHUP)
    /// `SIGQUIT`: quit from the keyboard.
    public static let quit = LaunchSignal(rawValue: SIGQUIT)

    /// The signal's name, such as `SIGTERM`, or `signal 10` for one without a name here.
    public var description: String {
        switch rawValue {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        case SIGQUIT: "SIGQUIT"
        default: "signal \(rawValue)"
        }
    }
}

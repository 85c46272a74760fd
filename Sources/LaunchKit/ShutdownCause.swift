/// Why an app shut down (``LaunchReport/shutdownCause``).
public enum ShutdownCause: Hashable, Sendable, CustomStringConvertible {
    /// A shutdown signal arrived (``AppInvoker/runUntilShutdown(signals:)``).
    case signal(LaunchSignal)
    /// ``AppInvoker/shutDown()`` or ``AppInvoker/escalateShutdown()`` was called, or the task
    /// running ``AppInvoker/runUntilShutdown(signals:)`` was cancelled.
    case requested
    /// A required command failed or timed out during the launch.
    case launchFailed(LaunchID)
    /// A required service returned on its own while the app was running.
    case serviceEnded(LaunchID)
    /// A required service threw while the app was running; the associated value describes the
    /// error.
    case serviceFailed(LaunchID, String)

    /// The cause in words, as in `service 'http' failed: connection reset`.
    public var description: String {
        switch self {
        case .signal(let signal): "\(signal)"
        case .requested: "requested"
        case .launchFailed(let id): "required command '\(id)' failed"
        case .serviceEnded(let id): "service '\(id)' ended"
        case .serviceFailed(let id, let message): "service '\(id)' failed: \(message)"
        }
    }
}

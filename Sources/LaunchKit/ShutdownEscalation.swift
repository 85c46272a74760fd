/// When and why a shutdown stopped waiting (``LaunchReport/escalation``).
///
/// On escalation the step in progress is cancelled and no longer awaited. The steps still due run
/// cancelled, each within its own time limit: a service is cancelled and awaited, a teardown runs
/// in a cancelled task. What they release (the database) is still released, quickly.
public struct ShutdownEscalation: Hashable, Sendable, CustomStringConvertible {
    /// What escalated the shutdown.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// A second shutdown signal arrived.
        case signal(LaunchSignal)
        /// The whole shutdown took longer than ``AppInvoker/shutdownDeadline``.
        case deadline
        /// ``AppInvoker/escalateShutdown()`` was called.
        case requested

        /// The reason in words, as in `second SIGTERM`.
        public var description: String {
            switch self {
            case .signal(let signal): "second \(signal)"
            case .deadline: "shutdown deadline passed"
            case .requested: "requested"
            }
        }
    }

    /// What escalated the shutdown.
    public let reason: Reason
    /// When, since the launch started.
    public let time: Duration

    /// The escalation in words, as in `second SIGTERM at 812.40 ms`.
    public var description: String {
        "\(reason) at \(LaunchReport.milliseconds(time)) ms"
    }
}

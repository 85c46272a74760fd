/// How one launch command ended.
public enum LaunchOutcome: Hashable, Sendable, CustomStringConvertible {
    /// Not finished yet (only in a report taken while the launch runs).
    case pending
    /// Ran and returned.
    case succeeded
    /// Ran and threw; the associated value describes the error.
    case failed(String)
    /// Ran past its timeout and was cancelled.
    case timedOut(Duration)
    /// Was running when the launch aborted or was cancelled, and stopped.
    case cancelled
    /// Never started.
    case skipped(SkipReason)
    /// A service that is ready and still running (see ``ServiceCommand``).
    case running
    /// A service that stopped when the shutdown asked it to.
    case stopped
    /// A service that returned on its own while the app was running.
    case ended

    /// Why a command never started.
    public enum SkipReason: Hashable, Sendable, CustomStringConvertible {
        /// The named command, which it depends on directly or through others, failed or timed out.
        case dependencyDidNotSucceed(LaunchID)
        /// A required command's failure aborted the launch.
        case launchAborted(by: LaunchID)
        /// The launch was cancelled (or shut down) first.
        case launchCancelled

        /// The reason in words, as in `dependency 'database' did not succeed`.
        public var description: String {
            switch self {
            case .dependencyDidNotSucceed(let id): "dependency '\(id)' did not succeed"
            case .launchAborted(let id): "launch aborted by '\(id)'"
            case .launchCancelled: "launch cancelled"
            }
        }
    }

    /// Whether the command's work started (succeeded, failed, timed out, cancelled, or a service's
    /// outcomes).
    public var didStart: Bool {
        switch self {
        case .succeeded, .failed, .timedOut, .cancelled, .running, .stopped, .ended: true
        case .pending, .skipped: false
        }
    }

    /// Whether the command is done launching, one way or another (a running service is: it is
    /// ready).
    public var isFinished: Bool {
        if case .pending = self { false } else { true }
    }

    /// A short word for tables: `ok`, `failed`, `timed out`, `cancelled`, `skipped`, `pending`,
    /// `running`, `stopped`, `ended`.
    public var label: String {
        switch self {
        case .pending: "pending"
        case .succeeded: "ok"
        case .failed: "failed"
        case .timedOut: "timed out"
        case .cancelled: "cancelled"
        case .skipped: "skipped"
        case .running: "running"
        case .stopped: "stopped"
        case .ended: "ended"
        }
    }

    /// The outcome in words, with the error, limit or reason, as in `failed: disk full`.
    public var description: String {
        switch self {
        case .pending: "pending"
        case .succeeded: "succeeded"
        case .failed(let message): "failed: \(message)"
        case .timedOut(let limit): "timed out after \(limit)"
        case .cancelled: "cancelled"
        case .skipped(let reason): "skipped: \(reason)"
        case .running: "running"
        case .stopped: "stopped"
        case .ended: "ended on its own"
        }
    }
}

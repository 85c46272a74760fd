/// What happened during a launch: per command, when it became ready, started and ended, how it
/// ended; the app's readiness, the critical path, main-actor busy time, and the shutdown steps.
///
/// All times are durations since the launch started, read from the invoker's clock. Render it with
/// ``table()``, ``json()`` or ``chromeTrace()`` (open the last in Perfetto or `chrome://tracing`).
public struct LaunchReport: Hashable, Sendable {
    /// One command's line in the report.
    public struct Entry: Hashable, Sendable {
        /// The command's identifier.
        public let id: LaunchID
        /// The identifiers it depends on.
        public let dependencies: [LaunchID]
        /// Its phase.
        public let phase: LaunchPhase
        /// Where it ran.
        public let isolation: LaunchIsolation
        /// Whether its failure aborts the launch.
        public let isRequired: Bool
        /// How it ended.
        public internal(set) var outcome: LaunchOutcome
        /// When it could have started: its dependencies had succeeded (and, for a deferred command, the
        /// app was ready).
        public internal(set) var readyAt: Duration?
        /// When its work started.
        public internal(set) var startedAt: Duration?
        /// When its work ended; for a service, when it signalled readiness.
        public internal(set) var endedAt: Duration?
        /// Whether it is a long-running service (``ServiceCommand``).
        public internal(set) var isService = false
        /// When a service's run ended, if it did.
        public internal(set) var stoppedAt: Duration?

        /// How long it waited for a free slot after becoming ready.
        public var queueTime: Duration? {
            guard let readyAt, let startedAt else { return nil }
            return startedAt - readyAt
        }

        /// How long its work ran.
        public var runTime: Duration? {
            guard let startedAt, let endedAt else { return nil }
            return endedAt - startedAt
        }
    }

    /// One shutdown step in the report: a service's stop or a command's teardown.
    public struct TearDownEntry: Hashable, Sendable {
        /// What a shutdown step does.
        public enum Kind: Hashable, Sendable, CustomStringConvertible {
            /// Asks a running service to stop, and waits for it.
            case stopService
            /// Runs a ``TearDownCommand``'s ``TearDownCommand/tearDown(in:)``.
            case tearDown

            /// `stop` or `teardown`.
            public var description: String {
                switch self {
                case .stopService: "stop"
                case .tearDown: "teardown"
                }
            }
        }

        /// How a shutdown step ended.
        public enum Outcome: Hashable, Sendable, CustomStringConvertible {
            /// Ran and returned (a service: stopped when asked).
            case succeeded
            /// Ran and threw; the associated value describes the error.
            case failed(String)
            /// Ran past its own time limit: cancelled and left behind; the next step ran.
            case timeLimitExceeded(Duration)
            /// Cut short (or, for a service, not waited for) because the shutdown escalated.
            case cancelled

            /// The outcome in words, as in `failed: flush failed`.
            public var description: String {
                switch self {
                case .succeeded: "succeeded"
                case .failed(let message): "failed: \(message)"
                case .timeLimitExceeded(let limit): "time limit exceeded (\(limit))"
                case .cancelled: "cancelled (escalated)"
                }
            }
        }

        /// The command whose step this is.
        public let id: LaunchID
        /// Where it ran.
        public let isolation: LaunchIsolation
        /// A service's stop or a teardown.
        public let kind: Kind
        /// The longest the step could take.
        public let timeLimit: Duration
        /// How it ended.
        public internal(set) var outcome: Outcome
        /// When it started.
        public internal(set) var startedAt: Duration?
        /// When it ended (or was given up).
        public internal(set) var endedAt: Duration?
    }

    /// Every command, in declaration order.
    public internal(set) var entries: [Entry]
    /// When the app became ready (every ``LaunchPhase/beforeReady`` command finished), or `nil`.
    public internal(set) var readyAt: Duration?
    /// When the last command ended (or the launch stopped).
    public internal(set) var finishedAt: Duration
    /// The most commands that could run at once.
    public let maxConcurrency: Int
    /// The chain of commands, each depending on the one before it, whose run times add up to the
    /// most: with these run times, no schedule could finish the launch sooner than
    /// ``criticalPathDuration``.
    ///
    /// Deferred commands also wait for readiness, so a chain through a deferred command continues
    /// through the before-ready command that finished the longest chain.
    public internal(set) var criticalPath: [LaunchID]
    /// The summed run time of ``criticalPath``.
    public internal(set) var criticalPathDuration: Duration
    /// The summed run time of the main-actor commands: how long the launch kept the main actor busy.
    public internal(set) var mainActorBusyTime: Duration
    /// The shutdown steps that were due, in the order they ran (empty until the invoker shuts down).
    public internal(set) var tearDowns: [TearDownEntry]
    /// The signal that shut the app down, when one did.
    public internal(set) var shutdownSignal: LaunchSignal?
    /// Why the app shut down, once it did: a signal, a request, a failed launch, or a required
    /// service that ended or failed (naming it).
    public internal(set) var shutdownCause: ShutdownCause?
    /// When and why the shutdown stopped waiting, if it did (a second signal, the deadline).
    public internal(set) var escalation: ShutdownEscalation?

    /// The entry of a command, or `nil`.
    ///
    /// - Complexity: O(n) in the number of commands.
    public subscript(id: LaunchID) -> Entry? {
        entries.first { $0.id == id }
    }

    /// The commands whose outcome satisfies a predicate, in declaration order.
    ///
    /// ```swift
    /// let skipped = report.commands { if case .skipped = $0 { true } else { false } }
    /// ```
    ///
    /// - Parameter predicate: Tests an outcome.
    /// - Returns: The matching identifiers.
    public func commands(where predicate: (LaunchOutcome) -> Bool) -> [LaunchID] {
        entries.filter { predicate($0.outcome) }.map(\.id)
    }
}

/// Something that happened during a launch or its shutdown, as it happened (see
/// ``AppInvoker/events()``).
///
/// ```swift
/// let events = invoker.events()          // subscribed now: no event is missed
/// Task { for await event in events { print(event) } }
/// try await invoker.runUntilShutdown()
/// ```
public struct LaunchEvent: Hashable, Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Hashable, Sendable {
        /// A command's work (or a service's run) started.
        case started
        /// A service signalled that it is ready (``ServiceLifetime/ready()``).
        case ready
        /// A command finished launching: succeeded, failed, timed out, cancelled, skipped, or
        /// (a service) ``LaunchOutcome/running``.
        case finished(LaunchOutcome)
        /// Every before-ready command has finished: the app is ready.
        case appReady
        /// A service's run ended: ``LaunchOutcome/stopped``, ``LaunchOutcome/ended``,
        /// ``LaunchOutcome/failed(_:)`` or ``LaunchOutcome/cancelled``.
        case serviceEnded(LaunchOutcome)
        /// The shutdown began, for this reason.
        case shuttingDown(ShutdownCause)
        /// The shutdown escalated: what was left is cancelled (see ``ShutdownEscalation``).
        case escalated(ShutdownEscalation.Reason)
        /// A shutdown step started.
        case tearingDown(LaunchReport.TearDownEntry.Kind)
        /// A shutdown step ended.
        case tornDown(LaunchReport.TearDownEntry.Outcome)
        /// Every shutdown step has run: the last event.
        case shutDown
    }

    /// When it happened, since the launch started.
    public let time: Duration
    /// The command it is about, or `nil` for the app as a whole.
    public let id: LaunchID?
    /// What happened.
    public let kind: Kind

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - time: When it happened, since the launch started.
    ///   - id: The command it is about, or `nil` for the app as a whole.
    ///   - kind: What happened.
    public init(time: Duration, id: LaunchID?, kind: Kind) {
        self.time = time
        self.id = id
        self.kind = kind
    }

    /// A short name for logs: `started`, `ready`, `finished`, `appReady`, `serviceEnded`,
    /// `shuttingDown`, `escalated`, `tearingDown`, `tornDown`, `shutDown`.
    public var name: String {
        switch kind {
        case .started: "started"
        case .ready: "ready"
        case .finished: "finished"
        case .appReady: "appReady"
        case .serviceEnded: "serviceEnded"
        case .shuttingDown: "shuttingDown"
        case .escalated: "escalated"
        case .tearingDown: "tearingDown"
        case .tornDown: "tornDown"
        case .shutDown: "shutDown"
        }
    }

    /// The event in words, as in `4.31 ms database: finished: succeeded`.
    public var description: String {
        let subject = id.map { "\($0): " } ?? ""
        let detail: String =
            switch kind {
            case .started: "started"
            case .ready: "ready"
            case .finished(let outcome): "finished: \(outcome)"
            case .appReady: "app ready"
            case .serviceEnded(let outcome): "service ended: \(outcome)"
            case .shuttingDown(let cause): "shutting down: \(cause)"
            case .escalated(let reason): "shutdown escalated: \(reason)"
            case .tearingDown(let kind): "\(kind) started"
            case .tornDown(let outcome): "step \(outcome)"
            case .shutDown: "shut down"
            }
        return "\(LaunchReport.milliseconds(time)) ms \(subject)\(detail)"
    }
}

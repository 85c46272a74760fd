#if ServiceLifecycleIntegration
public import LaunchKit
public import Logging

extension Logger {
    /// Logs a launch event, with its details as metadata (`launch.event`, `launch.command`,
    /// `launch.time_ms`, `launch.outcome`).
    ///
    /// Failures log at `error`, time limits and escalations at `warning`, everything else at
    /// `level`.
    ///
    /// ```swift
    /// let events = invoker.events()
    /// Task { for await event in events { logger.log(event) } }
    /// ```
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - level: The level of ordinary events; `info` by default.
    public func log(_ event: LaunchEvent, level: Logger.Level = .info) {
        var metadata: Logger.Metadata = [
            "launch.event": "\(event.name)",
            "launch.time_ms": "\(LaunchEventFormat.milliseconds(event.time))",
        ]
        if let id = event.id { metadata["launch.command"] = "\(id)" }
        var eventLevel = level
        switch event.kind {
        case .finished(let outcome), .serviceEnded(let outcome):
            metadata["launch.outcome"] = "\(outcome)"
            switch outcome {
            case .failed: eventLevel = .error
            case .timedOut, .cancelled: eventLevel = .warning
            default: break
            }
        case .tornDown(let outcome):
            metadata["launch.outcome"] = "\(outcome)"
            switch outcome {
            case .failed: eventLevel = .error
            case .timeLimitExceeded, .cancelled: eventLevel = .warning
            case .succeeded: break
            }
        case .shuttingDown(let cause):
            metadata["launch.cause"] = "\(cause)"
        case .escalated(let reason):
            metadata["launch.reason"] = "\(reason)"
            eventLevel = .warning
        case .tearingDown(let kind):
            metadata["launch.step"] = "\(kind)"
        case .started, .ready, .appReady, .shutDown:
            break
        }
        log(level: eventLevel, "\(event)", metadata: metadata)
    }
}

/// Number formatting for log metadata.
enum LaunchEventFormat {
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        let milliseconds = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
        return (milliseconds * 100).rounded() / 100
    }
}
#endif

import Foundation

extension LaunchReport {
    /// The report as JSON, for tools: times in milliseconds since the launch started.
    ///
    /// ```json
    /// {"commands":[{"id":"config","phase":"beforeReady","isolation":"concurrent","required":true,
    ///   "outcome":"succeeded","readyMs":0,"startMs":0.01,"queueMs":0.01,"runMs":1.2,"endMs":1.21,
    ///   "dependencies":[]}], "readyMs":14.2, "finishedMs":31.02, "maxConcurrency":8,
    ///   "criticalPath":["config"], "criticalPathMs":28.9, "mainActorBusyMs":0, "tearDowns":[]}
    /// ```
    ///
    /// Keys are sorted, so the output is stable. An outcome's detail (the error, the skip reason)
    /// is in `"detail"`.
    ///
    /// - Returns: The JSON text.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Every value is a string, number, bool, array or object: encoding cannot fail.
        let data = (try? encoder.encode(JSONReport(self))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// The JSON shape of a ``LaunchReport``.
private struct JSONReport: Encodable {
    struct Command: Encodable {
        let id: String
        let dependencies: [String]
        let phase: String
        let isolation: String
        let required: Bool
        let outcome: String
        let detail: String?
        let readyMs: Double?
        let startMs: Double?
        let queueMs: Double?
        let runMs: Double?
        let endMs: Double?
        let service: Bool
        let stoppedMs: Double?
    }

    struct TearDown: Encodable {
        let id: String
        let kind: String
        let isolation: String
        let outcome: String
        let detail: String?
        let timeLimitMs: Double
        let startMs: Double?
        let endMs: Double?
    }

    struct Escalation: Encodable {
        let reason: String
        let timeMs: Double
    }

    let commands: [Command]
    let readyMs: Double?
    let finishedMs: Double
    let maxConcurrency: Int
    let criticalPath: [String]
    let criticalPathMs: Double
    let mainActorBusyMs: Double
    let tearDowns: [TearDown]
    let shutdownSignal: String?
    let shutdownCause: String?
    let escalation: Escalation?

    init(_ report: LaunchReport) {
        commands = report.entries.map { entry in
            let (outcome, detail): (String, String?) =
                switch entry.outcome {
                case .pending: ("pending", nil)
                case .succeeded: ("succeeded", nil)
                case .failed(let message): ("failed", message)
                case .timedOut(let limit): ("timedOut", "after \(limit)")
                case .cancelled: ("cancelled", nil)
                case .skipped(let reason): ("skipped", reason.description)
                case .running: ("running", nil)
                case .stopped: ("stopped", nil)
                case .ended: ("ended", nil)
                }
            return Command(
                id: entry.id.rawValue,
                dependencies: entry.dependencies.map(\.rawValue),
                phase: entry.phase.rawValue,
                isolation: entry.isolation.rawValue,
                required: entry.isRequired,
                outcome: outcome,
                detail: detail,
                readyMs: entry.readyAt?.milliseconds,
                startMs: entry.startedAt?.milliseconds,
                queueMs: entry.queueTime?.milliseconds,
                runMs: entry.runTime?.milliseconds,
                endMs: entry.endedAt?.milliseconds,
                service: entry.isService,
                stoppedMs: entry.stoppedAt?.milliseconds
            )
        }
        readyMs = report.readyAt?.milliseconds
        finishedMs = report.finishedAt.milliseconds
        maxConcurrency = report.maxConcurrency
        criticalPath = report.criticalPath.map(\.rawValue)
        criticalPathMs = report.criticalPathDuration.milliseconds
        mainActorBusyMs = report.mainActorBusyTime.milliseconds
        tearDowns = report.tearDowns.map { entry in
            let (outcome, detail): (String, String?) =
                switch entry.outcome {
                case .succeeded: ("succeeded", nil)
                case .failed(let message): ("failed", message)
                case .timeLimitExceeded(let limit): ("timeLimitExceeded", "after \(limit)")
                case .cancelled: ("cancelled", nil)
                }
            return TearDown(
                id: entry.id.rawValue,
                kind: entry.kind == .stopService ? "stopService" : "tearDown",
                isolation: entry.isolation.rawValue,
                outcome: outcome,
                detail: detail,
                timeLimitMs: entry.timeLimit.milliseconds,
                startMs: entry.startedAt?.milliseconds,
                endMs: entry.endedAt?.milliseconds
            )
        }
        shutdownSignal = report.shutdownSignal?.description
        shutdownCause = report.shutdownCause?.description
        escalation = report.escalation.map { Escalation(reason: $0.reason.description, timeMs: $0.time.milliseconds) }
    }
}

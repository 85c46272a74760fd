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
    }

    struct TearDown: Encodable {
        let id: String
        let isolation: String
        let outcome: String
        let startMs: Double?
        let endMs: Double?
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
                endMs: entry.endedAt?.milliseconds
            )
        }
        readyMs = report.readyAt?.milliseconds
        finishedMs = report.finishedAt.milliseconds
        maxConcurrency = report.maxConcurrency
        criticalPath = report.criticalPath.map(\.rawValue)
        criticalPathMs = report.criticalPathDuration.milliseconds
        mainActorBusyMs = report.mainActorBusyTime.milliseconds
        tearDowns = report.tearDowns.map { entry in
            let outcome: String =
                switch entry.outcome {
                case .succeeded: "succeeded"
                case .failed: "failed"
                case .deadlineExceeded: "deadlineExceeded"
                case .notRun: "notRun"
                }
            return TearDown(
                id: entry.id.rawValue,
                isolation: entry.isolation.rawValue,
                outcome: outcome,
                startMs: entry.startedAt?.milliseconds,
                endMs: entry.endedAt?.milliseconds
            )
        }
        shutdownSignal = report.shutdownSignal?.description
    }
}

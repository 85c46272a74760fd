import Foundation

extension LaunchReport {
    /// The report in the Chrome trace-event format: open it in Perfetto (ui.perfetto.dev) or
    /// `chrome://tracing`.
    ///
    /// One complete event (`"ph":"X"`) per command that ran and per shutdown step that ran, with
    /// `ts` and `dur` in microseconds. Main-actor commands share the "main actor" track (`tid` 1);
    /// the others are packed onto numbered tracks so that no two events on a track overlap. Thread
    /// names come as metadata events (`"ph":"M"`).
    ///
    /// ```json
    /// {"traceEvents":[{"name":"config","cat":"launch","ph":"X","ts":3.1,"dur":1200.5,"pid":1,"tid":2,
    ///   "args":{"outcome":"succeeded","phase":"beforeReady"}}, ...]}
    /// ```
    ///
    /// - Returns: The JSON text.
    public func chromeTrace() -> String {
        var events: [TraceEvent] = [
            TraceEvent(metadata: "process_name", tid: 0, name: "launch"),
            TraceEvent(metadata: "thread_name", tid: 1, name: "main actor"),
        ]
        // Greedy interval packing: each event goes on the first track free at its start.
        var trackEnds: [Duration] = []
        func track(start: Duration, end: Duration) -> Int {
            if let free = trackEnds.firstIndex(where: { $0 <= start }) {
                trackEnds[free] = end
                return free + 2
            }
            trackEnds.append(end)
            events.append(
                TraceEvent(metadata: "thread_name", tid: trackEnds.count + 1, name: "lane \(trackEnds.count)"))
            return trackEnds.count + 1
        }
        let ran = entries.filter { $0.startedAt != nil && $0.endedAt != nil }.sorted { $0.startedAt! < $1.startedAt! }
        for entry in ran {
            let start = entry.startedAt!
            let end = entry.endedAt!
            let tid = entry.isolation == .mainActor ? 1 : track(start: start, end: end)
            events.append(
                TraceEvent(
                    name: entry.id.rawValue, category: "launch", start: start, duration: end - start, tid: tid,
                    args: [
                        "outcome": "\(entry.outcome)", "phase": entry.phase.rawValue,
                        "queueMs": LaunchReport.milliseconds(entry.queueTime),
                    ]))
        }
        for entry in tearDowns {
            guard let start = entry.startedAt else { continue }
            let end = entry.endedAt ?? finishedAt
            let tid = entry.isolation == .mainActor ? 1 : track(start: start, end: end)
            events.append(
                TraceEvent(
                    name: "teardown \(entry.id)", category: "teardown", start: start, duration: end - start, tid: tid,
                    args: ["outcome": entry.outcome.description]))
        }
        if let readyAt {
            events.append(TraceEvent(instant: "ready", at: readyAt))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings and numbers only: encoding cannot fail.
        let data = (try? encoder.encode(["traceEvents": events])) ?? Data("{\"traceEvents\":[]}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// One event of the Chrome trace-event format.
private struct TraceEvent: Encodable {
    let name: String
    let cat: String?
    let ph: String
    let ts: Double?
    let dur: Double?
    let pid: Int
    let tid: Int
    let s: String?
    let args: [String: String]?

    /// A complete event.
    init(name: String, category: String, start: Duration, duration: Duration, tid: Int, args: [String: String]) {
        self.name = name
        self.cat = category
        self.ph = "X"
        self.ts = start.microseconds
        self.dur = duration.microseconds
        self.pid = 1
        self.tid = tid
        self.s = nil
        self.args = args
    }

    /// A metadata event naming the process or a track.
    init(metadata: String, tid: Int, name: String) {
        self.name = metadata
        self.cat = nil
        self.ph = "M"
        self.ts = nil
        self.dur = nil
        self.pid = 1
        self.tid = tid
        self.s = nil
        self.args = ["name": name]
    }

    /// A process-wide instant event (the readiness marker).
    init(instant name: String, at time: Duration) {
        self.name = name
        self.cat = "launch"
        self.ph = "i"
        self.ts = time.microseconds
        self.dur = nil
        self.pid = 1
        self.tid = 1
        self.s = "p"
        self.args = nil
    }
}

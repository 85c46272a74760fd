extension LaunchReport {
    /// The report as a table for people: one row per command in start order (unstarted ones last, in
    /// declaration order), then the shutdown steps and a summary.
    ///
    /// ```
    /// command   phase         isolation   outcome    ready ms  start ms  queue ms  run ms  end ms
    /// config    before-ready  concurrent  ok             0.00      0.03      0.03    0.13    0.16
    /// database  before-ready  concurrent  ok             0.16      0.21      0.05    4.10    4.31
    /// sync      deferred      concurrent  cancelled      4.31      4.35      0.04  493.82  498.17
    ///
    /// ready at 4.31 ms · finished at 498.17 ms · width 4 · main actor busy 0.00 ms
    /// critical path 498.05 ms: config → database → sync
    /// ```
    ///
    /// - Returns: The table, lines separated by `\n`, without a trailing newline.
    public func table() -> String {
        let header = [
            "command", "phase", "isolation", "outcome", "ready ms", "start ms", "queue ms", "run ms", "end ms",
        ]
        let rightAligned: Set<Int> = [4, 5, 6, 7, 8]
        var rows: [[String]] = []
        let ordered = entries.enumerated().sorted { lhs, rhs in
            switch (lhs.element.startedAt, rhs.element.startedAt) {
            case (let l?, let r?): l == r ? lhs.offset < rhs.offset : l < r
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): lhs.offset < rhs.offset
            }
        }
        for (_, entry) in ordered {
            var outcome = entry.outcome.label
            if !entry.isRequired { outcome += " (optional)" }
            rows.append([
                entry.id.rawValue,
                entry.phase == .beforeReady ? "before-ready" : "deferred",
                entry.isolation == .mainActor ? "main" : "concurrent",
                outcome,
                Self.milliseconds(entry.readyAt),
                Self.milliseconds(entry.startedAt),
                Self.milliseconds(entry.queueTime),
                Self.milliseconds(entry.runTime),
                Self.milliseconds(entry.endedAt),
            ])
        }
        var lines = Self.align([header] + rows, rightAligned: rightAligned)

        if !tearDowns.isEmpty {
            lines.append("")
            var tearDownRows = [["shutdown step", "isolation", "outcome", "start ms", "run ms"]]
            for entry in tearDowns {
                let run: Duration? =
                    if let start = entry.startedAt, let end = entry.endedAt { end - start } else { nil }
                tearDownRows.append([
                    "\(entry.kind) \(entry.id)",
                    entry.isolation == .mainActor ? "main" : "concurrent",
                    entry.outcome.description,
                    Self.milliseconds(entry.startedAt),
                    Self.milliseconds(run),
                ])
            }
            lines += Self.align(tearDownRows, rightAligned: [3, 4])
        }

        lines.append("")
        var summary = [
            "ready at " + (readyAt.map { Self.milliseconds($0) + " ms" } ?? "never"),
            "finished at \(Self.milliseconds(finishedAt)) ms",
            "width \(maxConcurrency)",
            "main actor busy \(Self.milliseconds(mainActorBusyTime)) ms",
        ]
        if let shutdownSignal {
            summary.append("shut down by \(shutdownSignal)")
        } else if let shutdownCause, shutdownCause != .requested {
            summary.append("shut down: \(shutdownCause)")
        }
        if let escalation { summary.append("escalated: \(escalation)") }
        lines.append(summary.joined(separator: " · "))
        lines.append(
            "critical path \(Self.milliseconds(criticalPathDuration)) ms: "
                + (criticalPath.isEmpty ? "(none)" : criticalPath.map(\.rawValue).joined(separator: " → ")))
        return lines.joined(separator: "\n")
    }

    /// A duration in milliseconds with two decimals, or `-`.
    static func milliseconds(_ duration: Duration?) -> String {
        guard let duration else { return "-" }
        let hundredths = (duration.milliseconds * 100).rounded()
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = Int64(abs(hundredths))
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Pads the cells of each column to the column's width.
    private static func align(_ rows: [[String]], rightAligned: Set<Int>) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        var widths = Array(repeating: 0, count: columns)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        return rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                if column > 0 { line += "  " }
                line += rightAligned.contains(column) ? padding + cell : cell + padding
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }
}

extension Duration {
    /// The duration in milliseconds, as a floating-point number.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }

    /// The duration in microseconds, as a floating-point number.
    var microseconds: Double {
        milliseconds * 1_000
    }
}

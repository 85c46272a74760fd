public import Testing

/// How long a test waits for something that should happen at once before it calls it hung.
///
/// These bounds never measure speed (the benchmarks do): they only turn a hang into a failure
/// rather than a stuck run. So they sit far above what a working build needs on a 2-core machine
/// with a load of 14 under a sanitizer, at least ten times the slowest run seen; a test whose
/// subject is time states its own bound beside what it measures.
public enum Patience: Sendable {
    /// A child process (albums, tmux, a fixture) that should exit by itself.
    public static let childProcess: Duration = .seconds(300)
    /// A condition that should hold within milliseconds (a screen redrawn, a task parked).
    public static let condition: Duration = .seconds(120)

    /// ``childProcess`` in seconds, for APIs that take a `TimeInterval`.
    public static var childProcessSeconds: Double { Double(childProcess.components.seconds) }
}

/// Waits until `condition` holds, polling every 5 ms; records an issue if it still does not after
/// ``Patience/condition``.
public func eventually(
    _ what: String = "condition", sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @Sendable () -> Bool
) async throws {
    let deadline = ContinuousClock.now + Patience.condition
    while ContinuousClock.now < deadline {
        if condition() { return }
        try await Task.sleep(for: .milliseconds(5))
    }
    Issue.record("\(what) never held", sourceLocation: sourceLocation)
}

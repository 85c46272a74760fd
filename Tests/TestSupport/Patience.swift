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
    if try await poll(every: .milliseconds(5), { condition() ? true : nil }) == nil {
        Issue.record("\(what) never held", sourceLocation: sourceLocation)
    }
}

/// Looks every `interval` until `look` returns a value, for at most `limit`, and once more after
/// the limit.
///
/// The last look keeps the bound a hang detector only: a test process starved past the limit
/// (on a loaded 2-core machine every waiting test once woke after 200 s) finds there what may
/// have been true for minutes, and that is no hang.
///
/// - Returns: The first value `look` returned, or `nil` when it returned none by the last look.
public func poll<Value>(
    every interval: Duration, for limit: Duration = Patience.condition, _ look: () async throws -> Value?
) async throws -> Value? {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if let value = try await look() { return value }
        try await Task.sleep(for: interval)
    }
    return try await look()
}

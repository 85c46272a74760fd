/// What a running service shares with its invoker: the service signals readiness here and learns
/// here that it must stop.
///
/// ```swift
/// func run(in context: LaunchContext, lifetime: ServiceLifetime) async throws {
///     let listener = try await Listener.bind(port: 8080)
///     lifetime.ready()                      // dependents start now
///     await lifetime.waitForStopRequest()   // until shutdown
///     try await listener.drain()
/// }
/// ```
public struct ServiceLifetime: Sendable {
    let runner: ServiceRunner

    init(_ runner: ServiceRunner) {
        self.runner = runner
    }

    /// Signals that the service is ready: the commands that depend on it may start. Calls after the
    /// first do nothing.
    public func ready() {
        runner.signalReady()
    }

    /// Whether the invoker has asked the service to stop.
    public var isStopRequested: Bool {
        runner.isStopRequested
    }

    /// Suspends until the invoker asks the service to stop, or the calling task is cancelled.
    public func waitForStopRequest() async {
        await runner.waitForStopRequest()
    }
}

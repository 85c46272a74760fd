/// A long-running launch command: a service, such as a database client, an HTTP server or a
/// metrics exporter.
///
/// A plain ``AppCommand`` is done when ``AppCommand/execute(in:)`` returns. A service instead
/// *runs*: ``run(in:lifetime:)`` sets up, calls ``ServiceLifetime/ready()`` once its dependents
/// may start (the database accepts queries, the server listens), and then keeps running until the
/// invoker asks it to stop. The invoker starts dependents at readiness, not when `run` returns, and
/// stops services in reverse dependency order, each within ``stopTimeLimit``.
///
/// ```swift
/// struct HTTPServerService: ServiceCommand {
///     var dependencies: [LaunchID] { ["migrations"] }
///
///     func run(in context: LaunchContext, lifetime: ServiceLifetime) async throws {
///         let server = try await HTTPServer.bind(port: 8080)
///         lifetime.ready()
///         try await server.acceptConnections(until: lifetime)  // returns once asked to stop
///         try await server.drain()
///     }
/// }
/// ```
///
/// While the app runs, a service that returns or throws on its own is noticed: a required one
/// (``AppCommand/isRequired``, the default) shuts the app down, and the report's
/// ``LaunchReport/shutdownCause`` names it; an optional one is only reported. A service that ends
/// or throws before it is ready fails like a command that throws. ``AppCommand/timeout`` limits how
/// long a service may take to become ready.
///
/// Stopping has two steps: first the stop request (``ServiceLifetime/waitForStopRequest()``
/// returns, ``ServiceLifetime/isStopRequested`` turns `true`), the service's chance to drain. If it
/// has not returned after ``stopTimeLimit``, or a second shutdown signal escalates the shutdown, its
/// task is cancelled and the shutdown moves on without it.
public protocol ServiceCommand: AppCommand {
    /// How long the service may take to stop once asked; `nil` (the default) for the invoker's
    /// ``AppInvoker/stepTimeLimit``.
    var stopTimeLimit: Duration? { get }

    /// Runs the service: sets it up, signals readiness, and returns once it has stopped.
    ///
    /// Called once per launch, after all ``AppCommand/dependencies`` are done. Return (or throw
    /// `CancellationError`) once ``ServiceLifetime/waitForStopRequest()`` returns; check for
    /// cancellation, which follows when the stop takes longer than ``stopTimeLimit``.
    ///
    /// - Parameters:
    ///   - context: The launch options and the values earlier commands stored.
    ///   - lifetime: Where the service signals readiness and learns that it must stop.
    /// - Throws: Any error: the service failed (before readiness, the launch fails as for a
    ///   command; after it, see the type's discussion).
    func run(in context: LaunchContext, lifetime: ServiceLifetime) async throws

    /// Runs the service outside an invoker; the invoker calls ``run(in:lifetime:)`` instead.
    ///
    /// - Parameter context: The launch options and shared values.
    /// - Throws: What ``run(in:lifetime:)`` throws.
    func execute(in context: LaunchContext) async throws
}

extension ServiceCommand {
    /// `nil`: the invoker's ``AppInvoker/stepTimeLimit``.
    public var stopTimeLimit: Duration? { nil }

    /// Runs the service outside an invoker, until the calling task is cancelled.
    ///
    /// The invoker never calls this for a service; it calls ``run(in:lifetime:)``.
    ///
    /// - Parameter context: The launch options and shared values.
    /// - Throws: What ``run(in:lifetime:)`` throws.
    public func execute(in context: LaunchContext) async throws {
        try await run(in: context, lifetime: ServiceLifetime(ServiceRunner()))
    }
}

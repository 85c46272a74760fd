#if ServiceLifecycleIntegration
public import LaunchKit
public import Logging
public import ServiceLifecycle

/// Runs an `AppInvoker` as a ServiceLifecycle `Service`, inside a `ServiceGroup`.
///
/// The group's graceful shutdown shuts the launch down when the group reaches this service
/// (`AppInvoker/shutDown()`: services stopped and teardowns run in reverse dependency order, every
/// launch service among them, ServiceLifecycle's too), and the group's cancellation escalates it
/// (`AppInvoker/escalateShutdown()`). The other way, when the launch fails or a required launch
/// service ends, ``run()`` throws after the shutdown steps ran, which shuts the group down
/// (gracefully when the service is configured with `failureTerminationBehavior:
/// .gracefullyShutdownGroup`).
///
/// The outcomes are those of `AppInvoker/runUntilShutdown(signals:)`:
/// - a shutdown after readiness returns normally (`main` exits 0);
/// - a shutdown before the app was ready throws `LaunchError` `interrupted`, naming the signal when
///   one of ``signals`` came first, so that `main` exits with `LaunchError/exitStatus` (143 after a
///   SIGTERM; 1 when no signal is named);
/// - a second of ``signals`` escalates the launch's shutdown, as does the group's cancellation
///   (its `cancellationSignals`, which `ServiceGroup` requires to differ from its graceful ones, or
///   `maximumGracefulShutdownDuration`).
///
/// The service listens to ``signals`` only to name and count them: the group's graceful shutdown
/// (its `gracefulShutdownSignals`, which should be the same signals) is what stops the launch, in
/// the group's order.
///
/// ```swift
/// let launch = AppInvoker { DatabaseService(); MigrationsCommand() }
/// let group = ServiceGroup(
///     configuration: ServiceGroupConfiguration(
///         services: [
///             .init(
///                 service: AppInvokerService(launch, logger: logger, signals: [.terminate, .interrupt]),
///                 failureTerminationBehavior: .gracefullyShutdownGroup),
///             .init(service: httpServer),
///         ],
///         gracefulShutdownSignals: [.sigterm, .sigint],  // the same signals as the service's
///         logger: logger))
/// do {
///     try await group.run()
/// } catch let error as LaunchError {
///     exit(error.exitStatus)  // 143: SIGTERM before the app was ready
/// }
/// ```
public struct AppInvokerService: Service {
    /// The invoker this service runs.
    public let invoker: AppInvoker
    /// Where the launch events go, if anywhere.
    public let logger: Logger?
    /// The signals the group shuts down on: the first names an interruption, the next escalate.
    public let signals: [LaunchSignal]

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - invoker: The invoker to run; it runs once.
    ///   - logger: Logs every launch event (see `Logger.log(_:level:)`); `nil` for none.
    ///   - signals: The group's graceful shutdown signals: the first names an interrupted launch
    ///     (exit status 128 + n), a second escalates the shutdown. `[]` (the default, as a group's
    ///     default) listens to none: listening to a signal the group ignores would keep it from
    ///     ending the process.
    public init(_ invoker: AppInvoker, logger: Logger? = nil, signals: [LaunchSignal] = []) {
        self.invoker = invoker
        self.logger = logger
        self.signals = signals
    }

    /// Launches, runs until the group shuts down, then shuts the launch down.
    ///
    /// - Throws: The `LaunchError` of a failed launch or of a required service that ended, or
    ///   `interrupted` when the group shut down before the app was ready.
    public func run() async throws {
        let invoker = self.invoker
        let signals = self.signals
        // Subscribed before the launch starts, so no event is missed.
        let events = logger.map { _ in invoker.events() }
        try await withThrowingDiscardingTaskGroup { tasks in
            if let logger, let events {
                tasks.addTask {
                    for await event in events { logger.log(event) }
                }
            }
            try await withTaskCancellationHandler {
                try await withGracefulShutdownHandler {
                    _ = try await invoker.runUntilShutdown(signals: signals, handling: .namesAndEscalates)
                } onGracefulShutdown: {
                    Task { await invoker.shutDown() }
                }
            } onCancel: {
                Task { await invoker.escalateShutdown() }
            }
        }
    }
}
#endif

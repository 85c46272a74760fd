#if ServiceLifecycleIntegration
public import LaunchKit
public import Logging
public import ServiceLifecycle

/// Runs an `AppInvoker` as a ServiceLifecycle `Service`, inside a `ServiceGroup`.
///
/// The group's graceful shutdown shuts the launch down (`AppInvoker/shutDown()`: services
/// stopped and teardowns run in reverse dependency order), and the group's cancellation escalates it
/// (`AppInvoker/escalateShutdown()`). The other way, when the launch fails or a required
/// launch service ends, ``run()`` throws after the shutdown steps ran, which shuts the group down
/// (gracefully when the service is configured with `failureTerminationBehavior:
/// .gracefullyShutdownGroup`). Signals are the group's: the invoker listens to none.
///
/// ```swift
/// let launch = AppInvoker { DatabaseService(); MigrationsCommand() }
/// let group = ServiceGroup(
///     services: [AppInvokerService(launch, logger: logger), httpServer],
///     gracefulShutdownSignals: [.sigterm, .sigint],
///     logger: logger)
/// try await group.run()
/// ```
public struct AppInvokerService: Service {
    /// The invoker this service runs.
    public let invoker: AppInvoker
    /// Where the launch events go, if anywhere.
    public let logger: Logger?

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - invoker: The invoker to run; it runs once.
    ///   - logger: Logs every launch event (see `Logger.log(_:level:)`); `nil` for none.
    public init(_ invoker: AppInvoker, logger: Logger? = nil) {
        self.invoker = invoker
        self.logger = logger
    }

    /// Launches, runs until the group shuts down, then shuts the launch down.
    ///
    /// - Throws: The `LaunchError` of a failed launch or of a required service that ended.
    public func run() async throws {
        let invoker = self.invoker
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
                    _ = try await invoker.runUntilShutdown(signals: [])
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

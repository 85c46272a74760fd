#if ServiceLifecycleIntegration
public import LaunchKit
public import Logging
public import ServiceLifecycle

extension LaunchService {
    /// Makes a ServiceLifecycle `Service` a launch service: it starts once its dependencies are done,
    /// its dependents start once it is ready, and it stops in reverse dependency order.
    ///
    /// ```swift
    /// let invoker = AppInvoker {
    ///     LaunchService("database", running: client, readiness: .after { try await client.ping() })
    ///     LaunchCommand("migrations", dependsOn: ["database"]) { _ in try await migrate(client) }
    ///     LaunchService("http", dependsOn: ["migrations"], running: server)
    /// }
    /// ```
    ///
    /// The service runs in a `ServiceGroup` of its own, so it sees ServiceLifecycle's graceful
    /// shutdown: LaunchKit's stop request triggers it (`gracefulShutdown()` returns,
    /// `cancelWhenGracefulShutdown` cancels), and the stop time limit or an escalation cancels the
    /// service. A service that returns on its own ends; one that throws fails.
    ///
    /// - Parameters:
    ///   - id: The service's identifier.
    ///   - dependencies: The commands that must be done (services: ready) before it starts.
    ///   - isRequired: Whether its failure, or its end while the app runs, shuts the app down.
    ///   - timeout: The longest it may take to become ready; `nil` for no limit.
    ///   - stopTimeLimit: How long its graceful shutdown may take; `nil` for the invoker's default.
    ///   - service: The ServiceLifecycle service.
    ///   - readiness: When the service counts as ready; by default as soon as it started.
    ///   - logger: The logger of the service's group (ServiceLifecycle logs at debug level).
    public init(
        _ id: LaunchID,
        dependsOn dependencies: [LaunchID] = [],
        isRequired: Bool = true,
        timeout: Duration? = nil,
        stopTimeLimit: Duration? = nil,
        running service: some Service,
        readiness: ServiceReadiness = .whenStarted,
        logger: Logger = Logger(label: "LaunchKit", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.init(
            id, dependsOn: dependencies, isRequired: isRequired, timeout: timeout, stopTimeLimit: stopTimeLimit
        ) { _, lifetime in
            try await LifecycleServiceRun.run(service, id: id, readiness: readiness, logger: logger, lifetime: lifetime)
        }
    }
}

/// Runs one ServiceLifecycle service for LaunchKit.
enum LifecycleServiceRun {
    static func run(
        _ service: some Service, id: LaunchID, readiness: ServiceReadiness, logger: Logger, lifetime: ServiceLifetime
    ) async throws {
        // Returning on its own ends the group normally (LaunchKit reports it as ended); throwing
        // fails it with the service's error.
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(
                        service: service, successTerminationBehavior: .gracefullyShutdownGroup,
                        failureTerminationBehavior: .cancelGroup)
                ],
                logger: logger))
        try await withThrowingTaskGroup(of: Bool.self) { tasks in
            tasks.addTask {
                do {
                    try await runDetached(group)
                } catch let error as ServiceGroupError where error.errorCode == .alreadyFinished {
                    // Asked to stop before the group had started: it never ran.
                    guard lifetime.isStopRequested else { throw error }
                }
                return true
            }
            tasks.addTask {
                try await readiness.probe?()
                lifetime.ready()
                await lifetime.waitForStopRequest()
                await group.triggerGracefulShutdown()
                return false
            }
            // The group's end (the service's) ends the run; the watcher only triggers the shutdown.
            while let groupEnded = try await tasks.next() {
                if groupEnded {
                    tasks.cancelAll()
                    return
                }
            }
        }
    }

    /// Runs the service's group in a task that inherits no task-local value, cancelled with the
    /// caller.
    ///
    /// Every task inherits its creator's task locals, ServiceLifecycle's graceful shutdown among
    /// them, and a `ServiceGroup` follows the graceful shutdown it inherits. Run inside an outer
    /// group (a launch under `AppInvokerService`), the service then stopped as soon as the outer
    /// group shut down, before the services depending on it had drained (issue 25, G1): its stop
    /// must come from LaunchKit alone, in reverse dependency order.
    private static func runDetached(_ group: ServiceGroup) async throws {
        let run = Task.detached { try await group.run() }
        try await withTaskCancellationHandler {
            try await run.value
        } onCancel: {
            run.cancel()
        }
    }
}
#endif

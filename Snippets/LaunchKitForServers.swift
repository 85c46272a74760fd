// A server start-up with LaunchKit and with ServiceGroup alone: the examples of "LaunchKit for
// Servers" (LaunchKit.docc/Articles/LaunchKitForServers.md). Built with the
// ServiceLifecycleIntegration trait (Scripts/test.sh, Scripts/generate-docs.sh).
#if ServiceLifecycleIntegration
import Foundation
import LaunchKit
import LaunchKitServiceLifecycle
import Logging
import ServiceLifecycle

// MARK: Stand-ins for a database client, an HTTP server and a metrics exporter

/// A database client as ServiceLifecycle knows it: `run()` keeps its connections until shutdown.
actor DatabaseClient: Service {
    private(set) var isConnected = false

    func run() async throws {
        isConnected = true
        try? await gracefulShutdown()
        isConnected = false
    }

    func ping() async throws {
        while !isConnected { try await Task.sleep(for: .milliseconds(1)) }
    }

    func migrate() async throws {}
}

/// An HTTP server: accepts connections until its graceful shutdown, then drains them.
struct HTTPServer: Service {
    let database: DatabaseClient

    func run() async throws {
        try? await gracefulShutdown()
        // Drain open requests here.
    }
}

/// Exports metrics; the app runs fine without it.
struct MetricsExporter: Service {
    func run() async throws {
        try? await gracefulShutdown()
    }
}

let logger = Logger(label: "server")
let database = DatabaseClient()

// MARK: With LaunchKit

let invoker = AppInvoker(stepTimeLimit: .seconds(5)) {
    LaunchService("database", running: database, readiness: .after { try await database.ping() })
    LaunchCommand("migrations", dependsOn: ["database"], timeout: .seconds(30)) { _ in
        try await database.migrate()
    }
    LaunchService("http", dependsOn: ["migrations"], running: HTTPServer(database: database))
    LaunchService("metrics", isRequired: false, running: MetricsExporter())
}

func serve() async -> Int32 {
    let events = invoker.events()
    Task { for await event in events { logger.log(event) } }
    do {
        let report = try await invoker.runUntilShutdown()  // SIGTERM, SIGINT; a second one escalates
        print(report.table())
        return 0
    } catch let error as LaunchError {
        logger.error("\(error.message)")
        return error.exitStatus  // 143 after a SIGTERM during the launch, 1 after a failure
    } catch {
        return 1
    }
}

// MARK: With ServiceGroup alone

/// Migrations as a service: ServiceGroup starts every service at once, so it waits for the
/// database itself, and the HTTP server cannot wait for it.
struct MigrationService: Service {
    let database: DatabaseClient

    func run() async throws {
        try await database.ping()
        try await database.migrate()
        try? await gracefulShutdown()
    }
}

func serveWithServiceGroup() async throws {
    let group = ServiceGroup(
        configuration: ServiceGroupConfiguration(
            services: [
                .init(service: database),
                .init(service: MigrationService(database: database)),
                .init(service: HTTPServer(database: database)),
                .init(service: MetricsExporter(), failureTerminationBehavior: .ignore),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
    try await group.run()  // shuts down in reverse order of the list
}

// MARK: Both together: the launch as one service of a group

func serveInAGroup() async -> Int32 {
    let group = ServiceGroup(
        configuration: ServiceGroupConfiguration(
            services: [
                .init(
                    // The group's signals: the first names an interruption, a second escalates.
                    service: AppInvokerService(invoker, logger: logger, signals: [.terminate, .interrupt]),
                    failureTerminationBehavior: .gracefullyShutdownGroup)
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
    do {
        try await group.run()
        return 0
    } catch let error as LaunchError {
        return error.exitStatus  // 143 after a SIGTERM before the app was ready
    } catch {
        return 1
    }
}

// The snippet only compiles the three start-ups; running them would serve forever.
_ = (serve, serveWithServiceGroup, serveInAGroup)
#endif

#if ServiceLifecycleIntegration
import InMemoryLogging
import LaunchKit
import LaunchKitServiceLifecycle
import Logging
import ServiceLifecycle
import Synchronization
import TestSupport
import Testing

/// Records what services do, in order, from any task.
final class Events: Sendable {
    private let events = Mutex<[String]>([])
    func record(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
}

/// A ServiceLifecycle service that runs until its graceful shutdown, as a database client would.
struct RecordingService: Service {
    let name: String
    let events: Events
    var failAfter: Duration?

    func run() async throws {
        events.record("run \(name)")
        if let failAfter {
            try await Task.sleep(for: failAfter)
            events.record("fail \(name)")
            throw ServiceCrashed()
        }
        try? await gracefulShutdown()
        events.record("graceful \(name)")
    }
}

struct ServiceCrashed: Error, CustomStringConvertible {
    var description: String { "crashed" }
}

let quietLogger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

@Suite struct ServiceLifecycleInteropTests {
    @Test func serviceLifecycleServicesJoinTheLaunchGraphWithReadiness() async throws {
        let events = Events()
        let databaseReachable = Mutex(false)
        let invoker = AppInvoker {
            LaunchService(
                "database", running: RecordingService(name: "database", events: events),
                readiness: .after {
                    // Ready once the client answers, not when run() starts.
                    while !databaseReachable.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
                    events.record("database ready")
                })
            LaunchCommand("migrations", dependsOn: ["database"]) { _ in
                events.record("migrations")
            }
            LaunchService("http", dependsOn: ["migrations"], running: RecordingService(name: "http", events: events))
        }
        let launch = Task { try await invoker.run() }
        try await eventually { events.all.contains("run database") }
        try await Task.sleep(for: .milliseconds(20))
        #expect(!events.all.contains("migrations"), "migrations ran before the database was ready")

        databaseReachable.withLock { $0 = true }
        let report = try await launch.value
        #expect(report["http"]?.outcome == .running)

        let steps = await invoker.shutDown()

        // Stopped in reverse dependency order, each through ServiceLifecycle's graceful shutdown.
        #expect(steps.map { "\($0.kind) \($0.id)" } == ["stop http", "stop database"])
        #expect(steps.allSatisfy { $0.outcome == .succeeded })
        #expect(
            events.all == [
                "run database", "database ready", "migrations", "run http", "graceful http", "graceful database",
            ])
        #expect(await invoker.report?["database"]?.outcome == .stopped)
    }

    @Test func serviceLifecycleServiceThatThrowsShutsTheLaunchDown() async throws {
        let events = Events()
        let invoker = AppInvoker {
            LaunchService("database", running: RecordingService(name: "database", events: events))
            LaunchService(
                "http", dependsOn: ["database"],
                running: RecordingService(name: "http", events: events, failAfter: .milliseconds(50)))
        }
        let error = await #expect(throws: LaunchError.self) { try await invoker.runUntilShutdown(signals: []) }
        #expect(error?.code == .serviceEnded)
        #expect(error?.failedCommand == "http")
        #expect(error?.report?["http"]?.outcome == .failed("crashed"))
        #expect(events.all.last == "graceful database")
    }

    @Test func appInvokerInAServiceGroupShutsDownGracefullyWithTheGroup() async throws {
        let events = Events()
        let invoker = AppInvoker {
            LaunchService("database") { _, lifetime in
                lifetime.ready()
                await lifetime.waitForStopRequest()
                events.record("stop database")
            }
            LaunchCommand("migrations", dependsOn: ["database"]) { _ in
                events.record("migrations")
            } tearDown: { _ in
                events.record("teardown migrations")
            }
        }
        let logs = InMemoryLogHandler()
        let group = ServiceGroup(
            services: [
                AppInvokerService(invoker, logger: Logger(label: "launch", factory: { _ in logs })),
                RecordingService(name: "http", events: events),
            ],
            logger: quietLogger)
        let running = Task { try await group.run() }
        try await invoker.waitUntilReady()
        try await eventually { events.all.contains("run http") }

        await group.triggerGracefulShutdown()

        try await running.value
        #expect(events.all.contains("graceful http"))
        #expect(Array(events.all.suffix(2)) == ["teardown migrations", "stop database"])
        let report = try #require(await invoker.report)
        #expect(report.shutdownCause == .requested)
        #expect(report.escalation == nil)
        // The launch events went to the logger, with their details.
        let messages = logs.entries.map { "\($0.message)" }
        #expect(messages.contains { $0.hasSuffix("database: ready") })
        #expect(messages.contains { $0.hasSuffix("app ready") })
        #expect(messages.last?.hasSuffix("shut down") == true)
        let finished = logs.entries.first {
            $0.metadata["launch.command"] == "migrations" && $0.metadata["launch.event"] == "finished"
        }
        #expect(finished?.metadata["launch.outcome"] == "succeeded")
    }

    @Test func launchServiceEndingShutsTheGroupDownGracefully() async throws {
        let events = Events()
        let invoker = AppInvoker {
            LaunchService("http") { _, lifetime in
                lifetime.ready()
                try await Task.sleep(for: .milliseconds(50))
                throw ServiceCrashed()
            }
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: AppInvokerService(invoker), failureTerminationBehavior: .gracefullyShutdownGroup),
                    .init(service: RecordingService(name: "metrics", events: events)),
                ],
                logger: quietLogger))

        let error = await #expect(throws: LaunchError.self) { try await group.run() }

        #expect(error?.code == .serviceEnded)
        #expect(events.all == ["run metrics", "graceful metrics"])
    }

    @Test func cancellingTheGroupEscalatesTheLaunchShutdown() async throws {
        let draining = Mutex(false)
        let invoker = AppInvoker(stepTimeLimit: .seconds(3_600)) {
            LaunchService("http") { _, lifetime in
                lifetime.ready()
                await lifetime.waitForStopRequest()
                draining.withLock { $0 = true }
                try? await Task.sleep(for: .seconds(3_600))  // a drain that ignores cancellation's hint
            }
        }
        let group = ServiceGroup(services: [AppInvokerService(invoker)], logger: quietLogger)
        let running = Task { try await group.run() }
        try await invoker.waitUntilReady()
        await group.triggerGracefulShutdown()
        try await eventually { draining.withLock { $0 } }

        running.cancel()

        _ = await running.result
        let report = try #require(await invoker.report)
        #expect(report.escalation?.reason == .requested)
        #expect(report.tearDowns.map(\.outcome) == [.cancelled])
    }

    /// A ServiceLifecycle service that prints when its graceful shutdown reaches it (the issue's
    /// `Upstream`).
    struct Upstream: Service {
        let events: Events
        func run() async throws {
            try? await gracefulShutdown()
            events.record("upstream stopped")
        }
    }

    /// Issue 25, G1: inside a group, a ServiceLifecycle launch service followed the outer group's
    /// graceful shutdown (inherited through its task's locals) and stopped while the service
    /// depending on it still drained. It stops in reverse dependency order, as under
    /// `runUntilShutdown()`, and the report says so. Repeated: the wrong order was a race.
    @Test func aLaunchServiceStopsAfterItsDependentsInsideAServiceGroup() async throws {
        for _ in 0..<20 {
            let events = Events()
            let invoker = AppInvoker {
                LaunchService("upstream", running: Upstream(events: events))
                LaunchService("api", dependsOn: ["upstream"]) { _, lifetime in
                    lifetime.ready()
                    await lifetime.waitForStopRequest()
                    try? await Task.sleep(for: .milliseconds(200))  // draining
                    events.record("api stopped")
                }
            }
            let group = ServiceGroup(services: [AppInvokerService(invoker)], logger: quietLogger)
            let running = Task { try await group.run() }
            try await invoker.waitUntilReady()

            await group.triggerGracefulShutdown()

            try await running.value
            #expect(events.all == ["api stopped", "upstream stopped"])
            let report = try #require(await invoker.report)
            #expect(report.tearDowns.map { "\($0.kind) \($0.id)" } == ["stop api", "stop upstream"])
            #expect(report.tearDowns.allSatisfy { $0.outcome == .succeeded })
            #expect(report.shutdownCause == .requested)
        }
    }

    /// Issue 25, G3: a group shutting down before the app was ready ended the service normally (exit
    /// 0 for a server that never served). It throws `interrupted`, as `runUntilShutdown()` does.
    @Test func aGroupShutdownBeforeReadinessIsAnInterruption() async throws {
        let started = Mutex(false)
        let invoker = AppInvoker {
            LaunchCommand("slow") { _ in
                started.withLock { $0 = true }
                try await Task.sleep(for: .seconds(3_600))
            }
        }
        let group = ServiceGroup(services: [AppInvokerService(invoker)], logger: quietLogger)
        let running = Task { try await group.run() }
        try await eventually { started.withLock { $0 } }

        await group.triggerGracefulShutdown()

        let error = await #expect(throws: LaunchError.self) { try await running.value }
        #expect(error?.code == .interrupted && error?.signal == nil && error?.exitStatus == 1)
        #expect(error?.report?.readyAt == nil)
        #expect(error?.report?["slow"]?.outcome == .cancelled)
    }
}
#endif

// servicegroup-fixture: a launch inside a ServiceGroup (AppInvokerService), for the signal tests of
// LaunchKitServiceLifecycleTests (issue 25). Empty without the ServiceLifecycleIntegration trait.
//
// The group shuts down gracefully on SIGTERM and SIGINT; the service is given the same signals, so
// a second one escalates the launch's shutdown (a group cannot list them as cancellation signals
// too: ServiceGroup refuses an overlap). It prints "ready" once the app is ready, what the services do,
// then the report ("step <kind> <id>: <outcome>", "escalation <reason|none>") and exits with 0, or
// with the LaunchError's exitStatus ("error <code>").
//
// `--scenario NAME`:
// - `ordered` (default): upstream (a ServiceLifecycle service) and api → upstream, which drains for
//   200 ms after its stop request: "api stopped" must come before "upstream stopped".
// - `slow-launch`: one command that takes an hour: a signal comes before readiness.
// - `slow-drain`: as `ordered`, but api drains for an hour: only a second signal ends it.
#if ServiceLifecycleIntegration
import Foundation
import LaunchKit
import LaunchKitServiceLifecycle
import Logging
import ServiceLifecycle
import UnixSignals

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a line to standard output at once (the test reads it while we run).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Stops at its graceful shutdown, which must come from LaunchKit after api's.
struct Upstream: Service {
    func run() async throws {
        try? await gracefulShutdown()
        say("upstream stopped")
    }
}

func makeInvoker(_ scenario: String) -> AppInvoker? {
    switch scenario {
    case "ordered", "slow-drain":
        let drain: Duration = scenario == "ordered" ? .milliseconds(200) : .seconds(3_600)
        return AppInvoker(stepTimeLimit: .seconds(3_600)) {
            LaunchService("upstream", running: Upstream())
            LaunchService("api", dependsOn: ["upstream"]) { _, lifetime in
                lifetime.ready()
                await lifetime.waitForStopRequest()
                say("api draining")
                try? await Task.sleep(for: drain)
                say("api stopped")
            }
        }
    case "slow-launch":
        return AppInvoker {
            LaunchCommand("connect") { _ in
                say("connecting")
                try await Task.sleep(for: .seconds(3_600))
            }
        }
    default:
        return nil
    }
}

let arguments = CommandLine.arguments.dropFirst()
let scenario = arguments.firstIndex(of: "--scenario").map { arguments[$0 + 1] } ?? "ordered"
guard let invoker = makeInvoker(scenario) else {
    say("error unknown scenario '\(scenario)'")
    exit(2)
}
let quiet = Logger(label: "servicegroup-fixture", factory: { _ in SwiftLogNoOpLogHandler() })
let group = ServiceGroup(
    configuration: ServiceGroupConfiguration(
        services: [
            .init(
                service: AppInvokerService(invoker, signals: [.terminate, .interrupt]),
                failureTerminationBehavior: .gracefullyShutdownGroup)
        ],
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: quiet))
let readiness = Task {
    try await invoker.waitUntilReady()
    say("ready")
}
/// Runs the group and prints the outcome; a function, so that its values are released before
/// `exit` (LeakSanitizer reports what a top-level async frame still holds then).
func runGroup() async -> Int32 {
    var status: Int32 = 0
    do {
        try await group.run()
    } catch let error as LaunchError {
        say("error \(error.code)")
        status = error.exitStatus
    } catch {
        say("error \(error)")
        status = 1
    }
    _ = await readiness.result
    if let report = await invoker.report {
        for step in report.tearDowns { say("step \(step.kind) \(step.id): \(step.outcome)") }
        say("escalation \(report.escalation.map { "\($0.reason)" } ?? "none")")
    }
    return status
}
exit(await runGroup())
#endif

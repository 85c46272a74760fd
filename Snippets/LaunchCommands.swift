// Launch commands with LaunchKit: the examples of "Launch Commands"
// (LaunchKit.docc/Articles/LaunchCommands.md).
import CommandKit
import LaunchKit

// MARK: A flat list, as in the seed

// Receivers: SDKs to configure (stand-ins for Firebase and OneSignal).
enum CrashReporter {
    static func configure() {}
}

enum PushService {
    static func initialize(appID: String, arguments: [String]) {}
}

struct CrashReporterCommand: AppCommand {
    func execute(in context: LaunchContext) async throws {
        CrashReporter.configure()
    }
}

struct PushServiceCommand: AppCommand {
    let launchOptions: LaunchOptions

    func execute(in context: LaunchContext) async throws {
        PushService.initialize(appID: "App_Id", arguments: launchOptions.arguments)
    }
}

let options = LaunchOptions(arguments: ["albums"], environment: [:])
let appInvoker = AppInvoker(
    commands: [
        CrashReporterCommand(),
        PushServiceCommand(launchOptions: options),
    ], options: options)
let firstReport = try await appInvoker.run()
print(firstReport.table())

// MARK: A dependency graph

final class Database: Sendable {
    static func open(path: String) throws -> Database { Database() }
    func migrate() throws {}
    func close() {}
}

extension LaunchKey where Value == Database {
    static var database: LaunchKey<Database> { LaunchKey("database") }
}

struct OpenDatabase: TearDownCommand {
    var dependencies: [LaunchID] { [LaunchID(CrashReporterCommand.self)] }

    func execute(in context: LaunchContext) async throws {
        context[.database] = try Database.open(path: "library.sqlite")
    }

    func tearDown(in context: LaunchContext) async throws {
        context[.database]?.close()
    }
}

let invoker = AppInvoker(options: options) {
    CrashReporterCommand()
    OpenDatabase()
    LaunchCommand("migrate", dependsOn: [LaunchID(OpenDatabase.self)], timeout: .seconds(5)) { context in
        try context.require(.database).migrate()
    }
    LaunchCommand.onMainActor("window", dependsOn: ["migrate"]) { _ in
        print("main window shown")
    }
    LaunchCommand("push", dependsOn: [LaunchID(CrashReporterCommand.self)], isRequired: false) { _ in
        PushService.initialize(appID: "App_Id", arguments: [])
    }
    LaunchCommand("warm covers", dependsOn: ["migrate"], phase: .deferred, isRequired: false) { _ in
        try await Task.sleep(for: .milliseconds(5))
    }
}

print(try invoker.plan())  // the waves, without running anything
let report = try await invoker.run()
try await invoker.waitForCompletion(of: "warm covers")

// MARK: Commands you already have

struct ConfigureLogging: Command, Sendable {
    func execute() { print("logging configured") }
}

let mixed = AppInvoker(options: options) {
    LaunchCommand("logging", running: ConfigureLogging())  // a CommandKit command joins the graph
    CrashReporterCommand()
}
print(try await mixed.run().criticalPath.count)

// MARK: Reading the report

print(report.table())
print(report.criticalPath, report.criticalPathDuration)
if let migrate = report["migrate"] {
    print(migrate.outcome, migrate.queueTime ?? .zero, migrate.runTime ?? .zero)
}
let trace = report.chromeTrace()  // open in ui.perfetto.dev or chrome://tracing
print(trace.count > 0)

// MARK: Shutting down

let steps = await invoker.shutDown()  // OpenDatabase's tearDown runs: dependents first
print(steps.map { "\($0.id): \($0.outcome)" })

// MARK: Invalid graphs fail before anything runs

let broken = AppInvoker(options: options) {
    LaunchCommand("a", dependsOn: ["b"]) { _ in }
    LaunchCommand("b", dependsOn: ["a"]) { _ in }
}
do {
    _ = try broken.plan()
} catch {
    print(error.code, error.commands)  // cycle [a, b]
}

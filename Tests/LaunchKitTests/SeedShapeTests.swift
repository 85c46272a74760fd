import CommandKit
import LaunchKit
import Locking
import Testing

// The seed's example: an app delegate's third-party set-up as launch commands.

/// Stands in for `FirebaseApp.configure()`.
private let firebaseConfigured = LockedState(0)
/// Stands in for OneSignal's initializer: records the launch options it was given.
private let oneSignalOptions = LockedState<[String]>([])

extension LaunchOptions.Key where Value == String {
    static var oneSignalAppID: Self { Self("oneSignalAppID") }
}

private struct FirebaseCommand: AppCommand {
    func execute(in context: LaunchContext) async throws {
        firebaseConfigured.withLock { $0 += 1 }
    }
}

private struct OneSignalCommand: AppCommand {
    let launchOptions: LaunchOptions

    func execute(in context: LaunchContext) async throws {
        let appID = launchOptions[.oneSignalAppID] ?? "none"
        oneSignalOptions.withLock { $0.append("\(appID) \(launchOptions.arguments.joined(separator: " "))") }
    }
}

@Suite(.serialized)
struct SeedShapeTests {
    private func makeOptions() -> LaunchOptions {
        var options = LaunchOptions(arguments: ["app", "--verbose"], environment: ["HOME": "/tmp"])
        options[.oneSignalAppID] = "app-123"
        return options
    }

    @Test func listOfCommandsRunsEachOnce() async throws {
        let options = makeOptions()
        let before = firebaseConfigured.withLock { $0 }
        oneSignalOptions.withLock { $0.removeAll() }

        let invoker = AppInvoker(commands: [FirebaseCommand(), OneSignalCommand(launchOptions: options)])
        let report = try await invoker.run()

        #expect(firebaseConfigured.withLock { $0 } == before + 1)
        #expect(oneSignalOptions.withLock { $0 } == ["app-123 app --verbose"])
        #expect(report.entries.map(\.id) == [LaunchID(FirebaseCommand.self), LaunchID(OneSignalCommand.self)])
        #expect(report.entries.allSatisfy { $0.outcome == .succeeded })
    }

    @Test func resultBuilderReadsAsShort() async throws {
        let options = makeOptions()
        oneSignalOptions.withLock { $0.removeAll() }
        let withPush = true

        let invoker = AppInvoker(options: options) {
            FirebaseCommand()
            if withPush { OneSignalCommand(launchOptions: options) }
        }
        try await invoker.run()

        #expect(oneSignalOptions.withLock { $0 } == ["app-123 app --verbose"])
        #expect(invoker.commands.count == 2)
        #expect(invoker.context.options.environment["HOME"] == "/tmp")
    }

    @Test func builderSupportsConditionalsAndLoops() {
        let names = ["a", "b", "c"]
        let invoker = AppInvoker(options: LaunchOptions()) {
            if names.isEmpty { FirebaseCommand() } else { LaunchCommand("first") { _ in } }
            for name in names { LaunchCommand(LaunchID(name)) { _ in } }
            [LaunchCommand("x") { _ in }, LaunchCommand("y") { _ in }]
        }
        #expect(invoker.commands.map(\.id) == ["first", "a", "b", "c", "x", "y"])
    }

    @Test func defaultIdentifierIsTheTypeName() {
        #expect(FirebaseCommand().id == LaunchID("FirebaseCommand"))
        #expect(FirebaseCommand().dependencies.isEmpty)
        #expect(FirebaseCommand().phase == .beforeReady)
        #expect(FirebaseCommand().isolation == .concurrent)
        #expect(FirebaseCommand().isRequired)
        #expect(FirebaseCommand().timeout == nil)
    }
}

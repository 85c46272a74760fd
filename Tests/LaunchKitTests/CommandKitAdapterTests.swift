import CommandKit
import LaunchKit
import Synchronization
import Testing

@Suite struct CommandKitAdapterTests {
    private struct Increment: Command, Sendable {
        let counter: Recorder
        let name: String
        func execute() throws { counter.record(name) }
    }

    private struct Fetch: AsyncCommand, Sendable {
        let counter: Recorder
        func execute() async throws {
            await Task.yield()
            counter.record("fetch")
        }
    }

    private struct Failing: Command, Sendable {
        func execute() throws { throw Boom() }
    }

    @Test func commandKitCommandsRunInTheLaunchGraph() async throws {
        let recorder = Recorder()
        let invoker = AppInvoker(options: LaunchOptions()) {
            LaunchCommand("second", dependsOn: ["first"], running: Increment(counter: recorder, name: "second"))
            LaunchCommand("first", running: Increment(counter: recorder, name: "first"))
            LaunchCommand("fetch", dependsOn: ["second"], phase: .deferred, running: Fetch(counter: recorder))
        }
        let report = try await invoker.run()
        #expect(recorder.all == ["first", "second", "fetch"])
        #expect(report["fetch"]?.phase == .deferred)
    }

    @Test func aFailingCommandKitCommandFailsItsLaunchCommand() async throws {
        let invoker = AppInvoker(commands: [LaunchCommand("bad", isRequired: false, running: Failing())])
        let report = try await invoker.run()
        #expect(report["bad"]?.outcome == .failed("boom"))
    }
}

import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// TestSupport's ``ChildExit``: the exit of a `posix_spawn`ed child, awaited without holding a
/// test-pool thread, and killed at its deadline.
@Suite struct ChildExitTests {
    /// Spawns `/bin/sh -c script` (standard input on /dev/null, output to `output`) and returns its
    /// pid; `inheriting` leaves the child this process's other descriptors.
    static func spawn(_ script: String, output: String = "/dev/null", inheriting: Bool = false) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if !inheriting { closeInheritedDescriptors(in: &actions) }
        // No signal blocked or ignored in the child, whatever the test runner's threads block.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ["/bin/sh", "-c", script]
        var arguments = argv.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &arguments, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        return pid
    }

    @Test func anExitStatusAndASignalAreTold() async throws {
        let exited = try await ChildExit(of: Self.spawn("exit 3"), timeout: Patience.childProcess)
        #expect(exited == ChildExit(status: 3, wasSignaled: false, timedOut: false))
        #expect(exited.shellStatus == 3)
        let signaled = try await ChildExit(of: Self.spawn("kill -TERM $$"), timeout: Patience.childProcess)
        #expect(signaled == ChildExit(status: SIGTERM, wasSignaled: true, timedOut: false))
        #expect(signaled.shellStatus == 128 + SIGTERM)
    }

    @Test func aChildOutlivingItsDeadlineIsKilled() async throws {
        // No bound on the time taken: the kill is on time, but this test's resumption waits for a
        // pool thread, which other suites may hold for many seconds under a sanitizer.
        let exit = try await ChildExit(of: Self.spawn("exec sleep 300"), timeout: .milliseconds(200))
        #expect(exit == ChildExit(status: SIGKILL, wasSignaled: true, timedOut: true))
    }

    /// A spawned child holds none of this process's descriptors (a tmux server holding a
    /// `Process`'s exit socket made another test's child seem to run for ever); spawned without
    /// the close actions, the same child holds it.
    @Test func aSpawnedChildHoldsNoneOfThisProcesssDescriptors() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("fds-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let script = "[ -e /proc/$$/fd/\(ends[1]) ] && echo open || echo closed"
        for (inheriting, expected) in [(false, "closed"), (true, "open")] {
            let exit = try await ChildExit(
                of: Self.spawn(script, output: output, inheriting: inheriting), timeout: Patience.childProcess)
            #expect(exit.shellStatus == 0)
            let said = try String(contentsOfFile: output, encoding: .utf8)
            #expect(said == expected + "\n", "inheriting: \(inheriting)")
        }
    }

    @Test func aPidThatIsNoChildThrows() async throws {
        await #expect(throws: POSIXError.self) {
            _ = try await ChildExit(of: getpid(), timeout: .seconds(1))
        }
    }

    /// More waits than the pool has threads, and another task still runs while they all wait: it
    /// kills the children, so they end by SIGKILL. Had each wait held a pool thread, that task
    /// would run only once the children ended on their own (exit 0, five minutes later: under
    /// ThreadSanitizer other suites once kept the pool from this test for 54 s).
    @Test func waitsHoldNoPoolThread() async throws {
        let count = 4 * ProcessInfo.processInfo.activeProcessorCount
        let pids = try (0..<count).map { _ in try Self.spawn("exec sleep 300") }
        let exits = try await withThrowingTaskGroup(of: ChildExit.self) { group in
            for pid in pids {
                group.addTask { try await ChildExit(of: pid, timeout: .seconds(600)) }
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(100))
                for pid in pids { _ = kill(pid, SIGKILL) }
                return ChildExit(status: SIGKILL, wasSignaled: true, timedOut: false)
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(exits.count == count + 1)
        #expect(exits.allSatisfy { $0 == ChildExit(status: SIGKILL, wasSignaled: true, timedOut: false) }, "\(exits)")
    }
}

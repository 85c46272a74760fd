// Public: `pid_t` in the API (Foundation re-exports the C library).
public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a child started with `posix_spawn` ended, awaited without blocking a test-pool thread.
///
/// `waitpid` holds its thread until the child ends, and the test pool has one thread per core:
/// a test blocked there starves every other suite (under the sanitizers about 30 tests stalled
/// together and LaunchKit's readiness wait timed out). ``init(of:timeout:)`` parks a thread of its
/// own in `waitid` instead, and kills the child (SIGKILL) if it outlives the deadline.
///
/// For a Foundation `Process`, which reaps its child itself, use ``ProcessExit``.
///
/// ```swift
/// var pid = pid_t()
/// guard posix_spawnp(&pid, "tmux", nil, nil, &arguments, &environment) == 0 else { … }
/// let exit = try await ChildExit(of: pid, timeout: .seconds(30))
/// #expect(exit.shellStatus == 0 && !exit.timedOut)
/// ```
public struct ChildExit: Sendable, Equatable, CustomStringConvertible {
    /// The exit status, or the signal's number when a signal ended the child.
    public var status: Int32
    /// Whether a signal ended the child (a crash, or the deadline's SIGKILL).
    public var wasSignaled: Bool
    /// Whether the child was killed for outliving its deadline.
    public var timedOut: Bool

    /// The status as a shell's `$?` reports it: the exit status, or 128 plus the signal's number.
    public var shellStatus: Int32 { wasSignaled ? 128 + status : status }

    /// "exit 3", "killed by signal 9 (timed out)".
    public var description: String {
        (wasSignaled ? "killed by signal \(status)" : "exit \(status)") + (timedOut ? " (timed out)" : "")
    }

    /// Creates an exit record from its parts.
    public init(status: Int32, wasSignaled: Bool, timedOut: Bool) {
        self.status = status
        self.wasSignaled = wasSignaled
        self.timedOut = timedOut
    }

    /// Waits for the child `pid` of this process to end, killing it when `timeout` passes first.
    ///
    /// Throws `ECHILD` when `pid` is not a child of this process still to be waited for.
    public init(of pid: pid_t, timeout: Duration) async throws {
        let deadline = Deadline(pid: pid)
        deadline.arm(after: timeout)
        let waitStatus: Int32? = await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: Self.reap(pid, marking: deadline))
            }.start()
        }
        guard let waitStatus else { throw POSIXError(.ECHILD) }
        // The bits of <sys/wait.h>'s WIFEXITED, WEXITSTATUS and WTERMSIG (macros Swift cannot import).
        let signal = waitStatus & 0x7F
        self.init(
            status: signal == 0 ? (waitStatus >> 8) & 0xFF : signal, wasSignaled: signal != 0,
            timedOut: deadline.fired)
    }

    /// Reaps the child `pid` on a thread of its own, killing it when `timeout` passes first, and
    /// returns at once: for clean-up in a `defer`, which cannot await.
    public static func reapInBackground(_ pid: pid_t, timeout: Duration) {
        let deadline = Deadline(pid: pid)
        deadline.arm(after: timeout)
        Thread { _ = reap(pid, marking: deadline) }.start()
    }

    /// Blocks the calling (dedicated) thread until `pid` ends; returns its wait status, or nil.
    ///
    /// The child is first waited for without being reaped, so until the deadline learns it exited
    /// the pid stays this child's (a zombie), and the deadline can never kill a reused pid.
    private static func reap(_ pid: pid_t, marking deadline: Deadline) -> Int32? {
        var info = siginfo_t()
        var waited: Int32
        repeat {
            waited = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT)
        } while waited == -1 && errno == EINTR
        // Disarmed on failure too: `pid` is then no child of ours, and must never be killed.
        deadline.disarm()
        guard waited == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return nil }
        }
        return status
    }

    /// The kill at the deadline, and whether it happened.
    private final class Deadline: @unchecked Sendable {
        // Why `@unchecked Sendable` is safe: `done` and `killed` are only touched with `lock` held.
        private let lock = NSLock()
        private let pid: pid_t
        private var done = false
        private var killed = false

        init(pid: pid_t) { self.pid = pid }

        var fired: Bool { lock.withLock { killed } }

        /// Kills the child after `timeout` unless it has ended (on a Dispatch thread, not the pool).
        func arm(after timeout: Duration) {
            let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                lock.withLock {
                    guard !done else { return }
                    killed = true
                    _ = kill(pid, SIGKILL)
                }
            }
        }

        /// The child has ended: no kill after this.
        func disarm() { lock.withLock { done = true } }
    }
}

// Public: `Process` in the API.
public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process's exit, awaited without blocking a thread; records whether a deadline killed it.
///
/// Tests wait for their child processes through this, never with `waitUntilExit()` or a
/// semaphore: the test pool has one thread per core, and a blocked one starves the other suites
/// (LaunchKit's readiness waits timed out under ThreadSanitizer when tests blocked).
///
/// Every wait has a deadline: past it the child is killed (SIGKILL) and ``timedOut`` says so, so
/// a hung child fails its test instead of hanging the run.
///
/// ```swift
/// let exit = try await ProcessExit.run(process, timeout: .seconds(30))
/// #expect(!exit.timedOut && process.terminationStatus == 0)
/// ```
///
/// For a child started with `posix_spawn` (which no `Process` reaps), use ``ChildExit``.
public final class ProcessExit: @unchecked Sendable {
    // Why `@unchecked Sendable` is safe: every stored property is read and written only with
    // `lock` held; the continuation is resumed once, after leaving the lock.
    private let lock = NSLock()
    private var exited = false
    private var killed = false
    private var continuation: CheckedContinuation<Void, Never>?

    /// Creates the record of one child's exit.
    public init() {}

    /// Whether the child was killed for outliving its deadline.
    public var timedOut: Bool { lock.withLock { killed } }

    /// Records the exit and resumes the waiter (call from the process's termination handler).
    public func markExited() {
        let waiting: CheckedContinuation<Void, Never>? = lock.withLock {
            exited = true
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume()
    }

    /// Marks the child as timed out, unless it has exited; returns whether to kill it.
    public func markTimedOutUnlessExited() -> Bool {
        lock.withLock {
            guard !exited else { return false }
            killed = true
            return true
        }
    }

    /// Returns once the child has exited.
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow: Bool = lock.withLock {
                if exited { return true }
                self.continuation = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Runs `process` with this record as its termination handler, and kills it (SIGKILL) if it
    /// still runs after `timeout`; ``wait()`` then returns once it has ended.
    public func start(_ process: Process, timeout: Duration) throws {
        process.terminationHandler = { [self] _ in markExited() }
        try process.run()
        let pid = process.processIdentifier
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18
        // On a Dispatch thread, not the test pool.
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            if markTimedOutUnlessExited() { _ = kill(pid, SIGKILL) }
        }
    }

    /// Runs `process` to its end (killed after `timeout`) and returns the record of its exit.
    public static func run(_ process: Process, timeout: Duration) async throws -> ProcessExit {
        let exit = ProcessExit()
        try exit.start(process, timeout: timeout)
        await exit.wait()
        process.waitUntilExit()  // returns at once: the process has exited (its status is set)
        return exit
    }
}

import Foundation

/// A child process's exit, awaited without blocking a thread; records whether a deadline killed it.
///
/// Tests wait for their child processes through this, never with `waitUntilExit()` or a
/// semaphore: the test pool has one thread per core, and a blocked one starves the other suites
/// (LaunchKit's readiness waits timed out under ThreadSanitizer when tests blocked).
///
/// ```swift
/// let exit = ProcessExit()
/// process.terminationHandler = { _ in exit.markExited() }
/// try process.run()
/// await exit.wait()
/// ```
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
}

import CommandKit
import Foundation

/// A thread-safe list that commands append to.
///
/// `NSLock`, not `Synchronization.Mutex`: ThreadSanitizer on Linux does not see Mutex's futex
/// and would report false races in the sanitizer run.
final class Recorder<Element: Sendable>: @unchecked Sendable {
    // Safe: `storage` is touched only while `lock` is held.
    private let lock = NSLock()
    private var storage: [Element] = []

    func append(_ element: Element) {
        lock.withLock { storage.append(element) }
    }

    var elements: [Element] {
        lock.withLock { storage }
    }
}

/// A one-shot signal: one task waits until another opens it. Waiting ends early when the waiting
/// task is cancelled, and then throws `CancellationError`.
struct Gate: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func open() {
        continuation.yield()
    }

    func wait() async throws {
        for await _ in stream { return }
        // The stream ends early only when the waiting task is cancelled.
        throw CancellationError()
    }
}

/// Counts how many commands run at once, and the most ever seen.
final class ConcurrencyProbe: @unchecked Sendable {
    // Safe: `active` and `peak` are touched only while `lock` is held.
    private let lock = NSLock()
    private var active = 0
    private var peak = 0

    func enter() {
        lock.withLock {
            active += 1
            peak = max(peak, active)
        }
    }

    func leave() {
        lock.withLock { active -= 1 }
    }

    var maximum: Int {
        lock.withLock { peak }
    }
}

/// A `Sendable` command value, as the queue requires.
struct AppendCommand: AsyncCommand, Sendable {
    let value: Int
    let recorder: Recorder<Int>
    var failure: QueueTestError?

    func execute() async throws {
        if let failure { throw failure }
        recorder.append(value)
    }
}

struct QueueTestError: Error, Equatable {
    let code: Int
}

import CommandKit
import Synchronization

/// A thread-safe list that commands append to.
final class Recorder<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])

    func append(_ element: Element) {
        storage.withLock { $0.append(element) }
    }

    var elements: [Element] {
        storage.withLock { $0 }
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
final class ConcurrencyProbe: Sendable {
    private let counts = Mutex((active: 0, maximum: 0))

    func enter() {
        counts.withLock {
            $0.active += 1
            $0.maximum = max($0.maximum, $0.active)
        }
    }

    func leave() {
        counts.withLock { $0.active -= 1 }
    }

    var maximum: Int {
        counts.withLock { $0.maximum }
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

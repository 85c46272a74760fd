import CommandKit
import Foundation
import LaunchKit
import Locking
import Testing

/// A clock that moves only when told to, so reports have exact times.
///
/// Commands "take" time by calling ``advance(by:)``; sleepers wake when the time reaches them.
final class TestClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        var nextToken = 0
    }

    private let state = LockedState(State())

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    /// The number of tasks sleeping on this clock.
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let token = state.withLock { state in
            defer { state.nextToken += 1 }
            return state.nextToken
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // A task cancelled before it slept must not stay registered (its onCancel already ran).
                let cancelled = Task.isCancelled
                let resumeNow: Bool = state.withLock { state in
                    if cancelled || deadline <= state.now { return true }
                    state.sleepers[token] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if resumeNow {
                    if cancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: token) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes the sleepers whose deadline has come.
    func advance(by duration: Duration) {
        let due: [Sleeper] = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for token in due.keys { state.sleepers[token] = nil }
            return Array(due.values)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}

/// Records what commands do, in order, from any task.
final class Recorder: Sendable {
    private let events = LockedState<[String]>([])

    func record(_ event: String) {
        events.withLock { $0.append(event) }
    }

    var all: [String] { events.withLock { $0 } }

    func count(of event: String) -> Int {
        all.count { $0 == event }
    }

    func position(of event: String) -> Int? {
        all.firstIndex(of: event)
    }
}

/// A one-shot latch: tasks wait until it opens. Waiting is cancellable.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
        var nextToken = 0
    }

    private let state = LockedState(State())

    var waiterCount: Int { state.withLock { $0.waiters.count } }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async throws {
        let token = state.withLock { state in
            defer { state.nextToken += 1 }
            return state.nextToken
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state in
                    if state.isOpen { return true }
                    state.waiters[token] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: token) }
            waiter?.resume(throwing: CancellationError())
        }
    }
}

/// An error a command throws on purpose.
struct Boom: Error, CustomStringConvertible {
    var description: String { "boom" }
}

/// A command whose work is recorded, for scheduling tests.
func recording(
    _ id: LaunchID,
    _ recorder: Recorder,
    dependsOn dependencies: [LaunchID] = [],
    phase: LaunchPhase = .beforeReady,
    isRequired: Bool = true,
    timeout: Duration? = nil,
    work: @escaping @Sendable () async throws -> Void = {}
) -> LaunchCommand {
    LaunchCommand(id, dependsOn: dependencies, phase: phase, isRequired: isRequired, timeout: timeout) { _ in
        recorder.record("start \(id)")
        try await work()
        recorder.record("end \(id)")
    } tearDown: { _ in
        recorder.record("teardown \(id)")
    }
}

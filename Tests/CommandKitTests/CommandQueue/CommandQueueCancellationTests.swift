import CommandKit
import TestSupport
import Testing

// A time limit turns a stalled queue into a failure instead of a hung run.
@Suite(.timeLimit(.minutes(10))) struct CommandQueueCancellationTests {
    /// Enqueues a command that signals it started, then blocks until released or cancelled.
    private func enqueueBlocker(
        on queue: CommandQueue,
        recorder: Recorder<Int>
    ) async throws -> (ticket: CommandQueue.Ticket<Void>, release: Gate) {
        let started = Gate()
        let release = Gate()
        let ticket = queue.enqueue {
            started.open()
            try await release.wait()
            recorder.append(0)
        }
        try await started.wait()
        return (ticket, release)
    }

    @Test func pendingCommandCanBeCancelledAndNeverRuns() async throws {
        let queue = CommandQueue()
        let recorder = Recorder<Int>()
        let (blocker, release) = try await enqueueBlocker(on: queue, recorder: recorder)

        // Given two commands waiting behind a running one,
        let cancelled = queue.enqueue(AppendCommand(value: 1, recorder: recorder))
        let kept = queue.enqueue(AppendCommand(value: 2, recorder: recorder))
        #expect(queue.pendingCount == 2)

        // when the first is cancelled,
        #expect(cancelled.cancel() == .removedBeforeStart)
        #expect(queue.cancel(cancelled) == .alreadyFinished)
        #expect(queue.pendingCount == 1)
        await #expect(throws: CancellationError.self) { try await cancelled.value }

        // then it never runs and the others do.
        release.open()
        try await blocker.value
        try await kept.value
        #expect(recorder.elements == [0, 2])
    }

    @Test func runningCommandIsSignalledToCancel() async throws {
        let queue = CommandQueue()
        let recorder = Recorder<Int>()
        let (blocker, _) = try await enqueueBlocker(on: queue, recorder: recorder)
        let next = queue.enqueue(AppendCommand(value: 1, recorder: recorder))

        // The blocker's wait ends with CancellationError once its task is cancelled.
        #expect(blocker.cancel() == .requestedWhileRunning)
        await #expect(throws: CancellationError.self) { try await blocker.value }

        try await next.value
        #expect(recorder.elements == [1])
    }

    @Test func cancelAllRemovesPendingCommandsAndStopsTheRunningOne() async throws {
        let queue = CommandQueue()
        let recorder = Recorder<Int>()
        let (blocker, _) = try await enqueueBlocker(on: queue, recorder: recorder)
        let pending = (1...5).map { queue.enqueue(AppendCommand(value: $0, recorder: recorder)) }

        #expect(queue.cancelAll() == 5)

        await #expect(throws: CancellationError.self) { try await blocker.value }
        for ticket in pending {
            await #expect(throws: CancellationError.self) { try await ticket.value }
        }
        // The queue still works afterwards.
        try await queue.enqueue(AppendCommand(value: 9, recorder: recorder)).value
        try await queue.waitUntilIdle()
        #expect(recorder.elements == [9])
    }

    @Test func cancellingAWaiterDoesNotCancelTheCommand() async throws {
        let queue = CommandQueue()
        let recorder = Recorder<Int>()
        let (blocker, release) = try await enqueueBlocker(on: queue, recorder: recorder)

        // Given a task waiting for the blocked command's value and another for idleness,
        let valueWaiter = Task { try await blocker.value }
        let idleWaiter = Task { try await queue.waitUntilIdle() }

        // when both waiting tasks are cancelled, they stop waiting with CancellationError,
        valueWaiter.cancel()
        idleWaiter.cancel()
        await #expect(throws: CancellationError.self) { try await valueWaiter.value }
        await #expect(throws: CancellationError.self) { try await idleWaiter.value }
        #expect(!blocker.isFinished)

        // and the command itself still completes.
        release.open()
        try await blocker.value
        #expect(recorder.elements == [0])
    }

    @Test func waitUntilIdleWaitsForEverythingEnqueued() async throws {
        let queue = CommandQueue()
        #expect(queue.isIdle)
        try await queue.waitUntilIdle()  // idle: returns at once

        let recorder = Recorder<Int>()
        let (_, release) = try await enqueueBlocker(on: queue, recorder: recorder)
        let tickets = (1...3).map { queue.enqueue(AppendCommand(value: $0, recorder: recorder)) }
        #expect(!queue.isIdle)

        let idle = Task { try await queue.waitUntilIdle() }
        release.open()
        try await idle.value

        #expect(tickets.allSatisfy { $0.isFinished })
        #expect(recorder.elements == [0, 1, 2, 3])
        #expect(queue.isIdle)
    }

    @Test(arguments: [0x5EED_0001 as UInt64, 0x5EED_0002, 0x5EED_0003])
    func randomCancellationsKeepOrderAndAccounting(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let queue = CommandQueue()
        let recorder = Recorder<Int>()
        let (_, release) = try await enqueueBlocker(on: queue, recorder: recorder)

        // Given 100 pending commands, cancel a random third of them while the queue is blocked.
        let tickets = (1...100).map { queue.enqueue(AppendCommand(value: $0, recorder: recorder)) }
        var cancelled: Set<Int> = []
        for step in 0..<40 {
            let value = Int(random.next() % 100) + 1
            let outcome = tickets[value - 1].cancel()
            let expected: CommandQueue.CancellationResult =
                cancelled.contains(value) ? .alreadyFinished : .removedBeforeStart
            #expect(outcome == expected, "seed \(seed) step \(step): cancel #\(value) gave \(outcome)")
            cancelled.insert(value)
        }
        release.open()
        try await queue.waitUntilIdle()

        // The others ran, in order; the cancelled ones did not run.
        let expected = [0] + (1...100).filter { !cancelled.contains($0) }
        #expect(recorder.elements == expected, "seed \(seed)")
    }
}

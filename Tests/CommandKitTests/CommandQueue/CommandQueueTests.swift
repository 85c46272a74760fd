import CommandKit
import Foundation
import Testing

// A time limit turns a stalled queue into a failure instead of a hung run.
@Suite(.timeLimit(.minutes(10))) struct CommandQueueTests {
    @Test func commandRunsAndItsTicketCompletes() async throws {
        let queue = CommandQueue()
        let recorder = Recorder<Int>()

        let ticket = queue.enqueue(AppendCommand(value: 7, recorder: recorder))
        try await ticket.value

        #expect(recorder.elements == [7])
        #expect(ticket.isFinished)
        #expect(ticket.cancel() == .alreadyFinished)
    }

    @Test func operationReturnsItsValue() async throws {
        let queue = CommandQueue()
        let ticket = queue.enqueue { 6 * 7 }
        #expect(try await ticket.value == 42)
        if case .success(let value) = await ticket.result {
            #expect(value == 42)
        } else {
            Issue.record("expected success")
        }
    }

    @Test func commandsRunOffTheCaller() async throws {
        // Given a caller isolated to an actor, when it enqueues a command, the command runs elsewhere.
        let caller = RecognizableActor()
        let (probeWorks, ranOnCaller) = try await caller.enqueueAndAwait(on: CommandQueue())
        #expect(probeWorks)
        #expect(ranOnCaller == false)
    }

    @Test func failingCommandReportsItsErrorAndDoesNotStallTheQueue() async throws {
        let queue = CommandQueue()
        let recorder = Recorder<Int>()

        let first = queue.enqueue(AppendCommand(value: 1, recorder: recorder))
        let failing = queue.enqueue(AppendCommand(value: 2, recorder: recorder, failure: QueueTestError(code: 2)))
        let last = queue.enqueue(AppendCommand(value: 3, recorder: recorder))

        await #expect(throws: QueueTestError(code: 2)) { try await failing.value }
        try await last.value
        try await first.value
        #expect(recorder.elements == [1, 3])
        if case .failure(let error) = await failing.result {
            #expect(error as? QueueTestError == QueueTestError(code: 2))
        } else {
            Issue.record("expected failure")
        }
    }

    @Test func concurrentProducersKeepTheirOrderAndCommandsRunOneAtATime() async throws {
        let producers = 8
        let perProducer = 200
        let queue = CommandQueue()
        let executed = Recorder<(producer: Int, sequence: Int)>()
        let probe = ConcurrencyProbe()

        // Given many producers enqueueing at once, each remembering its tickets' identifiers,
        let issued = await withTaskGroup(of: (Int, [CommandQueue.TicketID]).self) { group in
            for producer in 0..<producers {
                group.addTask {
                    var ids: [CommandQueue.TicketID] = []
                    for sequence in 0..<perProducer {
                        let ticket = queue.enqueue {
                            probe.enter()
                            defer { probe.leave() }
                            await Task.yield()  // give another command the chance to overlap
                            executed.append((producer, sequence))
                        }
                        ids.append(ticket.id)
                        if sequence % 16 == 0 { await Task.yield() }
                    }
                    return (producer, ids)
                }
            }
            var byProducer: [Int: [CommandQueue.TicketID]] = [:]
            for await (producer, ids) in group { byProducer[producer] = ids }
            return byProducer
        }
        try await queue.waitUntilIdle()

        // then every command ran once, never two at a time,
        let order = executed.elements
        #expect(order.count == producers * perProducer)
        #expect(probe.maximum == 1)
        #expect(queue.isIdle && queue.pendingCount == 0)
        // each producer's commands ran in the order it enqueued them,
        for producer in 0..<producers {
            let sequences = order.filter { $0.producer == producer }.map(\.sequence)
            let firstWrong = zip(sequences, 0...).first { $0 != $1 }
            #expect(
                sequences.count == perProducer && firstWrong == nil,
                "producer \(producer): \(String(describing: firstWrong))")
        }
        // and all commands ran in the order the queue received them (identifiers grow in it).
        let executedIDs = order.compactMap { issued[$0.producer]?[$0.sequence] }
        #expect(executedIDs.count == order.count)
        #expect(zip(executedIDs, executedIDs.dropFirst()).allSatisfy { $0 < $1 })
    }
}

extension RecognizableActor {
    /// Enqueues a command that reports whether it runs on this actor; also returns whether the
    /// probe recognises this actor when asked from it (so a `false` means something).
    fileprivate func enqueueAndAwait(on queue: CommandQueue) async throws -> (probeWorks: Bool, ranOnCaller: Bool) {
        let executor = executor
        let ranOnCaller = try await queue.enqueue { executor.isCurrent }.value
        return (executor.isCurrent, ranOnCaller)
    }
}

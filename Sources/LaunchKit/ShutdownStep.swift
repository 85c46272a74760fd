/// One step of a shutdown: stopping a running service or running a teardown, within its own time
/// limit.
struct ShutdownStep: Sendable {
    enum Action: Sendable {
        case stop(ServiceRunner)
        case tearDown(any TearDownCommand)
    }

    let id: LaunchID
    let isolation: LaunchIsolation
    let timeLimit: Duration
    let action: Action

    var kind: LaunchReport.TearDownEntry.Kind {
        if case .stop = action { .stopService } else { .tearDown }
    }

    /// Runs the steps in order. Runs in a task of its own, so a cancelled caller does not cut the
    /// shutdown short; the deadline (or a second signal) escalates instead.
    @concurrent
    static func run(
        _ steps: [ShutdownStep], context: LaunchContext, clock: LaunchClock, deadline: Duration,
        escalation: EscalationLatch, events: LaunchEventHub
    ) async -> [LaunchReport.TearDownEntry] {
        guard !steps.isEmpty else { return [] }
        let deadlineTimer = Task {
            do { try await clock.sleep(clock.now() + deadline) } catch { return }
            let time = clock.now()
            if escalation.escalate(.deadline, at: time) {
                events.emit(LaunchEvent(time: time, id: nil, kind: .escalated(.deadline)))
            }
        }
        defer { deadlineTimer.cancel() }
        var entries: [LaunchReport.TearDownEntry] = []
        entries.reserveCapacity(steps.count)
        for step in steps {
            let start = clock.now()
            events.emit(LaunchEvent(time: start, id: step.id, kind: .tearingDown(step.kind)))
            let outcome = await step.perform(context: context, clock: clock, escalation: escalation)
            let end = clock.now()
            events.emit(LaunchEvent(time: end, id: step.id, kind: .tornDown(outcome)))
            entries.append(
                LaunchReport.TearDownEntry(
                    id: step.id, isolation: step.isolation, kind: step.kind, timeLimit: step.timeLimit,
                    outcome: outcome, startedAt: start, endedAt: end))
        }
        return entries
    }

    private func perform(
        context: LaunchContext, clock: LaunchClock, escalation: EscalationLatch
    ) async -> LaunchReport.TearDownEntry.Outcome {
        let limit = clock.now() + timeLimit
        switch action {
        case .stop(let runner):
            guard !escalation.isEscalated, runner.isReady else {
                // After an escalation, or for a service that never became ready (the launch was
                // interrupted while it was starting, when it waits for no stop request yet; issue
                // 25, G6): cancelled at once, then given its time limit to return.
                runner.requestStop()
                runner.cancel()
                let outcome = await Race.run(until: limit, clock: clock) { try await runner.waitForEnd() }
                if case .finished = outcome { return .cancelled }
                return .timeLimitExceeded(timeLimit)
            }
            runner.requestStop()
            let outcome = await Race.run(until: limit, clock: clock, interruptedBy: escalation) {
                try await runner.waitForEnd()
            }
            switch outcome {
            case .finished:
                switch runner.end?.error {
                case nil, is CancellationError: return .succeeded
                case let error?: return .failed("\(error)")
                }
            case .deadlinePassed:
                runner.cancel()
                return .timeLimitExceeded(timeLimit)
            case .interrupted:
                runner.cancel()
                return .cancelled
            }
        case .tearDown(let command):
            // After an escalation the step still runs, cancelled from the start, so it can release what
            // matters and return at once.
            let escalated = escalation.isEscalated
            let outcome = await Race.run(until: limit, clock: clock, interruptedBy: escalated ? nil : escalation) {
                [isolation] in
                if escalated { withUnsafeCurrentTask { $0?.cancel() } }
                switch isolation {
                case .concurrent: try await Self.tearDownConcurrently(command, context: context)
                case .mainActor: try await Self.tearDownOnMainActor(command, context: context)
                }
            }
            switch outcome {
            case .finished(.success): return .succeeded
            case .finished(.failure(let error)): return .failed("\(error)")
            case .deadlinePassed: return .timeLimitExceeded(timeLimit)
            case .interrupted: return .cancelled
            }
        }
    }

    @concurrent
    private static func tearDownConcurrently(_ command: any TearDownCommand, context: LaunchContext) async throws {
        try await command.tearDown(in: context)
    }

    @MainActor
    private static func tearDownOnMainActor(_ command: any TearDownCommand, context: LaunchContext) async throws {
        try await command.tearDown(in: context)
    }
}

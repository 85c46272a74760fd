import Locking

/// The state one running service shares between its task, the scheduler and the shutdown: its
/// readiness, the stop request, its end. Everything suspends on continuations; nothing blocks.
final class ServiceRunner: Sendable {
    /// How the wait for readiness ended.
    enum Start: Sendable {
        case ready(at: Duration)
        case ended(Result<Void, any Error>)
        case cancelled
    }

    /// How and when the service's run ended.
    struct End: Sendable {
        let error: (any Error)?
        let at: Duration
        let afterStopRequest: Bool
        let cancelledByShutdown: Bool

        /// The entry's outcome once the service has ended.
        var outcome: LaunchOutcome {
            if cancelledByShutdown { return .cancelled }
            switch error {
            case nil: return afterStopRequest ? .stopped : .ended
            case is CancellationError where afterStopRequest: return .stopped
            case let error?: return .failed("\(error)")
            }
        }
    }

    private struct State {
        var readyAt: Duration?
        var end: End?
        var stopRequested = false
        var cancelledByShutdown = false
        var task: Task<Void, Never>?
        var startWaiter: CheckedContinuation<Start, Never>?
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var stopWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextToken = 0
    }

    private let state = LockedState(State())
    let id: LaunchID
    private let now: @Sendable () -> Duration
    private let events: LaunchEventHub?
    /// Called once the service has ended (the invoker applies its policy).
    private let onEnd: (@Sendable (End) -> Void)?

    init(
        id: LaunchID = "service",
        now: @escaping @Sendable () -> Duration = { .zero },
        events: LaunchEventHub? = nil,
        onEnd: (@Sendable (End) -> Void)? = nil
    ) {
        self.id = id
        self.now = now
        self.events = events
        self.onEnd = onEnd
    }

    var end: End? { state.withLock { $0.end } }
    var isStopRequested: Bool { state.withLock { $0.stopRequested } }
    /// Whether the service signalled readiness.
    var isReady: Bool { state.withLock { $0.readyAt != nil } }
    var hasEnded: Bool { end != nil }
    /// Whether the shutdown gave up on the service and cancelled it while it still ran.
    var wasCancelledByShutdown: Bool { state.withLock { $0.cancelledByShutdown } }

    /// Keeps the service's task, so a time limit or an escalation can cancel it.
    func attach(_ task: Task<Void, Never>) {
        let cancelNow = state.withLock { state in
            state.task = task
            return state.cancelledByShutdown
        }
        if cancelNow { task.cancel() }
    }

    func signalReady() {
        let time = now()
        let waiter: CheckedContinuation<Start, Never>?? = state.withLock { state in
            guard state.readyAt == nil, state.end == nil else { return nil }
            state.readyAt = time
            defer { state.startWaiter = nil }
            return .some(state.startWaiter)
        }
        guard let waiter else { return }
        events?.emit(LaunchEvent(time: time, id: id, kind: .ready))
        waiter?.resume(returning: .ready(at: time))
    }

    /// Records the end of the service's run and wakes whoever waits for it.
    func finish(throwing error: (any Error)?) {
        let time = now()
        let (end, startWaiter, waiters): (End, CheckedContinuation<Start, Never>?, [CheckedContinuation<Void, Never>]) =
            state.withLock { state in
                let end = End(
                    error: error, at: time, afterStopRequest: state.stopRequested,
                    cancelledByShutdown: state.cancelledByShutdown)
                state.end = end
                state.task = nil
                let waiters = Array(state.waiters.values) + Array(state.stopWaiters.values)
                state.waiters.removeAll()
                state.stopWaiters.removeAll()
                defer { state.startWaiter = nil }
                return (end, state.startWaiter, waiters)
            }
        if let error {
            startWaiter?.resume(returning: .ended(.failure(error)))
        } else {
            startWaiter?.resume(returning: .ended(.success(())))
        }
        for waiter in waiters { waiter.resume() }
        events?.emit(LaunchEvent(time: time, id: id, kind: .serviceEnded(end.outcome)))
        onEnd?(end)
    }

    /// Suspends until the service is ready or has ended; `.cancelled` when the calling task is.
    func waitUntilReadyOrEnded() async -> Start {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Start, Never>) in
                let immediate: Start? = state.withLock { state in
                    if let readyAt = state.readyAt { return .ready(at: readyAt) }
                    if let end = state.end { return .ended(end.error.map { .failure($0) } ?? .success(())) }
                    if Task.isCancelled { return .cancelled }
                    state.startWaiter = continuation
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.startWaiter = nil }
                return state.startWaiter
            }
            waiter?.resume(returning: .cancelled)
        }
    }

    /// Asks the service to stop (its ``ServiceLifetime/waitForStopRequest()`` returns).
    func requestStop() {
        let waiters = state.withLock { state in
            state.stopRequested = true
            defer { state.stopWaiters.removeAll() }
            return Array(state.stopWaiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Gives up on a graceful stop: cancels the service's task.
    func cancel() {
        let task = state.withLock { state in
            state.cancelledByShutdown = state.end == nil
            return state.task
        }
        task?.cancel()
    }

    func waitForStopRequest() async {
        await suspend(until: .stopRequest)
    }

    /// Suspends until the service has ended; throws `CancellationError` when the caller is cancelled.
    func waitForEnd() async throws {
        await suspend(until: .end)
        try Task.checkCancellation()
    }

    /// What a suspended caller waits for.
    private enum Milestone {
        case stopRequest
        case end

        func isReached(in state: State) -> Bool {
            switch self {
            case .stopRequest: state.stopRequested || state.end != nil
            case .end: state.end != nil
            }
        }
    }

    private func suspend(until milestone: Milestone) async {
        let token = state.withLock { state in
            defer { state.nextToken += 1 }
            return state.nextToken
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if milestone.isReached(in: state) || Task.isCancelled { return true }
                    switch milestone {
                    case .stopRequest: state.stopWaiters[token] = continuation
                    case .end: state.waiters[token] = continuation
                    }
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                switch milestone {
                case .stopRequest: state.stopWaiters.removeValue(forKey: token)
                case .end: state.waiters.removeValue(forKey: token)
                }
            }
            waiter?.resume()
        }
    }
}

import Locking

/// Runs an operation against a deadline without waiting for an operation that overstays it.
///
/// Per-command timeouts and the shutdown deadline must hold even for work that ignores cancellation,
/// so the operation runs in its own task: when the deadline passes first, the operation is cancelled
/// and left to finish in the background, its result discarded. Nothing blocks a thread: the caller
/// suspends on a continuation that the first of the two tasks resumes.
enum Race {
    enum Outcome<Value: Sendable>: Sendable {
        case finished(Result<Value, any Error>)
        case deadlinePassed
        /// The shutdown escalated first (only with an `interruptedBy` latch).
        case interrupted
    }

    /// Returns the operation's result, or ``Outcome/deadlinePassed`` if the clock reaches `deadline`
    /// first. Cancelling the caller cancels the operation (and keeps waiting for it, up to the
    /// deadline).
    ///
    /// - Parameter escalation: When given, its escalation ends the race at once with
    ///   ``Outcome/interrupted`` (the operation is cancelled and left behind).
    static func run<Value: Sendable>(
        until deadline: Duration,
        clock: LaunchClock,
        interruptedBy escalation: EscalationLatch? = nil,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async -> Outcome<Value> {
        let race = RaceState<Value>()
        let token = escalation?.onEscalation { race.resolve(.interrupted) }
        defer { escalation?.remove(token) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                race.begin(
                    continuation,
                    operation: Task {
                        let result: Result<Value, any Error>
                        do { result = .success(try await operation()) } catch { result = .failure(error) }
                        race.resolve(.finished(result))
                    },
                    timer: Task {
                        do {
                            try await clock.sleep(deadline)
                            race.resolve(.deadlinePassed)
                        } catch {
                            // Cancelled: the operation finished first.
                        }
                    })
            }
        } onCancel: {
            race.cancelOperation()
        }
    }
}

/// The shared state of one race: resumed once, by whichever task gets there first.
private final class RaceState<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Race.Outcome<Value>, Never>?
        var pending: Race.Outcome<Value>?
        var operation: Task<Void, Never>?
        var timer: Task<Void, Never>?
        var operationCancelled = false
    }

    private let state = LockedState(State())

    func begin(
        _ continuation: CheckedContinuation<Race.Outcome<Value>, Never>,
        operation: Task<Void, Never>,
        timer: Task<Void, Never>
    ) {
        let outcome: Race.Outcome<Value>? = state.withLock { state in
            if state.operationCancelled { operation.cancel() }
            if let pending = state.pending {
                state.pending = nil
                return pending
            }
            state.continuation = continuation
            state.operation = operation
            state.timer = timer
            return nil
        }
        if let outcome {
            operation.cancel()
            timer.cancel()
            continuation.resume(returning: outcome)
        }
    }

    func resolve(_ outcome: Race.Outcome<Value>) {
        let resumption: (CheckedContinuation<Race.Outcome<Value>, Never>, Task<Void, Never>?, Task<Void, Never>?)? =
            state.withLock { state in
                guard let continuation = state.continuation else {
                    // Not begun yet (the tasks can run before `begin` stores the continuation): keep the
                    // first outcome for `begin`.
                    if state.pending == nil { state.pending = outcome }
                    return nil
                }
                state.continuation = nil
                defer {
                    state.operation = nil
                    state.timer = nil
                }
                return (continuation, state.operation, state.timer)
            }
        guard let (continuation, operation, timer) = resumption else { return }
        operation?.cancel()
        timer?.cancel()
        continuation.resume(returning: outcome)
    }

    func cancelOperation() {
        let operation = state.withLock { state in
            state.operationCancelled = true
            return state.operation
        }
        operation?.cancel()
    }
}

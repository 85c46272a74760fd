import Locking

/// The one-shot result of an enqueued command, awaited by any number of tasks.
final class TicketCompletion<Value: Sendable>: Sendable {
    private enum State: Sendable {
        case pending(waiters: [UInt64: CheckedContinuation<Result<Value, any Error>, Never>], nextID: UInt64)
        case finished(Result<Value, any Error>)
    }

    private let state = LockedState(State.pending(waiters: [:], nextID: 0))

    /// Finishes with a result; later calls are ignored. Returns whether this call finished it.
    @discardableResult
    func finish(_ result: Result<Value, any Error>) -> Bool {
        let waiters: [CheckedContinuation<Result<Value, any Error>, Never>]? = state.withLock { state in
            guard case .pending(let waiters, _) = state else { return nil }
            state = .finished(result)
            return Array(waiters.values)
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: result) }
        return true
    }

    var isFinished: Bool {
        state.withLock { if case .finished = $0 { true } else { false } }
    }

    /// Waits for the result; a cancelled waiter stops waiting with `CancellationError`.
    func wait() async -> Result<Value, any Error> {
        let id: UInt64? = state.withLock { state in
            guard case .pending(let waiters, let nextID) = state else { return nil }
            state = .pending(waiters: waiters, nextID: nextID + 1)
            return nextID
        }
        guard let id else {
            // Already finished: read it without suspending.
            return state.withLock { state in
                guard case .finished(let result) = state else {
                    preconditionFailure("a finished ticket stays finished")
                }
                return result
            }
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate: Result<Value, any Error>? = state.withLock { state in
                    switch state {
                    case .finished(let result):
                        return result
                    case .pending(var waiters, let nextID):
                        // Checked under the lock: a cancellation racing with us is seen either
                        // here or by the handler, which then finds the waiter registered.
                        if Task.isCancelled { return .failure(CancellationError()) }
                        waiters[id] = continuation
                        state = .pending(waiters: waiters, nextID: nextID)
                        return nil
                    }
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Result<Value, any Error>, Never>? in
                guard case .pending(var waiters, let nextID) = state else { return nil }
                let waiter = waiters.removeValue(forKey: id)
                state = .pending(waiters: waiters, nextID: nextID)
                return waiter
            }
            waiter?.resume(returning: .failure(CancellationError()))
        }
    }
}

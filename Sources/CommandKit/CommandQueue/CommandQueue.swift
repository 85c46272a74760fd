import Locking

/// A serial queue of commands: enqueued from any isolation domain, run one at a time in FIFO order,
/// off the caller.
///
/// `CommandQueue` is an *Invoker* for work that should not run where it is requested: a user
/// interface enqueues "save", "import", "sync" and carries on; the queue runs them in order, each
/// after the previous one has finished, on the concurrency runtime's executor.
///
/// ```swift
/// let queue = CommandQueue()
/// let saving = queue.enqueue(SaveLibrary(library: snapshot))  // returns at once
/// queue.enqueue { try await uploader.upload(snapshot) }
///
/// try await saving.value        // wait for one command (its result, or its error)
/// try await queue.waitUntilIdle()  // wait for everything enqueued so far
/// ```
///
/// - Enqueueing is synchronous and never waits, so it keeps order: two `enqueue` calls made one
///   after the other, from any domain, run in that order. Calls racing from different tasks run
///   in the order the queue received them.
/// - Each enqueue returns a ``Ticket`` to await the command's result or error, or to cancel it.
///   A command that throws finishes its ticket with the error; the queue goes on with the next.
/// - ``cancel(_:)`` removes a command that has not started (its ticket finishes with
///   `CancellationError`) or signals cancellation to the one running; ``cancelAll()`` does both
///   for everything in the queue.
///
/// The queue is `Sendable`: share it freely. Commands cross into the queue's domain, so they must
/// be `Sendable` too.
public final class CommandQueue: Sendable {
    private let state = LockedState(CommandQueueState())
    private let priority: TaskPriority?

    /// Creates an empty queue.
    ///
    /// - Parameter priority: The priority of the task that runs the commands, or `nil` (the
    ///   default) for the runtime's default.
    public init(priority: TaskPriority? = nil) {
        self.priority = priority
    }

    /// The number of commands waiting to start (the running one is not counted).
    public var pendingCount: Int {
        state.withLock { $0.pendingCount }
    }

    /// Whether the queue has nothing pending and nothing running.
    public var isIdle: Bool {
        state.withLock { $0.isIdle }
    }

    /// Adds a command to the end of the queue.
    ///
    /// Returns at once; the command runs after every command enqueued before it has finished.
    ///
    /// - Parameter command: The command to run.
    /// - Returns: A ticket to await the command's completion or to cancel it.
    @discardableResult
    public func enqueue(_ command: some AsyncCommand & Sendable) -> Ticket<Void> {
        enqueue { try await command.execute() }
    }

    /// Adds an operation that produces a value to the end of the queue.
    ///
    /// Returns at once; the operation runs after every command enqueued before it has finished.
    ///
    /// ```swift
    /// let count = queue.enqueue { try await store.countAlbums() }
    /// print(try await count.value)
    /// ```
    ///
    /// - Parameter operation: The work to run.
    /// - Returns: A ticket to await the operation's value or error, or to cancel it.
    @discardableResult
    public func enqueue<Value: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Value
    ) -> Ticket<Value> {
        let completion = TicketCompletion<Value>()
        let (id, mustStartWorker) = state.withLock { state in
            let id = state.makeEntryID()
            let entry = CommandQueueState.Entry(
                id: id,
                run: {
                    let result: Result<Value, any Error>
                    do {
                        result = .success(try await operation())
                    } catch {
                        result = .failure(error)
                    }
                    completion.finish(result)
                },
                cancel: { completion.finish(.failure(CancellationError())) }
            )
            return (id, state.append(entry))
        }
        if mustStartWorker {
            // Detached: the worker must not inherit the priority or task-locals of whichever
            // caller happened to start it.
            Task.detached(priority: priority) { await self.drain() }
        }
        return Ticket(id: TicketID(rawValue: id), queue: self, completion: completion)
    }

    /// Cancels one command: removes it if it has not started, or signals cancellation to it if it
    /// is running.
    ///
    /// A removed command never runs and its ticket finishes with `CancellationError`. A running
    /// command sees `Task.isCancelled`; whether it stops is up to the command, and its ticket
    /// finishes with whatever it returns or throws.
    ///
    /// - Parameter ticket: The ticket an `enqueue` call returned.
    /// - Returns: What the cancellation did.
    @discardableResult
    public func cancel<Value>(_ ticket: Ticket<Value>) -> CancellationResult {
        guard !ticket.isFinished else { return .alreadyFinished }
        switch state.withLock({ $0.cancel(id: ticket.id.rawValue) }) {
        case .finishPending(let entries):
            for entry in entries { entry.cancel() }
            return .removedBeforeStart
        case .cancelRunning(let task):
            task.cancel()
            return .requestedWhileRunning
        case .none:
            return .alreadyFinished
        }
    }

    /// Cancels everything: removes every command that has not started and signals cancellation to
    /// the running one.
    ///
    /// Every removed command's ticket finishes with `CancellationError`. Commands enqueued after
    /// this call run normally.
    ///
    /// - Returns: The number of commands removed before they started.
    @discardableResult
    public func cancelAll() -> Int {
        let (removed, running) = state.withLock { $0.cancelAll() }
        for entry in removed { entry.cancel() }
        running?.cancel()
        return removed.count
    }

    /// Waits until the queue is idle: nothing pending, nothing running.
    ///
    /// Returns at once if the queue is idle. Commands enqueued while waiting are waited for too.
    ///
    /// - Important: Do not call it from a command running on this queue: the queue cannot become
    ///   idle while that command waits.
    /// - Throws: `CancellationError` if the waiting task is cancelled (the queue is not affected).
    public func waitUntilIdle() async throws {
        let id = state.withLock { $0.makeWaiterID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    // Checked under the lock, so a racing cancellation handler finds the waiter.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    return state.addIdleWaiter(id: id, continuation) ? nil : .success(())
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            state.withLock { $0.removeIdleWaiter(id: id) }?.resume(throwing: CancellationError())
        }
    }

    /// Runs entries until none is left, one at a time.
    private func drain() async {
        while true {
            let step: Step = state.withLock { state in
                switch state.next() {
                case .run(let entry):
                    // Each command runs in a task of its own so that it alone can be cancelled.
                    // Created under the lock: a cancel never sees an entry neither pending nor
                    // running.
                    let task = Task.detached(priority: priority) { await entry.run() }
                    state.setCurrent((entry.id, task))
                    return .await(task)
                case .stop(let idleWaiters):
                    return .stop(idleWaiters)
                }
            }
            switch step {
            case .await(let task):
                await task.value
                state.withLock { $0.setCurrent(nil) }
            case .stop(let idleWaiters):
                // Resumed outside the lock.
                for waiter in idleWaiters { waiter.resume() }
                return
            }
        }
    }

    private enum Step {
        case await(Task<Void, Never>)
        case stop([CheckedContinuation<Void, any Error>])
    }
}

/// The queue's bookkeeping, kept behind the queue's mutex. Pure state: no locks, no tasks started.
struct CommandQueueState: Sendable {
    /// One enqueued command, type-erased.
    struct Entry: Sendable {
        let id: UInt64
        /// Runs the command and finishes its ticket.
        let run: @Sendable () async -> Void
        /// Finishes the ticket with `CancellationError` without running the command.
        let cancel: @Sendable () -> Void
    }

    /// Whether a worker task is draining the queue, and what it runs now.
    enum Phase: Sendable {
        /// No worker task exists; the next enqueue starts one.
        case idle
        /// A worker task is draining; `current` is the command running, if any.
        case draining(current: (id: UInt64, task: Task<Void, Never>)?)
    }

    private(set) var phase: Phase = .idle
    // FIFO storage: a array plus a head index, compacted now and then, so popping is O(1).
    private var pending: [Entry] = []
    private var head = 0
    private var nextEntryID: UInt64 = 0
    private var nextWaiterID: UInt64 = 0
    private var idleWaiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]

    var pendingCount: Int { pending.count - head }

    var isIdle: Bool {
        if case .idle = phase { true } else { false }
    }

    mutating func makeEntryID() -> UInt64 {
        nextEntryID += 1
        return nextEntryID
    }

    mutating func makeWaiterID() -> UInt64 {
        nextWaiterID += 1
        return nextWaiterID
    }

    /// Appends an entry. Returns `true` when no worker is running and the caller must start one.
    mutating func append(_ entry: Entry) -> Bool {
        pending.append(entry)
        guard case .idle = phase else { return false }
        phase = .draining(current: nil)
        return true
    }

    /// Takes the next entry for the worker, or, when none is left, goes idle and hands back the
    /// idle waiters to resume.
    mutating func next() -> NextAction {
        guard head < pending.count else {
            pending.removeAll(keepingCapacity: true)
            head = 0
            phase = .idle
            let waiters = Array(idleWaiters.values)
            idleWaiters.removeAll()
            return .stop(idleWaiters: waiters)
        }
        let entry = pending[head]
        head += 1
        if head >= 64 && head * 2 >= pending.count {
            pending.removeFirst(head)
            head = 0
        }
        return .run(entry)
    }

    enum NextAction: Sendable {
        case run(Entry)
        case stop(idleWaiters: [CheckedContinuation<Void, any Error>])
    }

    mutating func setCurrent(_ current: (id: UInt64, task: Task<Void, Never>)?) {
        phase = .draining(current: current)
    }

    /// Removes a pending entry or finds the running one.
    mutating func cancel(id: UInt64) -> CancelAction {
        if let index = pending[head...].firstIndex(where: { $0.id == id }) {
            let entry = pending.remove(at: index)
            return .finishPending([entry])
        }
        if case .draining(let current?) = phase, current.id == id {
            return .cancelRunning(current.task)
        }
        return .none
    }

    /// Removes every pending entry and finds the running one.
    mutating func cancelAll() -> (pending: [Entry], running: Task<Void, Never>?) {
        let removed = Array(pending[head...])
        pending.removeAll()
        head = 0
        if case .draining(let current?) = phase {
            return (removed, current.task)
        }
        return (removed, nil)
    }

    enum CancelAction: Sendable {
        case finishPending([Entry])
        case cancelRunning(Task<Void, Never>)
        case none
    }

    /// Registers a waiter for idleness; returns `false` (and registers nothing) if already idle.
    mutating func addIdleWaiter(id: UInt64, _ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        guard !isIdle else { return false }
        idleWaiters[id] = continuation
        return true
    }

    mutating func removeIdleWaiter(id: UInt64) -> CheckedContinuation<Void, any Error>? {
        idleWaiters.removeValue(forKey: id)
    }
}

/// The scheduler's bookkeeping, free of tasks and clocks: which commands are ready, which are done,
/// what a completion unlocks. The invoker drives it and carries out what it returns.
///
/// Ready commands wait in a min-heap keyed by declaration index, so ties always break the same way.
/// Deferred commands whose dependencies are done wait in `parked` until the app is ready.
struct LaunchStateMachine: Sendable {
    /// What a completion asks the invoker to do.
    enum Action: Equatable {
        /// Keep scheduling.
        case proceed
        /// Keep scheduling; the app just became ready.
        case proceedNowReady
        /// A required command failed or timed out: stop scheduling and cancel running commands.
        case abort(failed: Int)
    }

    /// How a command's work ended.
    enum Result: Sendable {
        case succeeded
        /// A service signalled readiness and keeps running.
        case ready
        case failed(any Error)
        case timedOut(Duration)
    }

    let graph: LaunchGraph
    private(set) var entries: [LaunchReport.Entry]
    private(set) var readyAt: Duration?
    private(set) var finishedAt: Duration = .zero
    /// The first required failure, once the launch aborts.
    private(set) var abortedBy: Int?
    private(set) var cancelled = false
    private var remaining: [Int]
    private var ready = IndexHeap()
    private var parked: [Int] = []
    private var beforeReadyLeft: Int
    private(set) var unfinished: Int
    /// The commands the last ``complete(_:startedAt:endedAt:result:)`` skipped (for live events).
    private(set) var recentlySkipped: [Int] = []

    init(graph: LaunchGraph) {
        self.graph = graph
        self.entries = graph.nodes.map { node in
            LaunchReport.Entry(
                id: node.id,
                dependencies: node.dependencies.map { graph.nodes[$0].id },
                phase: node.phase,
                isolation: node.isolation,
                isRequired: node.isRequired,
                outcome: .pending,
                isService: node.isService
            )
        }
        self.remaining = graph.nodes.map { $0.dependencies.count }
        self.beforeReadyLeft = graph.nodes.count { $0.phase == .beforeReady }
        self.unfinished = graph.count
    }

    var isReady: Bool { readyAt != nil }
    var isStopping: Bool { abortedBy != nil || cancelled }

    /// Queues the commands without dependencies; returns whether the app is ready already (no
    /// before-ready commands).
    mutating func start(at now: Duration) -> Bool {
        for index in graph.nodes.indices where remaining[index] == 0 { becomeReady(index, at: now) }
        return openGateIfDone(at: now)
    }

    /// The next command to start, earliest declared first; `nil` when none is ready or the launch
    /// is stopping.
    mutating func next() -> Int? {
        guard !isStopping else { return nil }
        return ready.popMin()
    }

    /// Records the end of a command's work.
    mutating func complete(_ index: Int, startedAt: Duration, endedAt: Duration, result: Result) -> Action {
        entries[index].startedAt = startedAt
        entries[index].endedAt = endedAt
        let node = graph.nodes[index]
        let succeeded: Bool
        switch result {
        case .succeeded:
            entries[index].outcome = .succeeded
            succeeded = true
        case .ready:
            entries[index].outcome = .running
            succeeded = true
        case .failed(let error):
            entries[index].outcome = isStopping && error is CancellationError ? .cancelled : .failed("\(error)")
            succeeded = false
        case .timedOut(let limit):
            entries[index].outcome = isStopping ? .cancelled : .timedOut(limit)
            succeeded = false
        }
        finish(index, at: endedAt)
        if isStopping { return .proceed }
        if succeeded {
            for dependent in graph.dependents[index] {
                remaining[dependent] -= 1
                if remaining[dependent] == 0 { becomeReady(dependent, at: endedAt) }
            }
        } else if node.isRequired {
            abortedBy = index
            return .abort(failed: index)
        } else {
            skipDependents(of: index, at: endedAt)
        }
        return openGateIfDone(at: endedAt) ? .proceedNowReady : .proceed
    }

    /// Stops scheduling because the launch was cancelled.
    mutating func cancel() {
        cancelled = true
    }

    /// Marks every command that never started as skipped, once the running ones have drained.
    ///
    /// - Returns: The skipped commands, in declaration order.
    mutating func skipUnstarted(at now: Duration) -> [Int] {
        let reason: LaunchOutcome.SkipReason =
            if let abortedBy { .launchAborted(by: graph.nodes[abortedBy].id) } else { .launchCancelled }
        var skipped: [Int] = []
        for index in entries.indices where !entries[index].outcome.isFinished {
            entries[index].outcome = .skipped(reason)
            finish(index, at: now)
            skipped.append(index)
        }
        return skipped
    }

    private mutating func becomeReady(_ index: Int, at now: Duration) {
        if graph.nodes[index].phase == .deferred && !isReady {
            parked.append(index)
        } else {
            entries[index].readyAt = now
            ready.insert(index)
        }
    }

    private mutating func finish(_ index: Int, at now: Duration) {
        unfinished -= 1
        if graph.nodes[index].phase == .beforeReady { beforeReadyLeft -= 1 }
        if now > finishedAt { finishedAt = now }
    }

    /// Opens the readiness gate when the last before-ready command finished; returns whether it
    /// opened now.
    private mutating func openGateIfDone(at now: Duration) -> Bool {
        guard beforeReadyLeft == 0, readyAt == nil, !isStopping else { return false }
        readyAt = now
        for index in parked {
            entries[index].readyAt = now
            ready.insert(index)
        }
        parked.removeAll()
        return true
    }

    /// Skips everything that depends on a command that did not succeed.
    private mutating func skipDependents(of index: Int, at now: Duration) {
        let reason = LaunchOutcome.SkipReason.dependencyDidNotSucceed(graph.nodes[index].id)
        var stack = graph.dependents[index]
        recentlySkipped.removeAll()
        while let dependent = stack.popLast() {
            guard !entries[dependent].outcome.isFinished else { continue }
            entries[dependent].outcome = .skipped(reason)
            recentlySkipped.append(dependent)
            finish(dependent, at: now)
            stack.append(contentsOf: graph.dependents[dependent])
        }
    }
}

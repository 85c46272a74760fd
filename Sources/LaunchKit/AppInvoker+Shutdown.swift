import Synchronization

extension AppInvoker {
    /// Shuts the app down: cancels a launch still running, then runs the shutdown steps of the
    /// commands that started, in reverse dependency order, within ``shutdownDeadline``.
    ///
    /// Call it on normal termination. Steps run one at a time, each with its command's isolation; a
    /// failing step is reported and the next still runs. Steps still running at the deadline are
    /// reported as ``LaunchReport/TearDownEntry/Outcome/deadlineExceeded`` and left behind (cancelled).
    /// Calling it again returns the same entries without running anything. A
    /// ``runUntilShutdown(signals:)`` in progress returns once the steps have run.
    ///
    /// - Returns: The shutdown steps that were due, in the order they ran.
    @discardableResult
    public func shutDown() async -> [LaunchReport.TearDownEntry] {
        requestShutdown()
        switch lifecycle {
        case .idle:
            lifecycle = .ended
            if machine != nil {
                machine!.cancel()
                _ = machine!.skipUnstarted(at: clock.now())
            }
            resumeWaiters()
            return []
        case .launching(let task):
            task.cancel()
            _ = await task.result
            return await tearDownOnce()
        case .launched:
            lifecycle = .ended
            resumeWaiters()
            return await tearDownOnce()
        case .ended:
            return await tearDownOnce()
        }
    }

    /// Launches, then keeps the app running until a signal arrives, ``shutDown()`` is called, or the
    /// calling task is cancelled; then shuts down gracefully.
    ///
    /// The signal handlers are installed (and registered) before the launch starts, and removed before
    /// returning. A signal during the launch cancels it: running commands are
    /// cancelled, unstarted ones skipped, started ones torn down.
    ///
    /// Once it returns, each signal acts as it did before the call: its disposition (default action,
    /// ignored, or the process's own handler) is restored, so a second SIGTERM after shutdown kills the
    /// process. LaunchKit changes no thread's signal mask. Calls that overlap share the signals: the
    /// disposition comes back when the last of them returns.
    ///
    /// ```swift
    /// let invoker = AppInvoker { DatabaseCommand(); ServerCommand() }
    /// let report = try await invoker.runUntilShutdown()
    /// print(report.table())
    /// ```
    ///
    /// - Parameter signals: The signals that shut the app down.
    /// - Returns: The launch report, shutdown steps and signal included.
    /// - Throws: ``LaunchError`` when the graph is invalid or a required command fails (after the
    ///   shutdown steps ran).
    @discardableResult
    public func runUntilShutdown(signals: [LaunchSignal] = [.terminate, .interrupt]) async throws -> LaunchReport {
        _ = try graphResult.get()
        let listener = await SignalListener.start(signals)
        let outcome: Result<LaunchReport, any Error>
        do {
            outcome = .success(try await runUntilShutdownRequest(listening: listener))
        } catch {
            outcome = .failure(error)
        }
        // Awaited, not deferred: Dispatch must have let go of the signals before their actions return.
        await listener.stop()
        return try outcome.get()
    }

    /// The body of ``runUntilShutdown(signals:)`` while `listener` listens.
    private func runUntilShutdownRequest(listening listener: SignalListener) async throws -> LaunchReport {
        let stream = listener.signals
        let watcher = Task {
            for await signal in stream {
                self.receive(signal)
                return
            }
        }
        defer { watcher.cancel() }

        // A signal between installing the handlers and here: shut down without launching.
        guard !shutdownRequested else {
            await shutDown()
            return makeReport()!
        }
        do {
            try await withTaskCancellationHandler {
                _ = try await run()
            } onCancel: {
                Task { await self.requestShutdown() }
            }
        } catch LaunchError.Code.cancelled where shutdownRequested || Task.isCancelled {
            return makeReport()!
        }
        await withTaskCancellationHandler {
            await waitForShutdownRequest()
        } onCancel: {
            Task { await self.requestShutdown() }
        }
        await shutDown()
        return makeReport()!
    }

    /// Handles a shutdown signal.
    private func receive(_ signal: LaunchSignal) {
        if shutdownSignal == nil { shutdownSignal = signal }
        requestShutdown()
    }

    /// Marks shutdown as requested: cancels a running launch, wakes ``runUntilShutdown(signals:)``.
    func requestShutdown() {
        shutdownRequested = true
        if case .launching(let task) = lifecycle { task.cancel() }
        let waiting = shutdownWaiters
        shutdownWaiters.removeAll()
        for continuation in waiting { continuation.resume() }
    }

    private func waitForShutdownRequest() async {
        guard !shutdownRequested else { return }
        await withCheckedContinuation { continuation in
            if shutdownRequested {
                continuation.resume()
            } else {
                shutdownWaiters.append(continuation)
            }
        }
    }

    /// Runs the shutdown steps once; later calls await the same run.
    func tearDownOnce() async -> [LaunchReport.TearDownEntry] {
        if let tearDownTask {
            let entries = await tearDownTask.value
            tearDownEntries = entries
            return entries
        }
        guard let machine else { return [] }
        let steps: [TearDownStep] = machine.graph.topologicalOrder.reversed().compactMap { index in
            let node = machine.graph.nodes[index]
            guard machine.entries[index].outcome.didStart, let tearDown = node.tearDown else { return nil }
            return TearDownStep(id: node.id, isolation: node.isolation, command: tearDown.command)
        }
        let task = Task { [clock, context, shutdownDeadline] in
            await Self.runTearDowns(steps, context: context, clock: clock, deadline: shutdownDeadline)
        }
        tearDownTask = task
        let entries = await task.value
        tearDownEntries = entries
        return entries
    }

    /// One shutdown step to run.
    struct TearDownStep: Sendable {
        let id: LaunchID
        let isolation: LaunchIsolation
        let command: any TearDownCommand
    }

    /// Runs the steps in order against the deadline. Runs in a task of its own, so a cancelled caller
    /// does not cut the shutdown short.
    @concurrent
    private static func runTearDowns(
        _ steps: [TearDownStep], context: LaunchContext, clock: LaunchClock, deadline: Duration
    ) async -> [LaunchReport.TearDownEntry] {
        guard !steps.isEmpty else { return [] }
        let progress = TearDownProgress(
            steps.map {
                LaunchReport.TearDownEntry(id: $0.id, isolation: $0.isolation, outcome: .notRun)
            })
        let outcome = await Race.run(until: clock.now() + deadline, clock: clock, whenDeadlinePasses: progress.freeze) {
            for (position, step) in steps.enumerated() {
                guard progress.begin(position, at: clock.now()) else { return }
                do {
                    switch step.isolation {
                    case .concurrent: try await tearDownConcurrently(step.command, context: context)
                    case .mainActor: try await tearDownOnMainActor(step.command, context: context)
                    }
                    progress.end(position, .succeeded, at: clock.now())
                } catch {
                    progress.end(position, .failed("\(error)"), at: clock.now())
                }
            }
        }
        _ = outcome
        return progress.entries
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

/// The shutdown steps' entries, shared between the steps' task and the deadline: once frozen at the
/// deadline, late steps no longer change them.
private final class TearDownProgress: Sendable {
    private struct State {
        var entries: [LaunchReport.TearDownEntry]
        var frozen = false
    }

    private let state: Mutex<State>

    init(_ entries: [LaunchReport.TearDownEntry]) {
        state = Mutex(State(entries: entries))
    }

    var entries: [LaunchReport.TearDownEntry] { state.withLock { $0.entries } }

    /// Records a step's start; returns `false` when the deadline has passed.
    func begin(_ position: Int, at now: Duration) -> Bool {
        state.withLock { state in
            guard !state.frozen else { return false }
            state.entries[position].startedAt = now
            return true
        }
    }

    func end(_ position: Int, _ outcome: LaunchReport.TearDownEntry.Outcome, at now: Duration) {
        state.withLock { state in
            guard !state.frozen else { return }
            state.entries[position].outcome = outcome
            state.entries[position].endedAt = now
        }
    }

    /// Marks the step still running as over the deadline and stops recording.
    func freeze() {
        state.withLock { state in
            state.frozen = true
            for index in state.entries.indices where state.entries[index].startedAt != nil {
                if state.entries[index].endedAt == nil { state.entries[index].outcome = .deadlineExceeded }
            }
        }
    }
}

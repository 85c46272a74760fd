extension AppInvoker {
    /// Shuts the app down: cancels a launch still running, then stops the running services and runs
    /// the shutdown steps of the commands that started, in reverse dependency order.
    ///
    /// Call it on normal termination. Steps run one at a time, each with its command's isolation and
    /// within its own time limit (``ServiceCommand/stopTimeLimit``,
    /// ``TearDownCommand/tearDownTimeLimit``, by default ``stepTimeLimit``). A service is first asked
    /// to stop (its ``ServiceLifetime/waitForStopRequest()`` returns), then cancelled if it overruns;
    /// a service still starting (it never called ``ServiceLifetime/ready()``: the launch was
    /// interrupted) is cancelled at once.
    /// A step that fails or overruns is reported, and the next step still runs: the database still
    /// closes when the server before it hangs. If the whole shutdown takes longer than
    /// ``shutdownDeadline``, or ``escalateShutdown()`` is called, it escalates (see
    /// ``ShutdownEscalation``). Calling it again returns the same entries without running anything. A
    /// ``runUntilShutdown(signals:)`` in progress returns once the steps have run.
    ///
    /// - Returns: The shutdown steps that were due, in the order they ran.
    @discardableResult
    public func shutDown() async -> [LaunchReport.TearDownEntry] {
        // A signal seen but not acted on (a launch in a service group) names the cause.
        requestShutdown(shutdownSignal.map { .signal($0) } ?? .requested)
        switch lifecycle {
        case .idle:
            lifecycle = .ended
            machine.cancel()
            _ = machine.skipUnstarted(at: clock.now())
            resumeWaiters()
            eventHub.finish()
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

    /// Cuts the shutdown short: the step in progress is cancelled and no longer awaited, and the
    /// steps still due run cancelled (services are cancelled, teardowns run in a cancelled task),
    /// each within its own time limit.
    ///
    /// What a second SIGTERM or SIGINT does in ``runUntilShutdown(signals:)``. Starts the shutdown if
    /// it has not started. The report's ``LaunchReport/escalation`` records it.
    public func escalateShutdown() {
        escalate(.requested)
        if case .launched = lifecycle { Task { await self.shutDown() } }
    }

    /// Launches, then keeps the app running until a signal arrives, ``shutDown()`` is called, a
    /// required service ends, or the calling task is cancelled; then shuts down gracefully.
    ///
    /// The signal handlers are installed (and registered) before the launch starts, and removed before
    /// returning. A signal during the launch cancels it: running commands are cancelled, unstarted
    /// ones skipped, started ones torn down. A second signal during the shutdown escalates it (see
    /// ``escalateShutdown()``).
    ///
    /// It returns the report only when a running app shut down as asked (a signal after readiness,
    /// ``shutDown()``, cancellation). Otherwise it throws, after the shutdown steps ran, so that `main`
    /// exits non-zero (``LaunchError/exitStatus``): ``LaunchError/Code/interrupted`` when a signal came
    /// before the app was ready (exit status 128 + the signal), ``LaunchError/Code/serviceEnded``
    /// when a required service ended or failed, and the launch's own errors.
    ///
    /// Once it returns, each signal acts as it did before the call: its disposition (default action,
    /// ignored, or the process's own handler) is restored, so a signal after shutdown kills the
    /// process. LaunchKit changes no thread's signal mask. Calls that overlap share the signals: the
    /// disposition comes back when the last of them returns.
    ///
    /// ```swift
    /// let invoker = AppInvoker { DatabaseService(); ServerService() }
    /// do {
    ///     let report = try await invoker.runUntilShutdown()
    ///     print(report.table())                  // exit status 0
    /// } catch let error as LaunchError {
    ///     print(error.message)
    ///     exit(error.exitStatus)                 // 143 after a SIGTERM during the launch
    /// }
    /// ```
    ///
    /// - Parameter signals: The signals that shut the app down.
    /// - Returns: The launch report, shutdown steps and signal included.
    /// - Throws: ``LaunchError``: an invalid graph, a failed launch, an interrupted launch, or a
    ///   required service that ended (each after the shutdown steps ran).
    @discardableResult
    public func runUntilShutdown(signals: [LaunchSignal] = [.terminate, .interrupt]) async throws -> LaunchReport {
        try await runUntilShutdown(signals: signals, handling: .shutsDown)
    }

    /// What the signals of ``runUntilShutdown(signals:handling:)`` do.
    package enum SignalHandling: Sendable {
        /// The first shuts the app down, the next escalate (``runUntilShutdown(signals:)``).
        case shutsDown
        /// Inside a service group, whose graceful shutdown stops the app in the group's order: the
        /// first signal is only recorded (it names the cause, and the interruption when the group
        /// shuts down before readiness), the next escalate. A shutdown before readiness, signal or
        /// not, is an interruption.
        case namesAndEscalates
    }

    /// ``runUntilShutdown(signals:)`` with the signals' role chosen: `AppInvokerService` runs the
    /// launch with `.namesAndEscalates`.
    package func runUntilShutdown(signals: [LaunchSignal], handling: SignalHandling) async throws -> LaunchReport {
        _ = try graphResult.get()
        signalHandling = handling
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
            for await signal in stream { self.receive(signal) }
        }
        defer { watcher.cancel() }

        // A signal between installing the handlers and here: shut down without launching.
        guard !shutdownRequested else {
            await shutDown()
            await awaitNamingSignal()
            return try reportUnlessInterrupted()
        }
        do {
            try await withTaskCancellationHandler {
                _ = try await run()
            } onCancel: {
                Task { await self.requestShutdown(.requested) }
            }
        } catch LaunchError.Code.cancelled where shutdownRequested || Task.isCancelled {
            await awaitNamingSignal()
            return try reportUnlessInterrupted()
        }
        await withTaskCancellationHandler {
            await waitForShutdownRequest()
        } onCancel: {
            Task { await self.requestShutdown(.requested) }
        }
        await shutDown()
        if let error = serviceEndedError(report: makeReport()) { throw error }
        return launchReport()
    }

    /// In a service group, a shutdown before readiness is named by the signal behind it, which
    /// reaches this launch's listener on its own path, a moment before or after the group's
    /// shutdown does: waits a little (at most a quarter of a second) for it, so that `main`
    /// exits 128 + the signal rather than 1.
    private func awaitNamingSignal() async {
        guard signalHandling == .namesAndEscalates, shutdownSignal == nil, launchReport().readyAt == nil else { return }
        for _ in 0..<50 {
            // Suspends the actor: the listener's task delivers a pending signal meanwhile. Detached,
            // so that a cancelled launch still waits.
            await Task.detached { try? await Task.sleep(for: .milliseconds(5)) }.value
            if shutdownSignal != nil { return }
        }
    }

    /// The report of a launch stopped before readiness, or the error when a signal (or, in a
    /// service group, the group's shutdown) stopped it.
    private func reportUnlessInterrupted() throws(LaunchError) -> LaunchReport {
        let report = launchReport()
        guard report.readyAt == nil else { return report }
        switch (shutdownSignal, signalHandling) {
        case (let signal?, _):
            throw LaunchError(
                .interrupted, "the launch was interrupted by \(signal) before the app was ready",
                report: report, signal: signal)
        case (nil, .namesAndEscalates):
            throw LaunchError(
                .interrupted, "the launch was interrupted by the service group's shutdown before the app was ready",
                report: report)
        case (nil, .shutsDown):
            return report
        }
    }

    /// Handles a shutdown signal: the first shuts down (or, in a service group, is recorded), the
    /// next escalates.
    private func receive(_ signal: LaunchSignal) {
        switch signalHandling {
        case .shutsDown:
            guard !shutdownRequested else {
                escalate(.signal(signal))
                return
            }
            shutdownSignal = signal
            requestShutdown(.signal(signal))
        case .namesAndEscalates:
            // Counted by signals, not by the shutdown's state: the group's graceful shutdown may
            // reach the launch before or after its first signal does.
            guard shutdownSignal != nil else {
                shutdownSignal = signal
                return
            }
            escalate(.signal(signal))
        }
    }

    /// Marks shutdown as requested (the first cause wins): cancels a running launch, wakes
    /// ``runUntilShutdown(signals:)``.
    func requestShutdown(_ cause: ShutdownCause) {
        if shutdownCause == nil {
            shutdownCause = cause
            eventHub.emit(LaunchEvent(time: clock.now(), id: nil, kind: .shuttingDown(cause)))
        }
        let request = shutdownRequest
        shutdownRequest = .requested
        if case .launching(let task) = lifecycle { task.cancel() }
        if case .pending(let waiting) = request {
            for continuation in waiting { continuation.resume() }
        }
    }

    /// Escalates the shutdown once, and requests it if nothing had.
    func escalate(_ reason: ShutdownEscalation.Reason) {
        let time = clock.now()
        if escalation.escalate(reason, at: time) {
            eventHub.emit(LaunchEvent(time: time, id: nil, kind: .escalated(reason)))
        }
        requestShutdown(shutdownSignal.map { .signal($0) } ?? .requested)
    }

    private func waitForShutdownRequest() async {
        guard !shutdownRequested else { return }
        await withCheckedContinuation { continuation in
            switch shutdownRequest {
            case .requested: continuation.resume()
            case .pending(let waiters): shutdownRequest = .pending(waiters: waiters + [continuation])
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
        guard case .success = graphResult else { return [] }
        var steps: [ShutdownStep] = []
        for index in machine.graph.topologicalOrder.reversed() {
            let node = machine.graph.nodes[index]
            guard machine.entries[index].outcome.didStart else { continue }
            if let runner = services[index], !runner.hasEnded {
                steps.append(
                    ShutdownStep(
                        id: node.id, isolation: node.isolation,
                        timeLimit: node.service?.stopTimeLimit ?? stepTimeLimit, action: .stop(runner)))
            }
            if let tearDown = node.tearDown {
                steps.append(
                    ShutdownStep(
                        id: node.id, isolation: node.isolation,
                        timeLimit: tearDown.command.tearDownTimeLimit ?? stepTimeLimit,
                        action: .tearDown(tearDown.command)))
            }
        }
        let task = Task { [clock, context, shutdownDeadline, escalation, eventHub] in
            let entries = await ShutdownStep.run(
                steps, context: context, clock: clock, deadline: shutdownDeadline, escalation: escalation,
                events: eventHub)
            eventHub.emit(LaunchEvent(time: clock.now(), id: nil, kind: .shutDown))
            eventHub.finish()
            return entries
        }
        tearDownTask = task
        let entries = await task.value
        tearDownEntries = entries
        return entries
    }
}

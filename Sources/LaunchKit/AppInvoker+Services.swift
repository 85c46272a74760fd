extension AppInvoker {
    /// Creates and records the runner of a service about to start.
    func makeRunner(for index: Int, id: LaunchID) -> ServiceRunner {
        let runner = ServiceRunner(id: id, now: clock.now, events: eventHub) { [weak self] end in
            Task { await self?.serviceDidEnd(index, end) }
        }
        services[index] = runner
        return runner
    }

    /// Starts a service in a task of its own (it outlives the launch) and waits until it is ready,
    /// has ended, or the launch stops.
    static func startService(
        _ service: any ServiceCommand, isolation: LaunchIsolation, index: Int, context: LaunchContext,
        clock: LaunchClock, runner: ServiceRunner
    ) async -> Completion {
        let start = clock.now()
        let lifetime = ServiceLifetime(runner)
        let task: Task<Void, Never>
        switch isolation {
        case .concurrent:
            task = Task { await runConcurrently(service, context: context, lifetime: lifetime) }
        case .mainActor:
            task = Task { @MainActor in await runOnMainActor(service, context: context, lifetime: lifetime) }
        }
        runner.attach(task)
        switch await runner.waitUntilReadyOrEnded() {
        case .ready(let time):
            return Completion(index: index, startedAt: start, endedAt: time, result: .ready)
        case .ended(.success):
            return Completion(
                index: index, startedAt: start, endedAt: clock.now(), result: .failed(ServiceEndedBeforeReady()))
        case .ended(.failure(let error)):
            return Completion(index: index, startedAt: start, endedAt: clock.now(), result: .failed(error))
        case .cancelled:
            return Completion(
                index: index, startedAt: start, endedAt: clock.now(), result: .failed(CancellationError()))
        }
    }

    @concurrent
    private static func runConcurrently(
        _ service: any ServiceCommand, context: LaunchContext, lifetime: ServiceLifetime
    ) async {
        await runService(service, context: context, lifetime: lifetime)
    }

    @MainActor
    private static func runOnMainActor(
        _ service: any ServiceCommand, context: LaunchContext, lifetime: ServiceLifetime
    ) async {
        await runService(service, context: context, lifetime: lifetime)
    }

    private static func runService(
        _ service: any ServiceCommand, context: LaunchContext, lifetime: ServiceLifetime
    ) async {
        do {
            try await service.run(in: context, lifetime: lifetime)
            lifetime.runner.finish(throwing: nil)
        } catch {
            lifetime.runner.finish(throwing: error)
        }
    }

    /// Applies a service's policy when it ends on its own while the app runs: a required service
    /// shuts the app down; an optional one is only reported.
    func serviceDidEnd(_ index: Int, _ end: ServiceRunner.End) {
        guard !end.afterStopRequest, !end.cancelledByShutdown, !shutdownRequested,
            machine.entries[index].outcome == .running, machine.graph.nodes[index].isRequired
        else { return }
        let id = machine.graph.nodes[index].id
        let cause: ShutdownCause =
            if let error = end.error { .serviceFailed(id, "\(error)") } else { .serviceEnded(id) }
        if shutdownCause == nil { serviceFailure = end.error }
        requestShutdown(cause)
        Task { await self.shutDown() }
    }

    /// The error for a shutdown a required service caused, or `nil`.
    func serviceEndedError(report: LaunchReport?, skippedText: String = "", skipped: [LaunchID] = []) -> LaunchError? {
        switch shutdownCause {
        case .serviceEnded(let id):
            return LaunchError(
                .serviceEnded, "required service '\(id)' ended while the app was running\(skippedText)",
                failedCommand: id, skippedCommands: skipped, report: report)
        case .serviceFailed(let id, let message):
            return LaunchError(
                .serviceEnded, "required service '\(id)' failed while the app was running: \(message)\(skippedText)",
                failedCommand: id, skippedCommands: skipped, underlyingError: serviceFailure, report: report)
        default:
            return nil
        }
    }

    /// Streams the launch's events from now on, as they happen.
    ///
    /// Each call returns a new stream, subscribed before it returns: call it before ``run()`` or
    /// ``runUntilShutdown(signals:)`` to see every event. The stream buffers what its reader has not
    /// read yet, and finishes after the last shutdown step (``LaunchEvent/Kind/shutDown``), or at
    /// once if the invoker has already shut down.
    ///
    /// ```swift
    /// let events = invoker.events()
    /// Task {
    ///     for await event in events { print(event) }   // 0.02 ms database: started, ...
    /// }
    /// try await invoker.runUntilShutdown()
    /// ```
    ///
    /// - Returns: The events, in the order they happened.
    public nonisolated func events() -> AsyncStream<LaunchEvent> {
        eventHub.subscribe()
    }
}

/// A service returned before it signalled readiness.
struct ServiceEndedBeforeReady: Error, CustomStringConvertible {
    var description: String { "the service returned before it was ready" }
}

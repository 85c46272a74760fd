import Foundation

/// Stores launch commands and runs them: the *Invoker* role of the Command pattern at launch.
///
/// Build it from a list or a result builder, then ``run()`` it:
///
/// ```swift
/// let invoker = AppInvoker(commands: [FirebaseCommand(), OneSignalCommand(launchOptions: options)])
/// try await invoker.run()
/// ```
///
/// Before anything runs the invoker validates the dependency graph: a cycle, a missing dependency, a
/// duplicate identifier or a before-ready command depending on a deferred one throws a ``LaunchError``
/// and nothing runs. ``plan()`` shows the waves without running anything.
///
/// Then it schedules with structured concurrency: a task group runs at most ``maxConcurrency``
/// commands at once, starting a command only when all its dependencies succeeded (no task ever waits
/// blocked on another), each exactly once. Among ready commands the earliest declared starts first,
/// so launches are reproducible. Main-actor commands run on the main actor. When every before-ready
/// command has finished the app is ready (``waitUntilReady(timeout:)``) and deferred commands start.
///
/// A required command's failure or timeout aborts the launch: running commands are cancelled, the
/// ones that had not started are skipped, started commands are torn down, and ``run()`` throws a
/// ``LaunchError`` naming the failed and the skipped commands. An optional command's failure skips
/// only its dependents.
///
/// A ``ServiceCommand`` (or ``LaunchService``) is long-running: its dependents start once it signals
/// readiness, it keeps running after ``run()`` returns, and a required service that ends or throws
/// while the app runs shuts the app down.
///
/// After a successful launch, ``shutDown()`` stops the services and runs the shutdown steps of
/// ``TearDownCommand``s in reverse dependency order, each within its own time limit;
/// ``runUntilShutdown(signals:)`` does it on SIGTERM or SIGINT, and a second signal escalates.
/// ``events()`` streams what happens as it happens.
public actor AppInvoker {
    /// The commands, in declaration order.
    public nonisolated let commands: [any AppCommand]
    /// What the launch was started with.
    public nonisolated let options: LaunchOptions
    /// The values the commands share; read it after the launch to get what they made.
    public nonisolated let context: LaunchContext
    /// The most commands that run at once.
    public nonisolated let maxConcurrency: Int
    /// How long the whole shutdown may take before it escalates (see ``ShutdownEscalation``).
    public nonisolated let shutdownDeadline: Duration
    /// The default time limit of each shutdown step: a service's stop
    /// (``ServiceCommand/stopTimeLimit``) or a teardown (``TearDownCommand/tearDownTimeLimit``).
    public nonisolated let stepTimeLimit: Duration

    /// The validated graph, or why it is invalid (thrown by `run()`, `plan()` and the waits).
    let graphResult: Result<LaunchGraph, LaunchError>
    private let sourceClock: any Clock<Duration>
    /// The clock, its origin reset when the launch starts.
    var clock: LaunchClock
    /// The launch's state machine; over an empty graph when the graph is invalid (`graphResult`
    /// says so, and nothing runs), so that no use needs to unwrap it.
    var machine: LaunchStateMachine
    var lifecycle = Lifecycle.idle
    private var failureError: (any Error)?
    var waiters: [Int: Waiter] = [:]
    var nextWaiterToken = 0
    var tearDownTask: Task<[LaunchReport.TearDownEntry], Never>?
    var tearDownEntries: [LaunchReport.TearDownEntry] = []
    var shutdownSignal: LaunchSignal?
    var shutdownCause: ShutdownCause?
    /// The error of the required service whose failure caused the shutdown (``ShutdownCause/serviceFailed(_:_:)``
    /// keeps its words), for the ``LaunchError/underlyingError`` the run throws.
    var serviceFailure: (any Error)?
    /// Whether shutdown was asked for, and until then who waits for it.
    var shutdownRequest = ShutdownRequest.pending(waiters: [])
    /// What the signals of the running ``runUntilShutdown(signals:)`` do.
    var signalHandling = SignalHandling.shutsDown
    /// The running services, by node index (empty for launches without services).
    var services: [Int: ServiceRunner] = [:]
    /// Whether the shutdown has escalated; shared with the steps' task.
    let escalation = EscalationLatch()
    /// The live event streams.
    let eventHub = LaunchEventHub()

    /// Where the launch is in its life.
    /// A shutdown request: not yet made (the continuations of ``runUntilShutdown(signals:)``
    /// waiting for one), or made, once and for good.
    enum ShutdownRequest {
        case pending(waiters: [CheckedContinuation<Void, Never>])
        case requested
    }

    var shutdownRequested: Bool {
        if case .requested = shutdownRequest { return true }
        return false
    }

    enum Lifecycle {
        case idle
        case launching(Task<LaunchReport, any Error>)
        /// The launch succeeded; shutdown steps are due.
        case launched
        /// The launch failed, was cancelled or shut down; shutdown steps have run.
        case ended
    }

    /// The default for ``maxConcurrency``: the processor count, at least 4 (launch work often waits on
    /// I/O).
    public static var defaultMaxConcurrency: Int { max(4, ProcessInfo.processInfo.activeProcessorCount) }

    /// Creates an invoker from a list of commands.
    ///
    /// - Parameters:
    ///   - commands: The commands, in declaration order (which breaks ties between ready commands).
    ///   - options: What the launch is started with; defaults to the process's arguments and environment.
    ///   - maxConcurrency: The most commands that run at once; values below 1 count as 1.
    ///   - shutdownDeadline: How long the whole shutdown may take before it escalates.
    ///   - stepTimeLimit: The default time limit of each shutdown step.
    ///   - clock: The clock for timeouts and the report; inject a test clock for reproducible tests.
    public init(
        commands: [any AppCommand],
        options: LaunchOptions = .current,
        maxConcurrency: Int = AppInvoker.defaultMaxConcurrency,
        shutdownDeadline: Duration = .seconds(30),
        stepTimeLimit: Duration = .seconds(10),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.commands = commands
        self.options = options
        self.context = LaunchContext(options: options)
        self.maxConcurrency = max(1, maxConcurrency)
        self.shutdownDeadline = shutdownDeadline
        self.stepTimeLimit = stepTimeLimit
        self.sourceClock = clock
        self.clock = LaunchClock(clock)
        do {
            let graph = try LaunchGraph(commands: commands)
            self.graphResult = .success(graph)
            self.machine = LaunchStateMachine(graph: graph)
        } catch {
            self.graphResult = .failure(error)
            self.machine = LaunchStateMachine(graph: .empty)
        }
    }

    /// Creates an invoker from commands listed in a result builder.
    ///
    /// ```swift
    /// let invoker = AppInvoker {
    ///     FirebaseCommand()
    ///     OneSignalCommand(launchOptions: options)
    ///     if options.contains(flag: "--verbose") { LoggingCommand() }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - options: What the launch is started with; defaults to the process's arguments and environment.
    ///   - maxConcurrency: The most commands that run at once; values below 1 count as 1.
    ///   - shutdownDeadline: How long the whole shutdown may take before it escalates.
    ///   - stepTimeLimit: The default time limit of each shutdown step.
    ///   - clock: The clock for timeouts and the report.
    ///   - commands: The commands, in declaration order.
    public init(
        options: LaunchOptions = .current,
        maxConcurrency: Int = AppInvoker.defaultMaxConcurrency,
        shutdownDeadline: Duration = .seconds(30),
        stepTimeLimit: Duration = .seconds(10),
        clock: any Clock<Duration> = ContinuousClock(),
        @AppCommandBuilder commands: () -> [any AppCommand]
    ) {
        self.init(
            commands: commands(),
            options: options,
            maxConcurrency: maxConcurrency,
            shutdownDeadline: shutdownDeadline,
            stepTimeLimit: stepTimeLimit,
            clock: clock
        )
    }

    /// Validates the graph and returns the waves the invoker would run, without running anything.
    ///
    /// - Returns: The plan.
    /// - Throws: ``LaunchError`` when the graph is invalid (cycle, missing dependency, duplicate
    ///   identifier, phase inversion).
    public nonisolated func plan() throws(LaunchError) -> LaunchPlan {
        LaunchPlan(graph: try graphResult.get())
    }

    /// Runs the launch: every before-ready command, then (once the app is ready) every deferred one.
    ///
    /// Returns when every command has finished (every service: is ready). Services keep running
    /// afterwards, until ``shutDown()``. Other tasks can await ``waitUntilReady(timeout:)`` to
    /// continue as soon as the app is ready. Cancelling the calling task cancels the launch: running
    /// commands are cancelled, the others skipped, started commands torn down.
    ///
    /// - Returns: The launch report (without shutdown steps: those run in ``shutDown()``).
    /// - Throws: ``LaunchError``: an invalid graph (nothing ran), a required command's failure or
    ///   timeout, a required service that ended during the launch, cancellation, or a second call.
    @discardableResult
    public func run() async throws(LaunchError) -> LaunchReport {
        guard case .idle = lifecycle else {
            throw LaunchError(.alreadyStarted, "this invoker has already run; create a new one to launch again")
        }
        let graph: LaunchGraph
        do {
            graph = try graphResult.get()
        } catch {
            lifecycle = .ended
            resumeWaiters()
            eventHub.finish()
            throw error
        }
        let task = Task { try await self.launch(graph) }
        lifecycle = .launching(task)
        let result = await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            task.cancel()
        }
        switch result {
        case .success(let report): return report
        case .failure(let error as LaunchError): throw error
        case .failure(let error): throw LaunchError(.commandFailed, "\(error)", underlyingError: error)
        }
    }

    /// The report so far: a snapshot while the launch runs, the full report after; `nil` when the graph
    /// is invalid.
    public var report: LaunchReport? {
        makeReport()
    }

    /// The launch proper: schedules commands in a task group until all are done or the launch stops.
    private func launch(_ graph: LaunchGraph) async throws(LaunchError) -> LaunchReport {
        clock = LaunchClock(sourceClock)
        let clock = self.clock
        let context = self.context
        let width = maxConcurrency
        let events = eventHub
        if machine.start(at: clock.now()) { appBecameReady(at: clock.now()) }
        // The cause this launch's own failure set, announced once it stopped; a cause set by
        // `requestShutdown` (a signal, `shutDown()`) was announced there (issue 25, G9: twice).
        var failureCause: ShutdownCause?

        await withTaskGroup(of: Completion.self) { group in
            var running = 0
            while true {
                if Task.isCancelled && !machine.isStopping {
                    machine.cancel()
                    group.cancelAll()
                }
                while running < width, let index = machine.next() {
                    let node = graph.nodes[index]
                    if events.isActive { events.emit(LaunchEvent(time: clock.now(), id: node.id, kind: .started)) }
                    if !node.isService {
                        // The common case keeps the child task's closure as small as before services.
                        group.addTask { await Self.perform(node, index: index, context: context, clock: clock) }
                    } else {
                        let runner = makeRunner(for: index, id: node.id)
                        group.addTask {
                            await Self.perform(node, index: index, context: context, clock: clock, runner: runner)
                        }
                    }
                    running += 1
                }
                guard let completion = await group.next() else { break }
                running -= 1
                // Checked before recording, so work that stopped because of the cancellation counts as
                // cancelled, not failed.
                if Task.isCancelled && !machine.isStopping {
                    machine.cancel()
                    group.cancelAll()
                }
                let action = machine.complete(
                    completion.index,
                    startedAt: completion.startedAt,
                    endedAt: completion.endedAt,
                    result: completion.result
                )
                if events.isActive { emitFinished(completion) }
                switch action {
                case .proceed:
                    break
                case .proceedNowReady:
                    appBecameReady(at: completion.endedAt)
                case .abort(let failed):
                    if case .failed(let error) = completion.result { failureError = error }
                    if shutdownCause == nil {
                        shutdownCause = .launchFailed(graph.nodes[failed].id)
                        failureCause = shutdownCause
                    }
                    group.cancelAll()
                }
                if !waiters.isEmpty { resumeWaiters() }
            }
        }

        guard machine.isStopping else {
            lifecycle = .launched
            resumeWaiters()
            return launchReport()
        }
        let skipped = machine.skipUnstarted(at: clock.now()).map { graph.nodes[$0].id }
        if events.isActive {
            for id in skipped {
                events.emit(LaunchEvent(time: clock.now(), id: id, kind: .finished(.skipped(skipReason))))
            }
        }
        lifecycle = .ended
        resumeWaiters()
        if let cause = failureCause {
            events.emit(LaunchEvent(time: clock.now(), id: nil, kind: .shuttingDown(cause)))
        }
        _ = await tearDownOnce()
        let report = makeReport()
        let skippedText = skipped.isEmpty ? "" : "; skipped: " + skipped.map { "'\($0)'" }.joined(separator: ", ")
        if let failed = machine.abortedBy {
            let id = graph.nodes[failed].id
            if case .timedOut(let limit) = machine.entries[failed].outcome {
                throw LaunchError(
                    .commandTimedOut, "required command '\(id)' timed out after \(limit)\(skippedText)",
                    failedCommand: id, skippedCommands: skipped, report: report)
            }
            throw LaunchError(
                .commandFailed,
                "required command '\(id)' failed: \(failureError.map { "\($0)" } ?? "unknown error")\(skippedText)",
                failedCommand: id, skippedCommands: skipped, underlyingError: failureError, report: report)
        }
        if let error = serviceEndedError(report: report, skippedText: skippedText, skipped: skipped) { throw error }
        throw LaunchError(
            .cancelled, "the launch was cancelled" + skippedText, skippedCommands: skipped, report: report)
    }

    /// The skip reason of commands left unstarted when the launch stops.
    private var skipReason: LaunchOutcome.SkipReason {
        if let failed = machine.abortedBy {
            .launchAborted(by: machine.graph.nodes[failed].id)
        } else {
            .launchCancelled
        }
    }

    /// Opens the readiness gate: wakes the waiters, tells the event streams.
    private func appBecameReady(at time: Duration) {
        resumeWaiters()
        eventHub.emit(LaunchEvent(time: time, id: nil, kind: .appReady))
    }

    /// The live events of one completion: the command's outcome and what its failure skipped.
    private func emitFinished(_ completion: Completion) {
        let machine = self.machine
        let entry = machine.entries[completion.index]
        eventHub.emit(LaunchEvent(time: completion.endedAt, id: entry.id, kind: .finished(entry.outcome)))
        switch entry.outcome {
        case .succeeded, .running: return
        default: break
        }
        for skipped in machine.recentlySkipped {
            let skippedEntry = machine.entries[skipped]
            eventHub.emit(
                LaunchEvent(time: completion.endedAt, id: skippedEntry.id, kind: .finished(skippedEntry.outcome)))
        }
    }

    /// The report, or `nil` when the graph is invalid (nothing ran).
    func makeReport() -> LaunchReport? {
        guard case .success = graphResult else { return nil }
        return launchReport()
    }

    /// Builds the report from the state machine, the services and the shutdown steps.
    func launchReport() -> LaunchReport {
        var entries = machine.entries
        for (index, runner) in services where entries[index].outcome == .running {
            if let end = runner.end {
                entries[index].outcome = end.outcome
                entries[index].stoppedAt = end.at
            } else if runner.wasCancelledByShutdown {
                entries[index].outcome = .cancelled
            }
        }
        let (path, pathDuration) = LaunchReport.criticalPath(graph: machine.graph, entries: entries)
        var busy = Duration.zero
        for entry in entries where entry.isolation == .mainActor {
            busy += entry.runTime ?? .zero
        }
        var report = LaunchReport(
            entries: entries,
            readyAt: machine.readyAt,
            finishedAt: machine.finishedAt,
            maxConcurrency: maxConcurrency,
            criticalPath: path,
            criticalPathDuration: pathDuration,
            mainActorBusyTime: busy,
            tearDowns: tearDownEntries,
            shutdownSignal: shutdownSignal
        )
        report.shutdownCause = shutdownCause
        report.escalation = escalation.escalation
        return report
    }

    // MARK: Running one command

    /// When and how a command's work ended.
    struct Completion: Sendable {
        let index: Int
        let startedAt: Duration
        let endedAt: Duration
        let result: LaunchStateMachine.Result
    }

    /// Runs one command (with its isolation and timeout) in a child task.
    @concurrent
    private static func perform(
        _ node: LaunchGraph.Node, index: Int, context: LaunchContext, clock: LaunchClock,
        runner: ServiceRunner? = nil
    ) async -> Completion {
        guard let timeout = node.timeout else {
            return await execute(node, index: index, context: context, clock: clock, runner: runner)
        }
        let begin = clock.now()
        let outcome = await Race.run(until: begin + timeout, clock: clock) {
            await execute(node, index: index, context: context, clock: clock, runner: runner)
        }
        switch outcome {
        case .finished(.success(let completion)):
            return completion
        case .finished(.failure(let error)):
            return Completion(index: index, startedAt: begin, endedAt: clock.now(), result: .failed(error))
        case .deadlinePassed, .interrupted:
            return Completion(index: index, startedAt: begin, endedAt: clock.now(), result: .timedOut(timeout))
        }
    }

    private static func execute(
        _ node: LaunchGraph.Node, index: Int, context: LaunchContext, clock: LaunchClock, runner: ServiceRunner?
    ) async -> Completion {
        if let runner, let service = node.service {
            return await startService(
                service, isolation: node.isolation, index: index, context: context, clock: clock, runner: runner)
        }
        switch node.isolation {
        case .concurrent: return await executeConcurrently(node.command, index: index, context: context, clock: clock)
        case .mainActor: return await executeOnMainActor(node.command, index: index, context: context, clock: clock)
        }
    }

    private static func execute(
        _ node: LaunchGraph.Node, index: Int, context: LaunchContext, clock: LaunchClock
    ) async -> Completion {
        switch node.isolation {
        case .concurrent: await executeConcurrently(node.command, index: index, context: context, clock: clock)
        case .mainActor: await executeOnMainActor(node.command, index: index, context: context, clock: clock)
        }
    }

    @concurrent
    private static func executeConcurrently(
        _ command: any AppCommand, index: Int, context: LaunchContext, clock: LaunchClock
    ) async -> Completion {
        await executeTimed(command, index: index, context: context, clock: clock)
    }

    /// Times the command on the main actor, so hopping there counts as queue time, not run time.
    @MainActor
    private static func executeOnMainActor(
        _ command: any AppCommand, index: Int, context: LaunchContext, clock: LaunchClock
    ) async -> Completion {
        await executeTimed(command, index: index, context: context, clock: clock)
    }

    /// Runs and times a command on its caller's actor (nonisolated(nonsending), the package default).
    private static func executeTimed(
        _ command: any AppCommand, index: Int, context: LaunchContext, clock: LaunchClock
    ) async -> Completion {
        let start = clock.now()
        do {
            try await command.execute(in: context)
            return Completion(index: index, startedAt: start, endedAt: clock.now(), result: .succeeded)
        } catch {
            return Completion(index: index, startedAt: start, endedAt: clock.now(), result: .failed(error))
        }
    }
}

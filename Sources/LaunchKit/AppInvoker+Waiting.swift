extension AppInvoker {
    /// What a waiter waits for.
    enum WaitTarget {
        case readiness
        case command(Int)
    }

    /// A suspended call to one of the waits.
    struct Waiter {
        let target: WaitTarget
        let continuation: CheckedContinuation<LaunchOutcome, any Error>
        var timer: Task<Void, Never>?
    }

    /// Suspends until the app is ready: every ``LaunchPhase/beforeReady`` command has finished.
    ///
    /// Can be called before, during or after ``run()``; returns at once when the app is ready.
    ///
    /// ```swift
    /// async let launch = invoker.run()
    /// try await invoker.waitUntilReady(timeout: .seconds(2))
    /// print("ready")
    /// ```
    ///
    /// - Parameter timeout: How long to wait; `nil` for as long as it takes.
    /// - Throws: ``LaunchError``: ``LaunchError/Code/waitTimedOut`` naming the before-ready commands
    ///   still unfinished; ``LaunchError/Code/neverFinished`` when the launch ended without readiness;
    ///   the validation error of an invalid graph. `CancellationError` when the waiting task is
    ///   cancelled.
    public func waitUntilReady(timeout: Duration? = nil) async throws {
        _ = try graphResult.get()
        _ = try await wait(for: .readiness, timeout: timeout)
    }

    /// Suspends until one command has finished, and returns how it ended.
    ///
    /// - Parameters:
    ///   - id: The command's identifier.
    ///   - timeout: How long to wait; `nil` for as long as it takes.
    /// - Returns: The command's outcome (succeeded, failed, timed out, cancelled or skipped).
    /// - Throws: ``LaunchError``: ``LaunchError/Code/waitTimedOut`` naming the command and its
    ///   unfinished dependencies; ``LaunchError/Code/unknownCommand``; the validation error of an
    ///   invalid graph. `CancellationError` when the waiting task is cancelled.
    @discardableResult
    public func waitForCompletion(of id: LaunchID, timeout: Duration? = nil) async throws -> LaunchOutcome {
        let graph = try graphResult.get()
        guard let index = graph.indexByID[id] else {
            throw LaunchError(.unknownCommand, "no command has the identifier '\(id)'", commands: [id])
        }
        return try await wait(for: .command(index), timeout: timeout)
    }

    private func wait(for target: WaitTarget, timeout: Duration?) async throws -> LaunchOutcome {
        if let resolution = resolution(of: target) { return try resolution.get() }
        let token = nextWaiterToken
        nextWaiterToken += 1
        let clock = self.clock
        let deadline = timeout.map { clock.now() + $0 }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard !Task.isCancelled else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                var waiter = Waiter(target: target, continuation: continuation)
                if let deadline {
                    waiter.timer = Task {
                        do { try await clock.sleep(deadline) } catch { return }
                        self.expireWaiter(token)
                    }
                }
                waiters[token] = waiter
            }
        } onCancel: {
            Task { await self.cancelWaiter(token) }
        }
    }

    /// How a wait ends now, or `nil` while it must go on.
    private func resolution(of target: WaitTarget) -> Result<LaunchOutcome, LaunchError>? {
        let ended: Bool = if case .ended = lifecycle { true } else { false }
        switch target {
        case .readiness:
            if machine.isReady { return .success(.succeeded) }
            if ended {
                return .failure(LaunchError(.neverFinished, "the launch ended before the app was ready"))
            }
            return nil
        case .command(let index):
            let outcome = machine.entries[index].outcome
            return outcome.isFinished ? .success(outcome) : nil
        }
    }

    /// Resumes every waiter whose wait is over.
    func resumeWaiters() {
        guard !waiters.isEmpty else { return }
        for (token, waiter) in waiters {
            guard let resolution = resolution(of: waiter.target) else { continue }
            waiters[token] = nil
            waiter.timer?.cancel()
            waiter.continuation.resume(with: resolution.mapError { $0 as any Error })
        }
    }

    private func expireWaiter(_ token: Int) {
        guard let waiter = waiters.removeValue(forKey: token) else { return }
        let stragglers = stragglers(of: waiter.target)
        let names = stragglers.map { "'\($0)'" }.joined(separator: ", ")
        let what: String =
            switch waiter.target {
            case .readiness: "the app to be ready"
            case .command(let index): "'\(machine.graph.nodes[index].id)'"
            }
        waiter.continuation.resume(
            throwing: LaunchError(
                .waitTimedOut, "timed out waiting for \(what); still unfinished: \(names)", commands: stragglers))
    }

    private func cancelWaiter(_ token: Int) {
        guard let waiter = waiters.removeValue(forKey: token) else { return }
        waiter.timer?.cancel()
        waiter.continuation.resume(throwing: CancellationError())
    }

    /// The unfinished commands a wait is held up by, in declaration order.
    private func stragglers(of target: WaitTarget) -> [LaunchID] {
        let candidates: [Int] =
            switch target {
            case .readiness:
                machine.graph.nodes.indices.filter { machine.graph.nodes[$0].phase == .beforeReady }
            case .command(let index):
                (machine.graph.transitiveDependencies(of: index) + [index]).sorted()
            }
        return candidates.filter { !machine.entries[$0].outcome.isFinished }.map { machine.graph.nodes[$0].id }
    }
}

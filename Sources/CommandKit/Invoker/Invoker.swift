/// The Command pattern's *Invoker*: stores commands and executes them in order.
///
/// An invoker knows nothing about what its commands do; it runs them one after another and tells
/// you what happened. Build it from an array, as the seed's `AppInvoker` does, or list the
/// commands with ``CommandBuilder``:
///
/// ```swift
/// let report = await Invoker(commands: [ConfigureCrashReporting(), RegisterForPush(options: options)]).run()
///
/// let invoker = Invoker(failurePolicy: .continueAfterFailure) {
///     ConfigureCrashReporting()
///     if options.pushEnabled { RegisterForPush(options: options) }
///     for plugin in plugins { LoadPlugin(plugin) }
/// }
/// let report = await invoker.run()
/// for failure in report.failed { log(failure.name, failure.error) }
/// ```
///
/// The ``failurePolicy`` decides what a failing command does to the rest: stop (the default; the
/// remaining commands are skipped) or continue. ``run()`` never throws: the ``Report`` lists
/// every command as succeeded, failed (with its error) or skipped.
///
/// An `Invoker` holds commands that need not be `Sendable`, so it is not `Sendable` either: build
/// it in the isolation domain that runs it. ``run()`` runs there, on the caller's actor.
public struct Invoker {
    /// The commands, in execution order.
    public var commands: [any AsyncCommand]

    /// What a failing command does to the commands after it.
    public var failurePolicy: FailurePolicy

    /// Creates an invoker from an array of commands.
    ///
    /// Synchronous ``Command``s and ``AsyncCommand``s may be mixed.
    ///
    /// - Parameters:
    ///   - commands: The commands, in execution order.
    ///   - failurePolicy: What a failure does to the rest. The default stops at the first failure.
    public init(commands: [any AsyncCommand], failurePolicy: FailurePolicy = .stopAtFirstFailure) {
        self.commands = commands
        self.failurePolicy = failurePolicy
    }

    /// Creates an invoker from a list of commands written with ``CommandBuilder``.
    ///
    /// - Parameters:
    ///   - failurePolicy: What a failure does to the rest. The default stops at the first failure.
    ///   - commands: The commands, in execution order; `if`, `if`/`else`, `for`, optional commands
    ///     and arrays of commands are allowed.
    public init(
        failurePolicy: FailurePolicy = .stopAtFirstFailure,
        @CommandBuilder<any AsyncCommand> _ commands: () -> [any AsyncCommand]
    ) {
        self.init(commands: commands(), failurePolicy: failurePolicy)
    }

    /// Appends a command to run after the others.
    ///
    /// - Parameter command: The command to append.
    public mutating func append(_ command: any AsyncCommand) {
        commands.append(command)
    }

    /// Executes the commands in order and reports what happened to each.
    ///
    /// Each command runs after the previous one has finished. When a command throws, the
    /// ``failurePolicy`` decides whether the rest run or are skipped. When the current task is
    /// cancelled, the commands not yet started are skipped and the report says so; a running
    /// command sees the cancellation itself.
    ///
    /// - Returns: One entry per command, in order: succeeded, failed with its error, or skipped.
    /// - Complexity: O(*n*) calls, where *n* is the number of commands.
    public func run() async -> Report {
        var entries: [Report.Entry] = []
        entries.reserveCapacity(commands.count)
        var stopped = false
        var cancelled = false
        for (index, command) in commands.enumerated() {
            if !stopped && Task.isCancelled {
                stopped = true
                cancelled = true
            }
            guard !stopped else {
                entries.append(Report.Entry(index: index, command: command, outcome: .skipped))
                continue
            }
            do {
                try await command.execute()
                entries.append(Report.Entry(index: index, command: command, outcome: .succeeded))
            } catch {
                entries.append(Report.Entry(index: index, command: command, outcome: .failed(error)))
                if failurePolicy == .stopAtFirstFailure { stopped = true }
            }
        }
        return Report(entries: entries, wasCancelled: cancelled)
    }
}

// Holds commands that need not be `Sendable`; built and run in one isolation domain.
@available(*, unavailable)
extension Invoker: Sendable {}

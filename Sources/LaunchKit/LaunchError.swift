/// Why a launch could not be validated, did not finish, or a wait on it gave up.
///
/// A struct with a stable ``code``, so new codes do not break callers' `switch`. Match a code in a
/// `catch` clause:
///
/// ```swift
/// do {
///     try await invoker.run()
/// } catch LaunchError.Code.commandFailed {
///     ...
/// }
/// ```
public struct LaunchError: Error, Sendable, CustomStringConvertible {
    /// A stable, comparable error code.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, such as `"cycle"`.
        public let rawValue: String

        /// Creates a code from its name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The code's name.
        public var description: String { rawValue }

        /// The dependencies form a cycle; ``LaunchError/commands`` lists its members in order, each
        /// depending on the next and the last on the first.
        public static let cycle = Code(rawValue: "cycle")
        /// A command depends on an identifier no command has; ``LaunchError/commands`` lists the
        /// missing identifiers.
        public static let missingDependency = Code(rawValue: "missingDependency")
        /// Two commands share an identifier; ``LaunchError/commands`` lists the duplicates.
        public static let duplicateIdentifier = Code(rawValue: "duplicateIdentifier")
        /// A ``LaunchPhase/beforeReady`` command depends on a ``LaunchPhase/deferred`` one, which cannot
        /// start before readiness.
        public static let phaseInversion = Code(rawValue: "phaseInversion")
        /// A required command threw; ``LaunchError/failedCommand`` names it.
        public static let commandFailed = Code(rawValue: "commandFailed")
        /// A required command ran past its timeout; ``LaunchError/failedCommand`` names it.
        public static let commandTimedOut = Code(rawValue: "commandTimedOut")
        /// The launch was cancelled.
        public static let cancelled = Code(rawValue: "cancelled")
        /// A shutdown signal stopped the launch before the app was ready
        /// (``AppInvoker/runUntilShutdown(signals:)``); ``LaunchError/signal`` names it.
        public static let interrupted = Code(rawValue: "interrupted")
        /// A required service returned or threw on its own, so the app shut down;
        /// ``LaunchError/failedCommand`` names it.
        public static let serviceEnded = Code(rawValue: "serviceEnded")
        /// A wait for readiness or for a command ran out of time; ``LaunchError/commands`` names the
        /// stragglers.
        public static let waitTimedOut = Code(rawValue: "waitTimedOut")
        /// The launch ended without the awaited readiness or command (it failed or was cancelled).
        public static let neverFinished = Code(rawValue: "neverFinished")
        /// ``AppInvoker/run()`` was called on an invoker that has already run.
        public static let alreadyStarted = Code(rawValue: "alreadyStarted")
        /// A wait named a command the invoker does not have.
        public static let unknownCommand = Code(rawValue: "unknownCommand")
        /// ``LaunchContext/require(_:)`` found no value under the key.
        public static let missingValue = Code(rawValue: "missingValue")
        /// The invoker was configured with invalid settings.
        public static let invalidConfiguration = Code(rawValue: "invalidConfiguration")

        /// Matches an error against a code, so `catch LaunchError.Code.cycle` works.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? LaunchError)?.code == code
        }
    }

    /// What went wrong.
    public var code: Code
    /// A sentence for people.
    public var message: String
    /// The commands the error is about: the cycle's members in order, the missing or duplicate
    /// identifiers, or the stragglers of a wait.
    public var commands: [LaunchID]
    /// The required command whose failure or timeout aborted the launch.
    public var failedCommand: LaunchID?
    /// The commands that never started because the launch aborted or was cancelled, in declaration
    /// order.
    public var skippedCommands: [LaunchID]
    /// The error the failed command threw, or the required service whose failure shut the app down.
    public var underlyingError: (any Error)?
    /// The launch report up to the failure, teardowns included, when the launch had started.
    public var report: LaunchReport?
    /// The signal that interrupted the launch (``Code/interrupted``).
    public var signal: LaunchSignal?

    /// The process exit status for this error, by the usual Unix convention.
    ///
    /// `128 + n` for a launch interrupted by signal *n* (143 for SIGTERM, 130 for SIGINT), as a shell
    /// reports a process that a signal stopped; `1` for everything else (an invalid graph, a failed
    /// required command, a required service that ended). A graceful shutdown of a running app is no
    /// error: ``AppInvoker/runUntilShutdown(signals:)`` returns, and `main` exits 0.
    ///
    /// ```swift
    /// do {
    ///     try await invoker.runUntilShutdown()
    /// } catch let error as LaunchError {
    ///     FileHandle.standardError.write(Data("\(error.message)\n".utf8))
    ///     exit(error.exitStatus)
    /// }
    /// ```
    public var exitStatus: Int32 {
        if code == .interrupted, let signal { return 128 + signal.rawValue }
        return 1
    }

    /// Creates an error.
    public init(
        _ code: Code,
        _ message: String,
        commands: [LaunchID] = [],
        failedCommand: LaunchID? = nil,
        skippedCommands: [LaunchID] = [],
        underlyingError: (any Error)? = nil,
        report: LaunchReport? = nil,
        signal: LaunchSignal? = nil
    ) {
        self.code = code
        self.message = message
        self.commands = commands
        self.failedCommand = failedCommand
        self.skippedCommands = skippedCommands
        self.underlyingError = underlyingError
        self.report = report
        self.signal = signal
    }

    /// The code and the message, as in `LaunchError.cycle: …`.
    public var description: String { "LaunchError.\(code): \(message)" }
}

public import CommandKit

extension LaunchCommand {
    /// Wraps a CommandKit command as a launch command, so existing commands join a launch graph.
    ///
    /// ```swift
    /// struct ConfigureCrashReporting: Command {
    ///     func execute() throws { try CrashReporter.start() }
    /// }
    ///
    /// let invoker = AppInvoker {
    ///     LaunchCommand("crashReporting", running: ConfigureCrashReporting())
    ///     LaunchCommand("push", dependsOn: ["crashReporting"], running: RegisterForPush(options: options))
    /// }
    /// ```
    ///
    /// Synchronous `Command`s and `AsyncCommand`s of CommandKit both work. The command
    /// runs off the main actor; to run it on the main actor, wrap it yourself with
    /// ``LaunchCommand/onMainActor(_:dependsOn:phase:isRequired:timeout:execute:tearDown:)``.
    ///
    /// - Parameters:
    ///   - id: The launch command's identifier.
    ///   - dependencies: The commands that must succeed before this one starts.
    ///   - phase: Before readiness (the default) or deferred until after it.
    ///   - isRequired: Whether the launch fails when the command fails.
    ///   - timeout: The longest the command may run; `nil` for no limit.
    ///   - command: The CommandKit command; it crosses into the launch's tasks, so it is `Sendable`.
    public init(
        _ id: LaunchID,
        dependsOn dependencies: [LaunchID] = [],
        phase: LaunchPhase = .beforeReady,
        isRequired: Bool = true,
        timeout: Duration? = nil,
        running command: some AsyncCommand & Sendable
    ) {
        self.init(id, dependsOn: dependencies, phase: phase, isRequired: isRequired, timeout: timeout) { _ in
            try await command.execute()
        }
    }
}

/// A request wrapped as an object: one action behind one synchronous, throwing `execute()`.
///
/// A command is the Command pattern's *Command* role: it carries everything needed to perform an
/// action on a *receiver*, so the action can be passed around, stored, and run later by an
/// *invoker* that knows nothing about it. Each command has one responsibility.
///
/// ```swift
/// struct ConfigureCrashReporting: Command {
///     let options: [String: String]
///     func execute() throws { try CrashReporter.start(options) }
/// }
///
/// let report = await Invoker {
///     ConfigureCrashReporting(options: options)
///     ConfigurePushNotifications(launchOptions: options)
/// }.run()
/// ```
///
/// `Command` refines ``AsyncCommand``: a synchronous ``execute()`` also satisfies the asynchronous
/// requirement, so every `Command` runs wherever an `AsyncCommand` does. Prefer value types for
/// commands; like ``AsyncCommand`` the protocol does not require `Sendable`.
///
/// A command whose receiver is isolated to the main actor (or another global actor) conforms
/// with an isolated conformance and runs in an ``Invoker`` started on that actor:
///
/// ```swift
/// struct DeleteSelection: @MainActor Command {
///     let window: LibraryWindow  // a @MainActor class
///     @MainActor func execute() throws { try window.deleteSelection() }
/// }
/// ```
public protocol Command: AsyncCommand {
    /// Performs the command's action.
    ///
    /// - Throws: Whatever the action throws; the command did not complete.
    func execute() throws
}

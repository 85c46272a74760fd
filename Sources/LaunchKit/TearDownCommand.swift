/// A launch command that owns a shutdown step (closing a database, flushing logs).
///
/// The invoker runs the shutdown steps of the commands that started, in reverse dependency order
/// (dependents before what they depend on), on ``AppInvoker/shutDown()``, when the launch fails or is
/// cancelled, and on a shutdown signal in ``AppInvoker/runUntilShutdown(signals:)``. A failing step is
/// reported and the others still run. Each step has its own time limit (``tearDownTimeLimit``): a
/// step that overruns it is cancelled and left behind, and the steps of what it depends on still
/// run.
///
/// - Important: A command that started may have failed, timed out or been cancelled part-way, so
///   ``tearDown(in:)`` must tolerate a partial ``AppCommand/execute(in:)``.
public protocol TearDownCommand: AppCommand {
    /// The longest the shutdown step may take; `nil` (the default) for the invoker's
    /// ``AppInvoker/stepTimeLimit``.
    var tearDownTimeLimit: Duration? { get }

    /// Undoes what ``AppCommand/execute(in:)`` set up.
    ///
    /// Runs with the command's ``AppCommand/isolation``, within ``tearDownTimeLimit``. After an
    /// escalation (see ``ShutdownEscalation``) it runs in a cancelled task: release what matters
    /// and return quickly.
    ///
    /// - Parameter context: The same context the command executed in.
    /// - Throws: Any error: reported in the teardown entries; the other steps still run.
    func tearDown(in context: LaunchContext) async throws
}

extension TearDownCommand {
    /// `nil`: the invoker's ``AppInvoker/stepTimeLimit``.
    public var tearDownTimeLimit: Duration? { nil }
}

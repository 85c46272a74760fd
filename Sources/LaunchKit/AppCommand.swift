/// One piece of start-up work: the *Command* role of the Command pattern at launch.
///
/// Each command has one job (configure a crash reporter, open a database, register for push
/// notifications). An ``AppInvoker`` stores the commands and runs them, so the app's entry point stays
/// small. Only ``execute(in:)`` is required; everything else has a sensible default.
///
/// ```swift
/// struct FirebaseCommand: AppCommand {
///     func execute(in context: LaunchContext) async throws {
///         FirebaseApp.configure()
///     }
/// }
///
/// struct OneSignalCommand: AppCommand {
///     let launchOptions: LaunchOptions
///     var dependencies: [LaunchID] { [LaunchID(FirebaseCommand.self)] }
///     func execute(in context: LaunchContext) async throws {
///         OneSignal.initialize(appID, withLaunchOptions: launchOptions)
///     }
/// }
///
/// try await AppInvoker(commands: [FirebaseCommand(), OneSignalCommand(launchOptions: options)]).run()
/// ```
///
/// A command that must run on the main actor returns ``LaunchIsolation/mainActor`` from
/// ``isolation``; the invoker then calls ``execute(in:)`` from the main actor. A command that owns a
/// shutdown step adopts ``TearDownCommand``.
public protocol AppCommand: Sendable {
    /// The command's stable identifier; defaults to the name of its type.
    var id: LaunchID { get }

    /// The commands that must finish successfully before this one starts; defaults to none.
    var dependencies: [LaunchID] { get }

    /// Whether the command runs before the app is ready or after; defaults to
    /// ``LaunchPhase/beforeReady``.
    var phase: LaunchPhase { get }

    /// Where the command runs; defaults to ``LaunchIsolation/concurrent``.
    var isolation: LaunchIsolation { get }

    /// Whether the launch fails when this command fails; defaults to `true`.
    ///
    /// A required command's failure or timeout aborts the launch. An optional command's failure skips
    /// only the commands that depend on it.
    var isRequired: Bool { get }

    /// The longest the command may run before it is cancelled and counted as timed out; `nil` (the
    /// default) for no limit.
    ///
    /// The timeout holds even for work that ignores cancellation: the launch moves on at the deadline,
    /// and such work finishes in the background, its result discarded. Time is read from the
    /// invoker's clock.
    var timeout: Duration? { get }

    /// Does the command's work.
    ///
    /// Runs exactly once per launch, after all ``dependencies`` have succeeded. Check for
    /// cancellation in long work: the invoker cancels running commands when the launch aborts or
    /// shuts down.
    ///
    /// - Parameter context: The launch options and the values earlier commands stored.
    /// - Throws: Any error: the command failed.
    func execute(in context: LaunchContext) async throws
}

extension AppCommand {
    /// The name of the command's type.
    public var id: LaunchID { LaunchID(Self.self) }
    /// None: the command can start at once.
    public var dependencies: [LaunchID] { [] }
    /// ``LaunchPhase/beforeReady``: the app is not ready until the command finishes.
    public var phase: LaunchPhase { .beforeReady }
    /// ``LaunchIsolation/concurrent``: the command runs off the main actor.
    public var isolation: LaunchIsolation { .concurrent }
    /// `true`: the command's failure aborts the launch.
    public var isRequired: Bool { true }
    /// `nil`: no time limit.
    public var timeout: Duration? { nil }
}

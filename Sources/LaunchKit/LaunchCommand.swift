/// A launch command made from closures, for work too small to deserve a type of its own.
///
/// ```swift
/// let invoker = AppInvoker {
///     LaunchCommand("database") { context in
///         context[.database] = try Database.open(at: path)
///     } tearDown: { context in
///         try context[.database]?.close()
///     }
///     LaunchCommand("migrate", dependsOn: ["database"]) { context in
///         try context.require(.database).migrate()
///     }
///     LaunchCommand.onMainActor("window", dependsOn: ["migrate"]) { context in
///         showMainWindow()
///     }
/// }
/// ```
public struct LaunchCommand: TearDownCommand {
    /// The command's identifier, given at creation.
    public let id: LaunchID
    /// The commands that must succeed before this one starts (`dependsOn`).
    public let dependencies: [LaunchID]
    /// Whether the command runs before the app is ready or after.
    public let phase: LaunchPhase
    /// Whether the launch fails when this command fails.
    public let isRequired: Bool
    /// The longest the command may run; `nil` for no limit.
    public let timeout: Duration?
    private let body: Body
    private let tearDownBody: Body?

    /// A closure and the isolation it runs with.
    private enum Body: Sendable {
        case concurrent(@Sendable (LaunchContext) async throws -> Void)
        case mainActor(@MainActor @Sendable (LaunchContext) async throws -> Void)

        func callAsFunction(_ context: LaunchContext) async throws {
            switch self {
            case .concurrent(let closure): try await closure(context)
            case .mainActor(let closure): try await closure(context)
            }
        }
    }

    /// Creates a command that runs off the main actor.
    ///
    /// - Parameters:
    ///   - id: The command's identifier.
    ///   - dependencies: The commands that must succeed before this one starts.
    ///   - phase: Before readiness (the default) or deferred until after it.
    ///   - isRequired: Whether the launch fails when this command fails.
    ///   - timeout: The longest the command may run; `nil` for no limit.
    ///   - execute: The work.
    ///   - tearDown: The shutdown step, if the command owns one.
    public init(
        _ id: LaunchID,
        dependsOn dependencies: [LaunchID] = [],
        phase: LaunchPhase = .beforeReady,
        isRequired: Bool = true,
        timeout: Duration? = nil,
        execute: @escaping @Sendable (LaunchContext) async throws -> Void,
        tearDown: (@Sendable (LaunchContext) async throws -> Void)? = nil
    ) {
        self.id = id
        self.dependencies = dependencies
        self.phase = phase
        self.isRequired = isRequired
        self.timeout = timeout
        self.body = .concurrent(execute)
        self.tearDownBody = tearDown.map { .concurrent($0) }
    }

    private init(
        _ id: LaunchID,
        dependencies: [LaunchID],
        phase: LaunchPhase,
        isRequired: Bool,
        timeout: Duration?,
        body: Body,
        tearDownBody: Body?
    ) {
        self.id = id
        self.dependencies = dependencies
        self.phase = phase
        self.isRequired = isRequired
        self.timeout = timeout
        self.body = body
        self.tearDownBody = tearDownBody
    }

    /// Creates a command whose work (and shutdown step) run on the main actor.
    ///
    /// - Parameters:
    ///   - id: The command's identifier.
    ///   - dependencies: The commands that must succeed before this one starts.
    ///   - phase: Before readiness (the default) or deferred until after it.
    ///   - isRequired: Whether the launch fails when this command fails.
    ///   - timeout: The longest the command may run; `nil` for no limit.
    ///   - execute: The work, isolated to the main actor.
    ///   - tearDown: The shutdown step, if the command owns one, isolated to the main actor.
    /// - Returns: The command.
    public static func onMainActor(
        _ id: LaunchID,
        dependsOn dependencies: [LaunchID] = [],
        phase: LaunchPhase = .beforeReady,
        isRequired: Bool = true,
        timeout: Duration? = nil,
        execute: @escaping @MainActor @Sendable (LaunchContext) async throws -> Void,
        tearDown: (@MainActor @Sendable (LaunchContext) async throws -> Void)? = nil
    ) -> LaunchCommand {
        LaunchCommand(
            id,
            dependencies: dependencies,
            phase: phase,
            isRequired: isRequired,
            timeout: timeout,
            body: .mainActor(execute),
            tearDownBody: tearDown.map { .mainActor($0) }
        )
    }

    /// ``LaunchIsolation/mainActor`` for a command made with ``onMainActor(_:dependsOn:phase:isRequired:timeout:execute:tearDown:)``,
    /// ``LaunchIsolation/concurrent`` otherwise.
    public var isolation: LaunchIsolation {
        if case .mainActor = body { .mainActor } else { .concurrent }
    }

    /// Whether the command was given a shutdown step.
    public var hasTearDown: Bool { tearDownBody != nil }

    /// Runs the `execute` closure given at creation.
    ///
    /// - Parameter context: The launch options and the values earlier commands stored.
    /// - Throws: What the closure throws.
    public func execute(in context: LaunchContext) async throws {
        try await body(context)
    }

    /// Runs the `tearDown` closure given at creation; does nothing if there is none.
    ///
    /// - Parameter context: The same context the command executed in.
    /// - Throws: What the closure throws.
    public func tearDown(in context: LaunchContext) async throws {
        try await tearDownBody?(context)
    }
}

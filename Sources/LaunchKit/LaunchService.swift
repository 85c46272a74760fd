/// A long-running launch service made from a closure, for services too small to deserve a type
/// of their own (see ``ServiceCommand``).
///
/// ```swift
/// let invoker = AppInvoker {
///     LaunchService("database") { context, lifetime in
///         let pool = try await ConnectionPool.open()
///         context[.pool] = pool
///         lifetime.ready()                    // migrations may start
///         await lifetime.waitForStopRequest()
///         await pool.close()
///     }
///     LaunchCommand("migrations", dependsOn: ["database"]) { context in
///         try await context.require(.pool).migrate()
///     }
/// }
/// ```
public struct LaunchService: ServiceCommand {
    /// The service's identifier, given at creation.
    public let id: LaunchID
    /// The commands that must be done (services: ready) before this one starts.
    public let dependencies: [LaunchID]
    /// Whether the service's failure (or, while the app runs, its end) shuts the app down.
    public let isRequired: Bool
    /// The longest the service may take to become ready; `nil` for no limit.
    public let timeout: Duration?
    /// How long the service may take to stop once asked; `nil` for the invoker's
    /// ``AppInvoker/stepTimeLimit``.
    public let stopTimeLimit: Duration?
    private let body: @Sendable (LaunchContext, ServiceLifetime) async throws -> Void

    /// Creates a service that runs off the main actor.
    ///
    /// - Parameters:
    ///   - id: The service's identifier.
    ///   - dependencies: The commands that must be done (services: ready) before it starts.
    ///   - isRequired: Whether its failure, or its end while the app runs, shuts the app down.
    ///   - timeout: The longest it may take to become ready; `nil` for no limit.
    ///   - stopTimeLimit: How long it may take to stop once asked; `nil` for the invoker's default.
    ///   - run: The service: signals readiness on its lifetime, returns once it has stopped.
    public init(
        _ id: LaunchID,
        dependsOn dependencies: [LaunchID] = [],
        isRequired: Bool = true,
        timeout: Duration? = nil,
        stopTimeLimit: Duration? = nil,
        run: @escaping @Sendable (LaunchContext, ServiceLifetime) async throws -> Void
    ) {
        self.id = id
        self.dependencies = dependencies
        self.isRequired = isRequired
        self.timeout = timeout
        self.stopTimeLimit = stopTimeLimit
        self.body = run
    }

    /// Runs the closure given at creation.
    ///
    /// - Parameters:
    ///   - context: The launch options and the values earlier commands stored.
    ///   - lifetime: Where the service signals readiness and learns that it must stop.
    /// - Throws: What the closure throws.
    public func run(in context: LaunchContext, lifetime: ServiceLifetime) async throws {
        try await body(context, lifetime)
    }
}

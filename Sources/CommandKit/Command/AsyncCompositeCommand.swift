/// An asynchronous command made of other commands, executed in order as one.
///
/// Like ``CompositeCommand``, for children that may be asynchronous: ``execute()`` runs them in
/// order and stops at the first that throws, rethrowing that error. Synchronous ``Command``s may
/// be mixed in.
///
/// ```swift
/// let refresh = AsyncCompositeCommand {
///     FetchCovers(client: client)
///     ClosureCommand("Redraw") { view.redraw() }
/// }
/// try await refresh.execute()
/// ```
public struct AsyncCompositeCommand: AsyncCommand {
    /// The children, in execution order.
    public var commands: [any AsyncCommand]

    /// Creates a composite from an array of commands.
    ///
    /// - Parameter commands: The children, in execution order.
    public init(_ commands: [any AsyncCommand]) {
        self.commands = commands
    }

    /// Creates a composite from a list of commands written with ``CommandBuilder``.
    ///
    /// - Parameter commands: The children, in execution order; `if`, `if`/`else`, `for`, optional
    ///   commands and arrays of commands are allowed.
    public init(@CommandBuilder<any AsyncCommand> _ commands: () -> [any AsyncCommand]) {
        self.commands = commands()
    }

    /// Executes the children in order, stopping at the first failure.
    ///
    /// - Throws: The first error a child throws; later children do not run.
    /// - Complexity: O(*n*) calls, where *n* is the number of children.
    public func execute() async throws {
        for command in commands {
            try await command.execute()
        }
    }
}

// Holds arbitrary, possibly non-`Sendable` commands.
@available(*, unavailable)
extension AsyncCompositeCommand: Sendable {}

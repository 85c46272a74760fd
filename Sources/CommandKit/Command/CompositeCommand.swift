/// A command made of other commands, executed in order as one.
///
/// A composite (a *macro*) lets a sequence of commands be passed, stored and invoked like a single
/// one. Its ``execute()`` runs the children in order and stops at the first that throws,
/// rethrowing that error; the children after it do not run. For a run that can continue past
/// failures and reports each child's outcome, use an ``Invoker``.
///
/// ```swift
/// let importAlbums = CompositeCommand {
///     for album in albums { AddAlbum(album, to: library) }
///     if sortAfterwards { SortLibrary(library) }
/// }
/// try importAlbums.execute()
/// ```
public struct CompositeCommand: Command {
    /// The children, in execution order.
    public var commands: [any Command]

    /// Creates a composite from an array of commands.
    ///
    /// - Parameter commands: The children, in execution order.
    public init(_ commands: [any Command]) {
        self.commands = commands
    }

    /// Creates a composite from a list of commands written with ``CommandBuilder``.
    ///
    /// - Parameter commands: The children, in execution order; `if`, `if`/`else`, `for`, optional
    ///   commands and arrays of commands are allowed.
    public init(@CommandBuilder<any Command> _ commands: () -> [any Command]) {
        self.commands = commands()
    }

    /// Executes the children in order, stopping at the first failure.
    ///
    /// - Throws: The first error a child throws; later children do not run.
    /// - Complexity: O(*n*) calls, where *n* is the number of children.
    public func execute() throws {
        for command in commands {
            try command.execute()
        }
    }
}

// Holds arbitrary, possibly non-`Sendable` commands.
@available(*, unavailable)
extension CompositeCommand: Sendable {}

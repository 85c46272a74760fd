/// A command whose action is a closure.
///
/// Use it for one-off actions that do not deserve a type of their own.
///
/// ```swift
/// let invoker = Invoker {
///     ClosureCommand("Warm caches") { cache.warm() }
/// }
/// ```
///
/// A closure cannot be stored or sent as data: a `ClosureCommand` lives in memory only.
public struct ClosureCommand: Command, CustomStringConvertible {
    /// A name for the command, shown in reports such as ``Invoker/Report``.
    public var name: String

    private let action: () throws -> Void

    /// Creates a command that runs a closure.
    ///
    /// - Parameters:
    ///   - name: A name for the command, shown in reports. The default is `"ClosureCommand"`.
    ///   - action: The action to perform.
    public init(_ name: String = "ClosureCommand", action: @escaping () throws -> Void) {
        self.name = name
        self.action = action
    }

    /// Runs the closure.
    ///
    /// - Throws: Whatever the closure throws.
    public func execute() throws {
        try action()
    }

    /// The command's ``name``.
    public var description: String { name }
}

// The closure is not required to be `@Sendable`; the command stays in its creator's domain.
@available(*, unavailable)
extension ClosureCommand: Sendable {}

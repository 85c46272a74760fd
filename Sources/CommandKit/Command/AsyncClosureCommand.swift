/// An asynchronous command whose action is a closure.
///
/// ```swift
/// let invoker = Invoker {
///     AsyncClosureCommand("Fetch covers") { try await covers.fetchMissing() }
/// }
/// ```
///
/// A closure cannot be stored or sent as data: an `AsyncClosureCommand` lives in memory only.
public struct AsyncClosureCommand: AsyncCommand, CustomStringConvertible {
    /// A name for the command, shown in reports such as ``Invoker/Report``.
    public var name: String

    private let action: () async throws -> Void

    /// Creates a command that runs an asynchronous closure.
    ///
    /// - Parameters:
    ///   - name: A name for the command, shown in reports. The default is `"AsyncClosureCommand"`.
    ///   - action: The action to perform.
    public init(_ name: String = "AsyncClosureCommand", action: @escaping () async throws -> Void) {
        self.name = name
        self.action = action
    }

    /// Runs the closure.
    ///
    /// - Throws: Whatever the closure throws.
    public func execute() async throws {
        try await action()
    }

    /// The command's ``name``.
    public var description: String { name }
}

// The closure is not required to be `@Sendable`; the command stays in its creator's domain.
@available(*, unavailable)
extension AsyncClosureCommand: Sendable {}

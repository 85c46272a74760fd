/// A type-erased ``Invocation``: invocations of different targets, methods and arguments, stored
/// together and invoked later.
///
/// Wrapping copies the invocation as it is; later changes to the original do not reach the
/// wrapper. The target keeps the retention the invocation chose.
///
/// ```swift
/// var undoActions: [AnyInvocation] = []
/// undoActions.append(AnyInvocation(Invocation(target: library, method: LibraryAPI.add(_:at:),
///                                             arguments: (album, index), retention: .weak)))
/// undoActions.append(AnyInvocation(Invocation(target: library, method: LibraryAPI.rename(_:to:),
///                                             arguments: (id, "Old Title"), retention: .weak)))
/// try undoActions.popLast()?.invoke()
/// ```
public struct AnyInvocation: Command {
    /// The wrapped invocation; recover it with `as?` and its full type.
    public let base: Any

    private let call: () throws -> Any
    private let currentTarget: () -> AnyObject?
    private let targetTypeName: String

    /// Wraps an invocation.
    ///
    /// - Parameter invocation: The invocation to wrap, copied as it is now.
    public init<Target, Arguments, Result>(_ invocation: Invocation<Target, Arguments, Result>) {
        base = invocation
        call = { try invocation.invoke() }
        currentTarget = { invocation.target }
        targetTypeName = String(describing: Target.self)
    }

    /// The invocation's target, or `nil` when there is none or it has been deallocated.
    ///
    /// Compare it with `===` to find the invocations of one object (to drop all actions of a
    /// target that is going away, for instance).
    public var target: AnyObject? {
        currentTarget()
    }

    /// Calls the method and returns its result, boxed.
    ///
    /// - Returns: The method's result as `Any` (`()` for a method returning nothing).
    /// - Throws: Whatever ``Invocation/invoke()`` throws.
    @discardableResult
    public func invoke() throws -> Any {
        try call()
    }

    /// Calls the method and returns its result as the type you expect.
    ///
    /// The method is called before the type is checked.
    ///
    /// - Parameter type: The type the method returns.
    /// - Returns: The method's result.
    /// - Throws: ``InvocationError/resultTypeMismatch`` if the result is not a `Result`, or
    ///   whatever ``Invocation/invoke()`` throws.
    public func invoke<Result>(returning type: Result.Type) throws -> Result {
        let result = try call()
        guard let typed = result as? Result else {
            throw InvocationError(
                code: .resultTypeMismatch,
                targetType: targetTypeName,
                detail: "expected \(Result.self), got \(Swift.type(of: result))"
            )
        }
        return typed
    }

    /// Invokes the method, discarding its result.
    ///
    /// - Throws: Whatever ``invoke()`` throws.
    public func execute() throws {
        _ = try call()
    }
}

// Holds a target reference and a method of it: invoke it where the target lives.
@available(*, unavailable)
extension AnyInvocation: Sendable {}

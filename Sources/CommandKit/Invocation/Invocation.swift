/// A method call captured as a value: a target, a method and its arguments, each replaceable until
/// the call is made.
///
/// `Invocation` is Swift's type-safe answer to `NSInvocation`, which Swift cannot use on any
/// platform. Build one from an unapplied method reference, the object to call it on, and a tuple
/// of arguments; the compiler checks that the arguments match the method's parameters. The
/// invocation can be stored, passed around, changed, and invoked later, any number of times.
///
/// ```swift
/// // Deleting an album stores how to put it back.
/// let index = library.index(of: album)!
/// library.remove(at: index)
/// var undo = Invocation(target: library, method: LibraryAPI.add(_:at:), arguments: (album, index))
///
/// undo.arguments.1 = 0       // change one argument: put it first instead
/// try undo.invoke()          // calls library.add(album, at: 0)
/// ```
///
/// `Arguments` is the tuple of the method's parameter types (a single type for a one-parameter
/// method, `()` for none), so the full type reads like the call: `Invocation<LibraryAPI, (Album,
/// Int), Void>`. ``invoke()`` returns the method's result or rethrows its error.
///
/// The target is held strongly by default. Hold it weakly (``Retention/weak``) when the
/// invocation must not keep it alive, such as an undo action stored by the object it targets;
/// invoking a weak invocation whose target is gone throws ``InvocationError/targetDeallocated``.
///
/// To store invocations of different types together, wrap them in ``AnyInvocation``.
///
/// An `Invocation` is not `Sendable`: it holds a reference to its target and a method of it.
/// Invoke it in the isolation domain that owns the target.
public struct Invocation<Target: AnyObject, Arguments, Result> {
    /// The arguments the method is called with, as a tuple; replace all or one before invoking.
    ///
    /// ```swift
    /// invocation.arguments = (otherAlbum, 2)
    /// invocation.arguments.1 = 4
    /// ```
    public var arguments: Arguments

    private var reference: TargetReference
    private var call: (Target, Arguments) throws -> Result

    /// Creates an invocation of a method on a target with arguments.
    ///
    /// - Parameters:
    ///   - target: The object to call the method on.
    ///   - method: An unapplied method reference of the target's type, such as
    ///     `LibraryAPI.add(_:at:)`, or any function of the same shape.
    ///   - arguments: The arguments, as a tuple matching the method's parameters: `(album, 3)`
    ///     for two parameters, `album` for one, `()` for none.
    ///   - retention: Whether the invocation holds the target strongly (the default) or weakly.
    public init<each Argument>(
        target: Target,
        method: @escaping (Target) -> (repeat each Argument) throws -> Result,
        arguments: (repeat each Argument),
        retention: Retention = .strong
    ) where Arguments == (repeat each Argument) {
        self.arguments = arguments
        self.reference = TargetReference(target, retention: retention)
        self.call = Self.makeCall(method)
    }

    /// The object the method is called on, or `nil` when there is none or a weakly held target has
    /// been deallocated.
    ///
    /// Setting a new target keeps the current ``retention``. Setting `nil` removes the target;
    /// ``invoke()`` then throws ``InvocationError/missingTarget``.
    public var target: Target? {
        get { reference.object }
        set { reference = TargetReference(newValue, retention: retention) }
    }

    /// Whether the invocation holds its target strongly or weakly.
    public var retention: Retention {
        reference.retention
    }

    /// Replaces the target and chooses how it is held.
    ///
    /// - Parameters:
    ///   - target: The new object to call the method on.
    ///   - retention: Whether to hold it strongly or weakly.
    public mutating func setTarget(_ target: Target, retention: Retention) {
        reference = TargetReference(target, retention: retention)
    }

    /// Replaces the method with another of the same target type, parameters and result.
    ///
    /// ```swift
    /// var invocation = Invocation(target: library, method: LibraryAPI.add(_:at:), arguments: (album, 3))
    /// invocation.setMethod(LibraryAPI.replace(_:at:))
    /// ```
    ///
    /// - Parameter method: An unapplied method reference of the target's type.
    public mutating func setMethod<each Argument>(
        _ method: @escaping (Target) -> (repeat each Argument) throws -> Result
    ) where Arguments == (repeat each Argument) {
        call = Self.makeCall(method)
    }

    /// Calls the method on the target with the arguments.
    ///
    /// - Returns: The method's result.
    /// - Throws: ``InvocationError/targetDeallocated`` if the target was held weakly and is gone,
    ///   ``InvocationError/missingTarget`` if the target was removed, or whatever the method throws.
    @discardableResult
    public func invoke() throws -> Result {
        guard let target = reference.object else {
            throw InvocationError(
                code: reference.retention == .weak && !reference.wasRemoved ? .targetDeallocated : .missingTarget,
                targetType: String(describing: Target.self)
            )
        }
        return try call(target, arguments)
    }

    private static func makeCall<each Argument>(
        _ method: @escaping (Target) -> (repeat each Argument) throws -> Result
    ) -> (Target, (repeat each Argument)) throws -> Result {
        { target, arguments in try method(target)(repeat each arguments) }
    }
}

// Holds a target reference and a method of it: invoke it where the target lives.
@available(*, unavailable)
extension Invocation: Sendable {}

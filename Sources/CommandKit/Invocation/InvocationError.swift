/// An error thrown when an invocation cannot be made.
///
/// Errors thrown by the invoked method itself pass through unchanged; an `InvocationError` means
/// the method was not called. Match it by its stable ``code``:
///
/// ```swift
/// do {
///     try undo.invoke()
/// } catch InvocationError.targetDeallocated {
///     // the library is gone: nothing to undo
/// }
/// ```
public struct InvocationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, comparable identifier of what went wrong.
    ///
    /// New codes may be added; `switch` over them with a `default` case.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name.
        public let rawValue: String

        /// Creates a code from its stable name.
        ///
        /// - Parameter rawValue: The code's name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The code's stable name.
        public var description: String { rawValue }

        /// The invocation held its target weakly and the target has been deallocated.
        public static let targetDeallocated = Code(rawValue: "targetDeallocated")
        /// The invocation's target was removed (set to `nil`).
        public static let missingTarget = Code(rawValue: "missingTarget")
        /// ``AnyInvocation/invoke(returning:)`` was asked for a type the method does not return.
        public static let resultTypeMismatch = Code(rawValue: "resultTypeMismatch")
    }

    /// What went wrong.
    public let code: Code

    /// The name of the target's type, for messages.
    public let targetType: String

    /// More about the failure, when there is more to say.
    public let detail: String?

    /// Creates an invocation error.
    ///
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - targetType: The name of the target's type.
    ///   - detail: More about the failure, or `nil`.
    public init(code: Code, targetType: String, detail: String? = nil) {
        self.code = code
        self.targetType = targetType
        self.detail = detail
    }

    /// A message such as "cannot invoke a method of LibraryAPI: the target has been deallocated".
    public var description: String {
        let reason =
            switch code {
            case .targetDeallocated: "the target has been deallocated"
            case .missingTarget: "the invocation has no target"
            case .resultTypeMismatch: "the result has another type"
            default: code.rawValue
            }
        return "cannot invoke a method of \(targetType): \(reason)" + (detail.map { " (\($0))" } ?? "")
    }

    /// The invocation held its target weakly and the target has been deallocated.
    public static let targetDeallocated = Code.targetDeallocated
    /// The invocation's target was removed (set to `nil`).
    public static let missingTarget = Code.missingTarget
    /// ``AnyInvocation/invoke(returning:)`` was asked for a type the method does not return.
    public static let resultTypeMismatch = Code.resultTypeMismatch
}

extension InvocationError.Code {
    /// Matches an error that is an ``InvocationError`` with this code, so `catch` clauses can be
    /// written as `catch InvocationError.targetDeallocated`.
    ///
    /// - Parameters:
    ///   - code: The code to match.
    ///   - error: The error caught.
    /// - Returns: Whether `error` is an ``InvocationError`` with this code.
    public static func ~= (code: Self, error: any Error) -> Bool {
        (error as? InvocationError)?.code == code
    }
}

/// A typed key for a value in ``LaunchOptions`` or ``LaunchContext``.
///
/// Declare keys as static members so call sites read like properties:
///
/// ```swift
/// extension LaunchKey where Value == Database {
///     static var database: LaunchKey<Database> { LaunchKey("database") }
/// }
///
/// context[.database] = database          // in the command that opens it
/// let database = try context.require(.database)   // in the commands that depend on it
/// ```
///
/// Two keys are the same key when both their names and their value types match. Values stored in
/// ``LaunchOptions`` and under ``LaunchContext``'s main subscript must be `Sendable`; a value that is
/// not (a database connection class) goes in the context's main-actor storage,
/// ``LaunchContext/subscript(mainActor:)``.
public struct LaunchKey<Value>: Hashable, Sendable, CustomStringConvertible {
    /// The key's name, as shown in errors.
    public let name: String

    /// Creates a key.
    public init(_ name: String) {
        self.name = name
    }

    /// The key's name.
    public var description: String { name }

    /// The type-erased form used for storage: name plus value type.
    var erased: AnyLaunchKey { AnyLaunchKey(name: name, type: ObjectIdentifier(Value.self)) }
}

/// A ``LaunchKey`` without its value type, for storage.
struct AnyLaunchKey: Hashable, Sendable {
    let name: String
    let type: ObjectIdentifier
}

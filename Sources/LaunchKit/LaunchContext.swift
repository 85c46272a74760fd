import Synchronization

/// What the commands of one launch share: the launch options, and values that commands hand to the
/// commands that depend on them.
///
/// A command stores what it made under a typed key; its dependents read it. No globals, and no
/// command reads a value before its producer has finished, because dependents start only after their
/// dependencies succeeded.
///
/// ```swift
/// LaunchCommand("open") { context in context[.database] = try Database.open() }
/// LaunchCommand("migrate", dependsOn: ["open"]) { context in try context.require(.database).migrate() }
/// ```
///
/// The context is safe to use from any task. Values must be `Sendable`.
public final class LaunchContext: Sendable {
    /// A typed key for a shared value.
    public typealias Key<Value: Sendable> = LaunchKey<Value>

    /// The options the launch was started with.
    public let options: LaunchOptions

    private let values = Mutex<[AnyLaunchKey: any Sendable]>([:])

    /// Creates an empty context.
    ///
    /// - Parameter options: The options the launch was started with.
    public init(options: LaunchOptions = LaunchOptions()) {
        self.options = options
    }

    /// The value stored under a key, or `nil`; setting `nil` removes it.
    public subscript<Value: Sendable>(key: Key<Value>) -> Value? {
        get { values.withLock { $0[key.erased] } as? Value }
        set { values.withLock { $0[key.erased] = newValue } }
    }

    /// The value stored under a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: The value.
    /// - Throws: ``LaunchError`` with code ``LaunchError/Code/missingValue`` when nothing is stored under
    ///   `key` (usually a missing dependency on the command that stores it).
    public func require<Value: Sendable>(_ key: Key<Value>) throws(LaunchError) -> Value {
        guard let value = self[key] else {
            throw LaunchError(.missingValue, "no value of type \(Value.self) is stored under the key '\(key.name)'")
        }
        return value
    }
}

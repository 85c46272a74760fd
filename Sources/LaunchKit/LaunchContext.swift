import Locking

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
/// The context is safe to use from any task. Values must be `Sendable`, except in the main-actor
/// storage (``subscript(mainActor:)``), where main-actor commands hand each other objects that are
/// not, such as a database connection owned by the main actor:
///
/// ```swift
/// LaunchCommand.onMainActor("open") { context in
///     context[mainActor: .session] = try LibrarySession.open(path: path)
/// }
/// LaunchCommand.onMainActor("restore", dependsOn: ["open"]) { context in
///     try context.require(mainActor: .session).restoreCurrentAlbum()
/// }
/// ```
public final class LaunchContext: Sendable {
    /// A typed key for a shared value.
    public typealias Key<Value> = LaunchKey<Value>

    /// The options the launch was started with.
    public let options: LaunchOptions

    private let values = LockedState<[AnyLaunchKey: any Sendable]>([:])
    private let mainActorValues = MainActorValues()

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

    /// The value stored under a key in the main-actor storage, or `nil`; setting `nil` removes it.
    ///
    /// For values that are not `Sendable`: they never leave the main actor. Use it from main-actor
    /// commands (``LaunchIsolation/mainActor``) and, after the launch, from main-actor code.
    @MainActor
    public subscript<Value>(mainActor key: Key<Value>) -> Value? {
        get { mainActorValues.values[key.erased] as? Value }
        set { mainActorValues.values[key.erased] = newValue }
    }

    /// The value stored under a key in the main-actor storage.
    ///
    /// - Parameter key: The key.
    /// - Returns: The value.
    /// - Throws: ``LaunchError`` with code ``LaunchError/Code/missingValue`` when nothing is stored
    ///   under `key`.
    @MainActor
    public func require<Value>(mainActor key: Key<Value>) throws(LaunchError) -> Value {
        guard let value = self[mainActor: key] else {
            throw LaunchError(
                .missingValue, "no value of type \(Value.self) is stored under the main-actor key '\(key.name)'")
        }
        return value
    }
}

/// The context's main-actor storage: isolated to the main actor, so it may hold values that are
/// not `Sendable`.
@MainActor
private final class MainActorValues {
    var values: [AnyLaunchKey: Any] = [:]

    nonisolated init() {}
}

import Foundation

/// The command types a ``DurableHistory`` can decode, by their stable ``PersistentCommand/kind``.
///
/// Register every command type your history stores. A stored command whose kind is not registered
/// is reported with ``StoreError/Code/unknownCommandKind`` when it is read, never skipped.
///
/// ```swift
/// var registry = CommandRegistry<Library>()
/// registry.register(AddAlbum.self)
/// registry.register(DeleteAlbum.self)
/// let history = try DurableHistory(database: db, receiver: library, registry: registry)
/// ```
public struct CommandRegistry<Receiver>: Sendable {
    struct Registration: Sendable {
        let type: any PersistentCommand<Receiver>.Type
        let version: Int
        /// Decodes the type's data at a version and binds the command to a receiver.
        let decode: @Sendable (_ payload: Data, _ version: Int, _ receiver: Receiver) throws -> any BoundCommand
        /// Decodes the type's data and runs its discard action, for types registered with one.
        var discard: (@Sendable (_ payload: Data, _ version: Int, _ receiver: Receiver) throws -> Void)?
    }

    private var registrations: [String: Registration] = [:]

    /// Creates an empty registry.
    public init() {}

    /// Registers a command type under its kind.
    ///
    /// Registering the same type twice does nothing.
    ///
    /// - Parameter type: The command type.
    /// - Precondition: No other type is registered under the same kind.
    public mutating func register<Command: PersistentCommand>(_ type: Command.Type) where Command.Receiver == Receiver {
        if let existing = registrations[Command.kind] {
            precondition(
                existing.type == type,
                "command kind \(Command.kind) is registered twice: by \(existing.type) and by \(type)"
            )
            return
        }
        registrations[Command.kind] = Registration(type: type, version: Command.version) { payload, version, receiver in
            ReceiverBoundCommand(try Command.decode(payload, version: version), receiver: receiver)
        }
    }

    /// Registers a command type that keeps something outside the history for a later redo, with
    /// the action that releases it when the command's entry leaves the history without being run
    /// again.
    ///
    /// An entry leaves the history when a push drops the redo tail it is in, when the undo limit
    /// trims it, or when the history is cleared. The history then decodes the entry (or the
    /// macros holding one) and calls `whenDiscarded` with the command as last stored and the
    /// receiver, inside the transaction that removes the entry: if it throws, the whole operation
    /// rolls back. An import that stages its rows for redo uses it to delete them, instead of a
    /// sweep on every push. Entries removed because they became obsolete are not discarded.
    ///
    /// ```swift
    /// registry.register(ImportAlbums.self) { command, library in
    ///     try library.discardStagedImport(command.batch)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The command type.
    ///   - whenDiscarded: Releases what the command kept for a redo.
    /// - Precondition: No other type is registered under the same kind.
    /// - Complexity: Removing entries then reads the removed rows of this kind (and of macros).
    public mutating func register<Command: PersistentCommand>(
        _ type: Command.Type,
        whenDiscarded: @escaping @Sendable (_ command: Command, _ receiver: Receiver) throws -> Void
    ) where Command.Receiver == Receiver {
        register(type)
        registrations[Command.kind]?.discard = { payload, version, receiver in
            try whenDiscarded(try Command.decode(payload, version: version), receiver)
        }
    }

    /// The kinds registered with a discard action, sorted.
    var discardingKinds: [String] { registrations.filter { $0.value.discard != nil }.keys.sorted() }

    /// Runs the discard action of a stored command of a kind registered with one.
    func discard(
        kind: String, version: Int, payload: Data, receiver: Receiver, context: @autoclosure () -> String
    ) throws {
        guard let discard = registrations[kind]?.discard else { return }
        do {
            try discard(payload, version, receiver)
        } catch let error as DecodingError {
            throw StoreError(
                .invalidCommandData,
                "\(context()) has command kind \"\(kind)\" whose stored data does not decode: \(error)"
            )
        }
    }

    /// The registered kinds, sorted.
    public var kinds: [String] { registrations.keys.sorted() }

    /// Whether a kind is registered.
    public func contains(kind: String) -> Bool {
        registrations[kind] != nil
    }

    /// Decodes a stored command bound to `receiver`, or throws a ``StoreError`` saying why it cannot be.
    func decode(
        kind: String, version: Int, payload: Data, receiver: Receiver, context: @autoclosure () -> String
    ) throws
        -> any BoundCommand
    {
        guard let registration = registrations[kind] else {
            let known = kinds.isEmpty ? "none" : kinds.joined(separator: ", ")
            throw StoreError(
                .unknownCommandKind,
                "\(context()) has command kind \"\(kind)\" (version \(version)), which this program does not "
                    + "register (registered kinds: \(known))"
            )
        }
        guard version <= registration.version else {
            throw StoreError(
                .unsupportedCommandVersion,
                "\(context()) has command kind \"\(kind)\" at version \(version), newer than the version "
                    + "\(registration.version) this program knows"
            )
        }
        do {
            return try registration.decode(payload, version, receiver)
        } catch var error as StoreError {
            error.message = "\(context()): \(error.message)"
            throw error
        } catch {
            throw StoreError(
                .invalidCommandData,
                "\(context()) has command kind \"\(kind)\" whose stored data does not decode: \(error)"
            )
        }
    }
}

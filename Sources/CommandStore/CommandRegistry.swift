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

package import Foundation

/// A command together with the receiver it runs against, seen through a protocol that does not
/// name the receiver's type.
///
/// The history's entries and its SQLite storage are written once for every receiver: through
/// this protocol they are plain types, and the one generic step left is wrapping the command,
/// once per push.
///
/// A class: an entry owns its command, and running it mutates it in place. Copies of an entry
/// (the storage's cache, the engine's local) share it; the storage writes the entry back after
/// every run and forgets its cache after a rollback, so no stale copy outlives an operation.
///
/// ## Performance notes
///
/// Generic over `Receiver`, each operation of the entries and the storage made the Swift runtime
/// look up the metadata of `DurableEntry<Receiver>`, its optionals and arrays, and of
/// `any PersistentCommand<Receiver>`: a fifth of a push, spent in hash-table look-ups
/// (BENCHMARKS.md, "Durable history").
package protocol BoundCommand: AnyObject {
    /// The command type's ``PersistentCommand/kind``.
    var kind: String { get }
    /// The command type's ``PersistentCommand/version``.
    var version: Int { get }
    var text: String { get }
    var actionText: String { get }
    var mergeID: Int? { get }
    var isObsolete: Bool { get }
    var isSignificant: Bool { get }

    func redo() throws
    func undo() throws
    /// Absorbs `other` when it is a command of the same type and the command agrees to merge.
    func merge(with other: any BoundCommand) -> Bool
    /// The command's JSON.
    func payload(using encoder: PayloadEncoder) throws -> Data
    /// The command itself, for `DurableHistory.command(at:)` (which knows the receiver type).
    var persistentCommand: any PersistentCommand { get }
}

/// A ``PersistentCommand`` bound to its receiver.
package final class ReceiverBoundCommand<Command: PersistentCommand>: BoundCommand {
    /// Read and replaced whole, never held across a call that could reach it again (redo runs on a
    /// copy): the runtime's exclusivity checks are skipped on this hot property.
    @exclusivity(unchecked) private var command: Command

    /// The command as it is now (after a run, what its run recorded).
    package var current: Command { command }

    package var persistentCommand: any PersistentCommand { command }
    private let receiver: Command.Receiver

    package init(_ command: Command, receiver: Command.Receiver) {
        self.command = command
        self.receiver = receiver
    }

    package var kind: String { Command.kind }
    package var version: Int { Command.version }
    package var text: String { command.text }
    package var actionText: String { command.actionText }
    package var mergeID: Int? { command.mergeID }
    package var isObsolete: Bool { command.isObsolete }
    package var isSignificant: Bool { command.isSignificant }

    // A command that throws half-way keeps its state from before the call, as a value would.
    package func redo() throws {
        var running = command
        try running.redo(on: receiver)
        command = running
    }

    package func undo() throws {
        var running = command
        try running.undo(on: receiver)
        command = running
    }

    package func merge(with other: any BoundCommand) -> Bool {
        guard let other = other as? Self else { return false }
        var merged = command
        guard merged.merge(with: other.command) else { return false }
        command = merged
        return true
    }

    package func payload(using encoder: PayloadEncoder) throws -> Data {
        do {
            return try encoder.encode(command)
        } catch {
            throw StoreError(
                .invalidCommandData, "command kind \(Command.kind) (\"\(command.text)\") does not encode: \(error)")
        }
    }
}

internal import CommandKit
import Foundation

/// One history entry of a ``DurableHistory``: a decoded command with its receiver, or a closed macro.
///
/// This is the shared engine's `HistoryEntry`: `redo()` here is `command.redo(on: receiver)`.
/// An entry read from the file starts `.stored`: its texts, merge ID and significance come from
/// its row, and its command is decoded only when it runs or merges. So reading texts never fails,
/// and an unknown kind is reported by the undo or redo that needs it.
struct DurableEntry<Receiver>: HistoryEntry {
    enum Content {
        case command(any PersistentCommand<Receiver>, Receiver)
        case macro(text: String, children: [DurableEntry<Receiver>])
        case stored(StoredEntry, Decoding<Receiver>)
    }

    var content: Content

    var text: String {
        switch content {
        case .command(let command, _): command.text
        case .macro(let text, _): text
        case .stored(let stored, _): stored.text
        }
    }

    var actionText: String {
        switch content {
        case .command(let command, _): command.actionText
        case .macro(let text, _): text
        case .stored(let stored, _): stored.actionText
        }
    }

    var mergeID: Int? {
        switch content {
        case .command(let command, _): command.mergeID
        case .macro: nil
        case .stored(let stored, _): stored.mergeID
        }
    }

    var isObsolete: Bool {
        // Obsolete entries are removed as soon as they turn so: a stored one never is.
        guard case .command(let command, _) = content else { return false }
        return command.isObsolete
    }

    var isSignificant: Bool {
        switch content {
        case .command(let command, _): command.isSignificant
        case .macro: true
        case .stored(let stored, _): stored.isSignificant
        }
    }

    /// Decodes a stored entry in place (no effect on decoded ones).
    mutating func decode() throws {
        guard case .stored(let stored, let decoding) = content else { return }
        do {
            self = try stored.decode(
                registry: decoding.registry,
                receiver: decoding.receiver,
                decoder: JSONDecoder(),
                context: decoding.context
            )
        } catch let error as StoreError {
            throw StoreError(error.code, error.message, path: decoding.path, databaseError: error.databaseError)
        }
    }

    mutating func redo() throws {
        try decode()
        switch content {
        case .command(var command, let receiver):
            try command.redo(on: receiver)
            content = .command(command, receiver)
        case .macro(let text, var children):
            // A failing child aborts the whole operation; the enclosing transaction undoes the rest.
            for index in children.indices { try children[index].redo() }
            content = .macro(text: text, children: children)
        case .stored:
            preconditionFailure("decoded above")
        }
    }

    mutating func undo() throws {
        try decode()
        switch content {
        case .command(var command, let receiver):
            try command.undo(on: receiver)
            content = .command(command, receiver)
        case .macro(let text, var children):
            for index in children.indices.reversed() { try children[index].undo() }
            content = .macro(text: text, children: children)
        case .stored:
            preconditionFailure("decoded above")
        }
    }

    mutating func merge(with other: DurableEntry<Receiver>) -> Bool {
        // An entry that no longer decodes merges with nothing: the new one is recorded apart.
        guard (try? decode()) != nil else { return false }
        guard case .command(var command, let receiver) = content,
            case .command(let incoming, _) = other.content
        else { return false }
        guard command.merge(withAny: incoming) else { return false }
        content = .command(command, receiver)
        return true
    }

    static func macro(text: String, children: [DurableEntry<Receiver>]) -> DurableEntry<Receiver> {
        DurableEntry(content: .macro(text: text, children: children))
    }
}

/// What a stored entry needs to decode itself: the registry, the receiver, and where it is (for messages).
struct Decoding<Receiver> {
    let registry: CommandRegistry<Receiver>
    let receiver: Receiver
    /// The database file.
    let path: String
    /// Where the entry is, for messages ("/path: history entry 3").
    let context: String
}

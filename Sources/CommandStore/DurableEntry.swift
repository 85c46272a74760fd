internal import CommandKit
package import Foundation

/// One history entry of a ``DurableHistory``: a decoded command bound to its receiver, or a closed macro.
///
/// This is the shared engine's `HistoryEntry`: `redo()` here is `command.redo(on: receiver)`.
/// Not generic over the receiver (``BoundCommand`` hides it), so the engine and the storage handle
/// entries without run-time metadata look-ups.
/// An entry read from the file starts `.stored`: its texts, merge ID and significance come from
/// its row, and its command is decoded only when it runs or merges. So reading texts never fails,
/// and an unknown kind is reported by the undo or redo that needs it. Its payload is not even read
/// until then (see ``Decoding/payload()``): listing the texts of a history costs the texts.
package struct DurableEntry: HistoryEntry {
    package enum Content {
        case command(any BoundCommand)
        case macro(text: String, children: [DurableEntry])
        // Boxed: copying an entry (the engine and the storage do, several times a push) then moves
        // a pointer, not a stored row's worth of fields.
        indirect case stored(StoredEntry, Decoding)
    }

    package var content: Content

    package init(content: Content) { self.content = content }

    package var text: String {
        switch content {
        case .command(let command): command.text
        case .macro(let text, _): text
        case .stored(let stored, _): stored.text
        }
    }

    package var actionText: String {
        switch content {
        case .command(let command): command.actionText
        case .macro(let text, _): text
        case .stored(let stored, _): stored.actionText
        }
    }

    package var mergeID: Int? {
        switch content {
        case .command(let command): command.mergeID
        case .macro: nil
        case .stored(let stored, _): stored.mergeID
        }
    }

    package var isObsolete: Bool {
        // Obsolete entries are removed as soon as they turn so: a stored one never is.
        guard case .command(let command) = content else { return false }
        return command.isObsolete
    }

    package var isSignificant: Bool {
        switch content {
        case .command(let command): command.isSignificant
        case .macro: true
        case .stored(let stored, _): stored.isSignificant
        }
    }

    /// Decodes a stored entry in place (no effect on decoded ones).
    package mutating func decode() throws {
        guard case .stored(var stored, let decoding) = content else { return }
        do {
            if stored.payload == nil { stored.payload = try decoding.payload() }
            self = try stored.decode(
                with: decoding.commands,
                decoder: JSONDecoder(),
                context: "\(decoding.path): history entry \(decoding.position)"
            )
        } catch let error as StoreError {
            throw StoreError(error.code, error.message, path: decoding.path, databaseError: error.databaseError)
        }
    }

    package mutating func redo() throws {
        try decode()
        switch content {
        case .command(let command):
            try command.redo()
        case .macro(let text, var children):
            // A failing child aborts the whole operation; the enclosing transaction undoes the rest.
            for index in children.indices { try children[index].redo() }
            content = .macro(text: text, children: children)
        case .stored:
            preconditionFailure("decoded above")
        }
    }

    package mutating func undo() throws {
        try decode()
        switch content {
        case .command(let command):
            try command.undo()
        case .macro(let text, var children):
            for index in children.indices.reversed() { try children[index].undo() }
            content = .macro(text: text, children: children)
        case .stored:
            preconditionFailure("decoded above")
        }
    }

    package mutating func merge(with other: DurableEntry) -> Bool {
        // An entry that no longer decodes merges with nothing: the new one is recorded apart.
        guard (try? decode()) != nil else { return false }
        guard case .command(let command) = content, case .command(let incoming) = other.content else { return false }
        return command.merge(with: incoming)
    }

    package static func macro(text: String, children: [DurableEntry]) -> DurableEntry {
        DurableEntry(content: .macro(text: text, children: children))
    }
}

/// Where an entry read without its payload fetches it: the storage that read the entry's row
/// (SQLite's, or the PostgreSQL one of `PostgreSQLCommandStore`).
package protocol StoredPayloadSource: AnyObject {
    /// The payload of the entry row at a sequence (`position`: for messages).
    func payload(at sequence: Int64, position: Int) throws -> Data
}

/// What a stored entry needs to decode itself: the registered command types bound to the receiver,
/// where the entry is (for messages: "/path: history entry 3"), and where its payload is when it
/// was read without it.
package struct Decoding {
    let commands: BoundCommandDecoder
    /// The database file (or server and database).
    let path: String
    /// The entry's position when it was read (the storage forgets read entries when positions shift).
    let position: Int
    /// The storage that read the entry. Weak: the storage's cache holds entries, which hold this.
    weak var storage: (any StoredPayloadSource)?
    /// The entry's row.
    let sequence: Int64

    package init(
        commands: BoundCommandDecoder, path: String, position: Int, storage: any StoredPayloadSource, sequence: Int64
    ) {
        self.commands = commands
        self.path = path
        self.position = position
        self.storage = storage
        self.sequence = sequence
    }

    /// Reads the entry's payload from its row.
    ///
    /// An entry read without its payload is valid as long as its position is (within the engine
    /// operation that read it): afterwards the row may hold another entry. The storage's own
    /// cache follows this rule (it forgets entries when rows move or are removed).
    /// - Returns: The payload column of the entry's row.
    /// - Throws: ``StoreError`` when the row is gone or has no payload (a damaged file).
    func payload() throws -> Data {
        guard let storage else {
            preconditionFailure("\(path): history entry \(position) outlived its history")
        }
        return try storage.payload(at: sequence, position: position)
    }
}

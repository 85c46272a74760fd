/// The in-memory history entry: an ``UndoCommand`` existential, stored inline.
///
/// The wrapper adds no storage (same layout as `any UndoCommand`); it exists to give the
/// command the engine's ``HistoryEntry`` shape, including how a closed macro is built.
@usableFromInline
struct UndoEntry: HistoryEntry {
    @usableFromInline
    var command: any UndoCommand

    @usableFromInline
    init(_ command: any UndoCommand) {
        self.command = command
    }

    @usableFromInline var text: String { command.text }
    @usableFromInline var actionText: String { command.actionText }
    @usableFromInline var mergeID: Int? { command.mergeID }
    @usableFromInline var isObsolete: Bool { command.isObsolete }
    @usableFromInline var isSignificant: Bool { command.isSignificant }

    @usableFromInline mutating func redo() throws { try command.redo() }
    @usableFromInline mutating func undo() throws { try command.undo() }
    @usableFromInline mutating func merge(with other: UndoEntry) -> Bool { Self.merge(other.command, into: &command) }

    /// Opens the incoming command, then the existing one, and merges when the types match.
    private static func merge<Incoming: UndoCommand>(_ incoming: Incoming, into top: inout any UndoCommand) -> Bool {
        top.merge(withAnyOf: incoming)
    }

    @usableFromInline static func macro(text: String, children: [UndoEntry]) -> UndoEntry {
        UndoEntry(UndoMacro(text: text, entries: children))
    }
}

@available(*, unavailable)
extension UndoEntry: Sendable {}

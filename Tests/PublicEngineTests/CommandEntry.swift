import CommandKit

/// A ``HistoryEntry`` made of public parts: an ``UndoCommand`` existential, and ``UndoMacro`` for
/// closed macros.
struct CommandEntry: HistoryEntry {
    var command: any UndoCommand

    var text: String { command.text }
    var actionText: String { command.actionText }
    var mergeID: Int? { command.mergeID }
    var isObsolete: Bool { command.isObsolete }
    var isSignificant: Bool { command.isSignificant }

    mutating func redo() throws { try command.redo() }
    mutating func undo() throws { try command.undo() }

    mutating func merge(with other: CommandEntry) -> Bool {
        Self.merge(other.command, into: &command)
    }

    /// Opens the existing command and offers it the incoming one when the types match.
    private static func merge(_ incoming: any UndoCommand, into top: inout any UndoCommand) -> Bool {
        func open<Top: UndoCommand>(_ top: inout Top) -> Bool {
            guard let incoming = incoming as? Top else { return false }
            return top.merge(with: incoming)
        }
        return open(&top)
    }

    static func macro(text: String, children: [CommandEntry]) -> CommandEntry {
        CommandEntry(command: UndoMacro(text, children: children.map(\.command)))
    }
}

/// A command of a ``DurableHistory`` as ``DurableHistory/command(at:)`` decodes it: a registered
/// command, or a macro of them.
public enum DurableCommand<Receiver> {
    /// One command, decoded by its registered type.
    case command(any PersistentCommand<Receiver>)
    /// A macro (`beginMacro` … `endMacro`): its text and its children, in the order they redo.
    case macro(text: String, children: [DurableCommand<Receiver>])

    /// The text shown in a history list: the command's ``PersistentCommand/text``, or the macro's.
    public var text: String {
        switch self {
        case .command(let command): command.text
        case .macro(let text, _): text
        }
    }
}

extension DurableCommand {
    /// The public form of a decoded entry (its macro children decoded here).
    ///
    /// - Throws: ``StoreError`` when a child does not decode, or the entry runs on another receiver.
    package init(_ entry: DurableEntry) throws {
        switch entry.content {
        case .command(let bound):
            guard let command = bound.persistentCommand as? any PersistentCommand<Receiver> else {
                throw StoreError(.invalidCommandData, "a history entry of kind \(bound.kind) runs on another receiver")
            }
            self = .command(command)
        case .macro(let text, let children):
            self = .macro(
                text: text,
                children: try children.map { child in
                    var child = child
                    try child.decode()
                    return try DurableCommand(child)
                })
        case .stored:
            throw StoreError(.invalidCommandData, "a history entry could not be decoded")
        }
    }
}

@available(*, unavailable, message: "Commands belong to the isolation domain of their history.")
extension DurableCommand: Sendable {}

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

@available(*, unavailable, message: "Commands belong to the isolation domain of their history.")
extension DurableCommand: Sendable {}

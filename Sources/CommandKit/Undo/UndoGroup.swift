/// Several undo stacks, one of them active: one stack per open document, as Qt's `QUndoGroup`.
///
/// The group's ``undo()``, ``redo()`` and state (``canUndo``, ``undoText``, ``isClean``, …)
/// follow the ``activeStack``; its ``changes`` and ``model`` report the active stack's changes
/// and every switch of the active stack (as one ``UndoChange/Operation/activate`` event), so one
/// pair of Undo/Redo controls serves every document.
///
/// ```swift
/// let group = UndoGroup()
/// group.addStack(letter.undoStack)
/// group.addStack(invoice.undoStack)
/// group.setActiveStack(invoice.undoStack)   // the focused window's document
/// let undoButton = group.makeUndoControl()  // "Undo Add Line", enabled: follows the invoice
/// ```
///
/// The group holds its stacks weakly (a closed document's stack simply leaves it) and is owned by
/// the same isolation domain as the stacks (not `Sendable`).
public final class UndoGroup {
    private struct Member {
        weak var stack: UndoStack?
        let listener: Int
    }

    private var members: [Member] = []
    private weak var active: UndoStack?
    private var observers: HistoryObservers?

    /// Creates an empty group with no active stack.
    public init() {}

    deinit {
        for member in members { member.stack?.removeListener(member.listener) }
        observers?.finish()
    }

    /// The stacks in the group, in the order they were added.
    public var stacks: [UndoStack] { members.compactMap(\.stack) }

    /// Adds a stack (no effect if it is already in the group). It does not become active.
    public func addStack(_ stack: UndoStack) {
        members.removeAll { $0.stack == nil }
        guard !members.contains(where: { $0.stack === stack }) else { return }
        let listener = stack.addListener { [weak self, weak stack] change in
            guard let self, let stack, stack === self.active else { return }
            self.observers?.publish(change.operation, state: change.new, always: change.operation == .push)
        }
        members.append(Member(stack: stack, listener: listener))
    }

    /// Removes a stack; if it was active, the group has no active stack any more.
    public func removeStack(_ stack: UndoStack) {
        guard let position = members.firstIndex(where: { $0.stack === stack }) else { return }
        stack.removeListener(members[position].listener)
        members.remove(at: position)
        if active === stack { setActiveStack(nil) }
    }

    /// The stack undo and redo go to, or `nil`.
    public var activeStack: UndoStack? { active }

    /// Makes a stack active (adding it to the group if needed), or none with `nil`.
    ///
    /// Delivers one ``UndoChange/Operation/activate`` event when the active stack changes.
    public func setActiveStack(_ stack: UndoStack?) {
        guard stack !== active else { return }
        if let stack { addStack(stack) }
        active = stack
        observers?.publish(.activate, state: state, always: true)
    }

    // MARK: - Following the active stack

    /// Undoes on the active stack (nothing without one).
    /// - Throws: What the active stack's ``UndoStack/undo()`` throws.
    public func undo() throws { try active?.undo() }

    /// Redoes on the active stack (nothing without one).
    /// - Throws: What the active stack's ``UndoStack/redo()`` throws.
    public func redo() throws { try active?.redo() }

    /// The active stack's state, or ``UndoState/empty`` without one.
    public var state: UndoState { active?.state ?? .empty }
    /// Whether the active stack can undo.
    public var canUndo: Bool { active?.canUndo ?? false }
    /// Whether the active stack can redo.
    public var canRedo: Bool { active?.canRedo ?? false }
    /// The active stack's undo text ("" without one).
    public var undoText: String { active?.undoText ?? "" }
    /// The active stack's redo text ("" without one).
    public var redoText: String { active?.redoText ?? "" }
    /// Whether the active stack is clean (`true` without one, as in Qt).
    public var isClean: Bool { active?.isClean ?? true }

    // MARK: - Observation

    private var observation: HistoryObservers {
        if let observers { return observers }
        let created = HistoryObservers(state: state)
        observers = created
        return created
    }

    /// The changes of whichever stack is active, plus one event per switch of the active stack.
    public var changes: AsyncStream<UndoChange> {
        observation.makeStream()
    }

    /// An `@Observable` mirror of the active stack's state.
    public var model: UndoStackModel {
        observation.observableModel()
    }

    func addListener(_ handler: @escaping (UndoChange) -> Void) -> Int {
        observation.addListener(handler)
    }

    func removeListener(_ id: Int) {
        observers?.removeListener(id)
    }
}

@available(*, unavailable)
extension UndoGroup: Sendable {}

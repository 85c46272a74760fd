/// Several undo histories, one of them active: one history per open document, as Qt's `QUndoGroup`.
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
/// Any ``UndoHistory`` can be a member: in-memory ``UndoStack``s and CommandStore's durable
/// histories side by side. The group holds its histories weakly: a closed document's history simply
/// leaves it (as long as nothing else keeps it: a document that owns its stack must be held
/// `unowned` or `weak` by its commands, which the stack keeps, or the two keep each other), and if it was the active one the group announces it (one `activate` event: no
/// history is active any more), so its controls and model never show a history that is gone. The
/// group is owned by the same isolation domain as its histories (not `Sendable`).
public final class UndoGroup {
    private var members: [UndoGroupMember] = []
    private weak var active: (any UndoHistory)?
    private var observers: HistoryObservers?

    /// Creates an empty group with no active history.
    public init() {}

    deinit {
        for member in members { member.detach() }
        observers?.finish()
    }

    /// The histories in the group, in the order they were added.
    public var stacks: [any UndoHistory] { members.compactMap(\.history) }

    /// Adds a history (no effect if it is already in the group). It does not become active.
    public func addStack(_ history: some UndoHistory) {
        members.removeAll { $0.history == nil }
        guard !members.contains(where: { $0.history === history }) else { return }
        members.append(
            UndoGroupMember(
                history,
                onChange: { [weak self, weak history] change in
                    guard let self, let history, history === self.active else { return }
                    self.observers?.publish(change.operation, state: change.new, always: change.operation == .push)
                },
                onRelease: { [weak self] in self?.memberReleased() }
            ))
    }

    /// Removes a history; if it was active, the group has no active history any more.
    public func removeStack(_ history: any UndoHistory) {
        guard let position = members.firstIndex(where: { $0.history === history }) else { return }
        members[position].detach()
        members.remove(at: position)
        if active === history { setActiveStack(nil) }
    }

    /// The history undo and redo go to, or `nil`.
    public var activeStack: (any UndoHistory)? { active }

    /// Makes a history active (adding it to the group if needed), or none with `nil`.
    ///
    /// Delivers one ``UndoChange/Operation/activate`` event when the active history changes.
    public func setActiveStack(_ history: (any UndoHistory)?) {
        guard history !== active else { return }
        if let history { addStack(history) }
        active = history
        observers?.publish(.activate, state: state, always: true)
    }

    /// A member's history was deallocated: if it was the active one, none is active any more.
    private func memberReleased() {
        members.removeAll { $0.history == nil }
        // `active` is weak: it reads `nil` once the history is being deallocated.
        guard active == nil, let observers, observers.state != .empty else { return }
        observers.publish(.activate, state: .empty, always: true)
    }

    /// The active history's member entry.
    var activeMember: UndoGroupMember? {
        guard let active else { return nil }
        return members.first { $0.history === active }
    }

    // MARK: - Following the active history

    /// Undoes on the active history (nothing without one).
    /// - Throws: What the active history's ``UndoHistory/undo()`` throws.
    public func undo() throws { try active?.undo() }

    /// Redoes on the active history (nothing without one).
    /// - Throws: What the active history's ``UndoHistory/redo()`` throws.
    public func redo() throws { try active?.redo() }

    /// The active history's state, or ``UndoState/empty`` without one.
    public var state: UndoState { active?.state ?? .empty }
    /// Whether the active history can undo.
    public var canUndo: Bool { active?.canUndo ?? false }
    /// Whether the active history can redo.
    public var canRedo: Bool { active?.canRedo ?? false }
    /// The active history's undo text ("" without one).
    public var undoText: String { active?.undoText ?? "" }
    /// The active history's redo text ("" without one).
    public var redoText: String { active?.redoText ?? "" }
    /// Whether the active history is clean (`true` without one, as in Qt).
    public var isClean: Bool { active?.isClean ?? true }

    // MARK: - Observation

    private var observation: HistoryObservers {
        if let observers { return observers }
        let created = HistoryObservers(state: state)
        observers = created
        return created
    }

    /// The changes of whichever history is active, plus one event per switch of the active history
    /// (and one when the active history is deallocated); subscribed when read.
    public var changes: AsyncStream<UndoChange> {
        observation.makeStream()
    }

    /// An `@Observable` mirror of the active history's state.
    public var model: UndoStackModel {
        observation.observableModel()
    }

    /// Calls `handler` synchronously after every change the group reports (see ``changes``).
    ///
    /// - Returns: The token that removes it (``removeChangeHandler(_:)``).
    @discardableResult
    public func addChangeHandler(_ handler: @escaping (UndoChange) -> Void) -> UndoChangeHandlerToken {
        observation.addChangeHandler(handler)
    }

    /// Removes a change handler added with ``addChangeHandler(_:)``.
    public func removeChangeHandler(_ token: UndoChangeHandlerToken) {
        observers?.removeChangeHandler(token)
    }
}

@available(*, unavailable)
extension UndoGroup: Sendable {}

/// One history in a group: held weakly, with what the group's controls need of it (its concrete
/// type opened once, here), and a watch that tells the group when the history is deallocated.
final class UndoGroupMember {
    private(set) weak var history: (any UndoHistory)?
    private let token: UndoChangeHandlerToken
    /// Weak: the history's change handler holds it, so it goes when the history does.
    private weak var watch: ReleaseWatch?
    private let remove: (UndoChangeHandlerToken) -> Void
    /// The identity of the step the next undo (redo) reverts (applies).
    let undoStep: () -> AnyHashable?
    let redoStep: () -> AnyHashable?
    /// Undoes (redoes) one step, expecting the given one.
    let undo: (AnyHashable?) throws -> Void
    let redo: (AnyHashable?) throws -> Void

    init<History: UndoHistory>(
        _ history: History,
        onChange: @escaping (UndoChange) -> Void,
        onRelease: @escaping () -> Void
    ) {
        self.history = history
        let watch = ReleaseWatch(onRelease)
        self.watch = watch
        // The handler holds the watch: the history's observers release it when the history goes.
        token = history.addChangeHandler { change in
            _ = watch
            onChange(change)
        }
        remove = { [weak history] in history?.removeChangeHandler($0) }
        undoStep = { [weak history] in history?.undoRecord.map { AnyHashable($0.id) } }
        redoStep = { [weak history] in history?.redoRecord.map { AnyHashable($0.id) } }
        undo = { [weak history] shown in
            try history?.undo(steps: 1, expecting: shown.flatMap { $0.base as? History.Record.ID })
        }
        redo = { [weak history] shown in
            try history?.redo(steps: 1, expecting: shown.flatMap { $0.base as? History.Record.ID })
        }
    }

    /// Leaves the history (the group removes it or goes away): no release is reported any more.
    func detach() {
        watch?.cancel()
        remove(token)
    }
}

@available(*, unavailable)
extension UndoGroupMember: Sendable {}

/// Calls its action when it is deallocated, unless cancelled first.
private final class ReleaseWatch {
    private var action: (() -> Void)?

    init(_ action: @escaping () -> Void) {
        self.action = action
    }

    func cancel() {
        action = nil
    }

    deinit {
        action?()
    }
}

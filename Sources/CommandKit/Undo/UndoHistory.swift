/// An undo history: the one interface of ``UndoStack`` and CommandStore's `DurableHistory`, so
/// that Edit-menu code, controls and groups are written once for both.
///
/// Both run the same engine (``HistoryEngine``), so every requirement means the same on both: a
/// step is a significant entry and the insignificant entries after it, a macro disables undo and
/// redo until its outermost `endMacro()`, and so on (see ``UndoStack`` for the rules). Where the
/// durable history must do I/O, the requirement throws; an ``UndoStack`` satisfies it without
/// throwing when nothing can fail (`beginMacro(_:)`, `setClean()`, …), so code that knows it holds
/// a stack needs no `try` there.
///
/// ```swift
/// func installEditMenu(for history: some UndoHistory) -> [ActionControl] {
///     [history.makeUndoControl { show($0) }, history.makeRedoControl { show($0) }]
/// }
/// ```
///
/// Generic code reads the state (``state``, ``canUndo``, ``undoText``, …), moves through the
/// history (``undo()``, ``undo(steps:expecting:)``, ``setIndex(_:)``), builds macros, lists the
/// entries (``text(at:)``, ``command(at:)``) and observes (``changes``, ``model``,
/// ``addChangeHandler(_:)``). Pushing is not a requirement: each history takes its own kind of
/// command (an ``UndoCommand``; a `PersistentCommand` bound to a receiver).
///
/// ## Expectations
/// ``undo(steps:expecting:)`` and ``redo(steps:expecting:)`` take the identity of the step the
/// caller showed (``undoRecord``, ``redoRecord``) and refuse, changing nothing, when another step
/// is next. For a durable history shared by several processes this is what keeps a button from
/// undoing another process's step; for an ``UndoStack``, owned by one isolation domain whose
/// controls update synchronously after each change, it catches only a caller's own stale value,
/// at the cost of nothing on the hot path (``UndoRecord/ID``). The controls pass it on both.
///
/// ## Refusals
/// A history refuses a call with an error that carries an ``UndoError/Code``
/// (``UndoHistoryError``): ``UndoError`` from a stack, `StoreError` from a durable history, each
/// with its ``UndoHistoryError/undoErrorCode``. Generic code matches the code, the same on both:
///
/// ```swift
/// do {
///     try history.undo(steps: 1, expecting: shown)
/// } catch UndoError.Code.historyChanged {
///     // refreshed: show the step that is next now
/// }
/// ```
///
/// ## Isolation
/// A history belongs to one isolation domain (none is `Sendable`): its change handlers, model and
/// controls live there too; ``changes`` carries `Sendable` events to other domains.
public protocol UndoHistory: AnyObject {
    /// What ``command(at:)`` returns: an ``UndoCommand`` for a stack; a decoded command for a
    /// durable history.
    associatedtype Command
    /// What the history reports about a step: its identity and texts (``UndoRecord`` for a stack).
    associatedtype Record: Identifiable

    // MARK: State

    /// A snapshot of the whole observable state.
    var state: UndoState { get }
    /// The number of entries done; the next redo applies the entry at this index.
    var index: Int { get }
    /// The number of entries (a closed macro counts once; an open outermost macro counts too, as in Qt).
    var count: Int { get }
    /// The index marked clean, or `nil` when the clean state can no longer be reached.
    var cleanIndex: Int? { get }
    /// Whether the history is at its clean index and no macro is open.
    var isClean: Bool { get }
    /// Whether there is a step to undo (and no macro is open).
    var canUndo: Bool { get }
    /// Whether there is a step to redo (and no macro is open).
    var canRedo: Bool { get }
    /// The action text of the step the next undo reverts ("" when none).
    var undoText: String { get }
    /// The action text of the step the next redo applies ("" when none).
    var redoText: String { get }
    /// How many macros are open.
    var macroDepth: Int { get }
    /// The maximum number of entries kept, or 0 for no limit (see ``setUndoLimit(_:)``).
    var undoLimit: Int { get }
    /// The step the next undo reverts (its first entry), or `nil` when there is none.
    var undoRecord: Record? { get }
    /// The step the next redo applies, or `nil` when there is none.
    var redoRecord: Record? { get }

    // MARK: Moving through the history

    /// Undoes one step; does nothing when there is none or while a macro is open.
    func undo() throws
    /// Redoes one step; does nothing when there is none or while a macro is open.
    func redo() throws
    /// Undoes exactly `steps` steps, all or none.
    ///
    /// - Parameters:
    ///   - steps: How many steps, at least 1.
    ///   - expected: The identity of the step the caller expects to undo first (the ``undoRecord``
    ///     it showed), or `nil` for the last step, whatever it is.
    /// - Returns: The records of the undone steps, most recent first.
    /// - Throws: An ``UndoHistoryError`` with code ``UndoError/Code/historyChanged`` when the next
    ///   step is not `expected`, ``UndoError/Code/nothingToUndo`` when fewer than `steps` steps
    ///   can be undone, ``UndoError/Code/macroOpen`` while a macro is open,
    ///   ``UndoError/Code/reentrantCall`` from inside a command the history is running; or what a
    ///   command throws. In every case no step is undone.
    @discardableResult
    func undo(steps: Int, expecting expected: Record.ID?) throws -> [Record]
    /// Redoes exactly `steps` steps, all or none; the counterpart of ``undo(steps:expecting:)``.
    ///
    /// - Parameters:
    ///   - steps: How many steps, at least 1.
    ///   - expected: The step the caller expects to redo first (the ``redoRecord`` it showed), or `nil`.
    /// - Returns: The records of the redone steps, oldest first.
    /// - Throws: As ``undo(steps:expecting:)``; no step is redone then.
    @discardableResult
    func redo(steps: Int, expecting expected: Record.ID?) throws -> [Record]
    /// Undoes or redoes entry by entry to `index` (clamped to `0...count`); ignored while a macro is open.
    func setIndex(_ index: Int) throws

    // MARK: Macros

    /// Opens a macro: what is pushed until the matching ``endMacro()`` becomes one step.
    func beginMacro(_ text: String) throws
    /// Closes the innermost macro; closing the outermost one records it as one step.
    func endMacro() throws

    // MARK: Clean state, limit, clearing

    /// Marks the current index clean (ignored while a macro is open).
    func setClean() throws
    /// Forgets the clean index.
    func resetClean() throws
    /// Sets the maximum number of entries (0: no limit); lowering it removes the oldest done entries.
    func setUndoLimit(_ limit: Int) throws
    /// Removes every entry without running it; the empty history is clean.
    func clear() throws

    // MARK: Entries

    /// The text of the entry at a position, `0 ..< count`, as shown in a history list.
    func text(at position: Int) throws -> String
    /// The command at a position, `0 ..< count` (a macro for a closed or open macro).
    func command(at position: Int) throws -> Command

    // MARK: The tree

    /// Whether the history keeps branches: a push after an undo keeps the redo steps as a branch
    /// (<doc:TimeTravel>).
    var keepsBranches: Bool { get }
    /// The current state: the node of the last done step, or ``HistoryNode/ID/root``.
    var currentNode: HistoryNode.ID { get }
    /// Every node of the tree, oldest first (for a linear history, the entries).
    func nodes() throws -> [HistoryNode]
    /// Moves to any state of the tree as one operation, all or nothing.
    ///
    /// - Parameters:
    ///   - node: The state to reach.
    ///   - expected: The current state the caller showed (``currentNode``), or `nil`: refused,
    ///     changing nothing, when another state is current.
    /// - Returns: The steps undone and redone.
    /// - Throws: A "history changed" error, ``UndoError/Code/noSuchStep``, a ``HistoryJumpError``
    ///   naming the step whose command threw (nothing stays done), and the errors of
    ///   ``undo(steps:expecting:)``.
    @discardableResult
    func jump(to node: HistoryNode.ID, expecting expected: HistoryNode.ID?) throws -> HistoryJump

    // MARK: Observation

    /// The changes from now on, as an asynchronous sequence: subscribed when the property is read,
    /// so take it before starting the task that iterates it.
    var changes: AsyncStream<UndoChange> { get }
    /// An `@Observable` mirror of the state.
    var model: UndoStackModel { get }
    /// Calls `handler` synchronously, on the history's isolation domain, after every change.
    ///
    /// - Returns: The token that removes it (``removeChangeHandler(_:)``).
    @discardableResult
    func addChangeHandler(_ handler: @escaping (UndoChange) -> Void) -> UndoChangeHandlerToken
    /// Removes a change handler added with ``addChangeHandler(_:)``.
    func removeChangeHandler(_ token: UndoChangeHandlerToken)
}

extension UndoHistory {
    /// Undoes exactly `steps` steps, all or none, whichever step is last.
    ///
    /// - Parameter steps: How many steps, at least 1.
    /// - Returns: The records of the undone steps, most recent first.
    /// - Throws: What ``undo(steps:expecting:)`` throws.
    @discardableResult
    public func undo(steps: Int) throws -> [Record] {
        try undo(steps: steps, expecting: nil)
    }

    /// Redoes exactly `steps` steps, all or none, whichever step is next.
    ///
    /// - Parameter steps: How many steps, at least 1.
    /// - Returns: The records of the redone steps, oldest first.
    /// - Throws: What ``redo(steps:expecting:)`` throws.
    @discardableResult
    public func redo(steps: Int) throws -> [Record] {
        try redo(steps: steps, expecting: nil)
    }
}

/// The tree of a linear history, for conformers written before branches (a history that does not
/// keep them): its entries are the nodes, numbered by position (entry `p` is node `p + 1`).
extension UndoHistory {
    /// `false`: a linear history.
    public var keepsBranches: Bool { false }

    /// The node of the last done entry: ``index`` as a number.
    public var currentNode: HistoryNode.ID { HistoryNode.ID(index) }

    /// The entries as nodes, without times.
    public func nodes() throws -> [HistoryNode] {
        try (0..<count).map { position in
            let text = try text(at: position)
            return HistoryNode(
                id: HistoryNode.ID(position + 1), parent: HistoryNode.ID(position), text: text, actionText: text,
                recordedAt: nil, isOnPath: true)
        }
    }

    /// Moves to the node's position with ``setIndex(_:)``, all or nothing: when a step throws,
    /// the steps already run are run back with ``setIndex(_:)`` and the error is a
    /// ``HistoryJumpError`` naming the step where the history stopped.
    @discardableResult
    public func jump(to node: HistoryNode.ID, expecting expected: HistoryNode.ID?) throws -> HistoryJump {
        if let expected, expected != currentNode { throw UndoError(.historyChanged) }
        guard (0...count).contains(node.rawValue) else { throw UndoError(.noSuchStep) }
        let start = index
        let texts = try (min(start, node.rawValue)..<max(start, node.rawValue)).map { try text(at: $0) }
        do {
            try setIndex(node.rawValue)
        } catch {
            // setIndex stops before the step that threw: the next one in the jump's direction.
            let undoing = node.rawValue < start
            let failed = undoing ? index - 1 : index
            guard (0..<count).contains(failed) else { throw error }
            let jumpError = HistoryJumpError(
                step: HistoryNode.ID(failed + 1), text: (try? text(at: failed)) ?? "", wasUndoing: undoing,
                error: error)
            do {
                try setIndex(start)
            } catch let rollback {
                throw UndoError(.rollbackFailed, underlying: jumpError, rollback: rollback)
            }
            throw jumpError
        }
        var jump = HistoryJump()
        let steps = texts.enumerated().map { offset, text in
            HistoryJump.Step(id: HistoryNode.ID(min(start, node.rawValue) + offset + 1), text: text)
        }
        if node.rawValue < start { jump.undone = steps.reversed() } else { jump.redone = steps }
        return jump
    }
}

/// An undo/redo history of commands, with Qt `QUndoStack`'s behaviour, on every platform.
///
/// ``push(_:)`` executes a command and records it; ``undo()`` and ``redo()`` walk the history;
/// ``setIndex(_:)`` jumps anywhere. On top of that: merging of consecutive commands
/// (``UndoCommand/mergeID``), nested macros (``beginMacro(_:)``), a clean state for "saved"
/// (``setClean()``), an ``undoLimit``, obsolete commands, and Swing's insignificant commands.
///
/// ```swift
/// let stack = UndoStack()
/// try stack.push(DeleteAlbum(library: library, at: 2))
/// stack.undoText          // "Delete Album"
/// try stack.undo()        // the album is back
/// try stack.redo()        // and gone again
/// ```
///
/// ## Rules
/// - **Push** runs the command's `redo()`, then discards the redo tail (a branching stack,
///   `keepsBranches`, keeps it as a branch instead; the clean state is lost if it was in the tail), then either merges the command into the one below the index
///   (same type and same non-`nil` merge ID, and the index is not the clean index), drops it
///   (it is obsolete), or records it and trims the oldest entries beyond ``undoLimit``.
/// - **Undo/redo** move by one step. A step is a significant command plus the insignificant
///   commands pushed right after it; insignificant commands at the very bottom form a step of
///   their own. A command that is obsolete after it ran is removed (the clean state is lost if
///   it was above it).
/// - **Macros** (``beginMacro(_:)``/``endMacro()``) nest; the outermost one becomes one entry,
///   counted once against the limit. While a macro is open the stack is disabled, as in Qt:
///   undo, redo, jump and ``setClean()`` do nothing, ``canUndo``/``canRedo``/``isClean`` are
///   `false` and the texts are empty. Commands pushed inside a macro merge with the macro's
///   previous child, even in the clean state.
/// - **Clean state**: ``setClean()`` marks the index; ``isClean`` is true whenever the index
///   returns there. Trimming slides ``cleanIndex`` down, and loses it if the clean entry went.
///
/// ## Errors
/// Commands may throw. The stack stays consistent and the error reaches you:
/// - a push whose `redo()` throws records nothing and leaves the history untouched;
/// - an undo, redo or jump stops at the failing command: every entry below ``index`` is done,
///   every entry at or above it is undone, and the failing command stays in place (for an
///   undo, the index stays just above it; for a redo, just below it). Retrying is possible.
/// - a macro is atomic: see ``UndoMacro``.
///
/// ## Isolation
/// `UndoStack` is not `Sendable`: it is owned by one isolation domain (typically the main
/// actor, next to the document it edits) and used from there only. Observe it from elsewhere
/// through ``changes``, whose events are `Sendable`.
///
/// ## Calls from inside a running operation
/// A command (or a registered handler) that calls back into the stack running it is refused,
/// and the operation running goes on undisturbed: ``push(_:)``, ``undo()``, ``redo()``, the
/// step-counted forms, ``setIndex(_:)``, ``endMacro()`` and the jumps throw
/// ``UndoError/Code/reentrantCall`` and change nothing; the operations that cannot throw
/// (``record(_:)``, ``beginMacro(_:)``, ``setClean()``, ``resetClean()``, ``clear()``,
/// ``setUndoLimit(_:)``) do nothing. The exception is an ``UndoRegistry`` on the same stack: what
/// a pushed command registers joins that command's step (see ``UndoRegistry``). Change handlers
/// (``addChangeHandler(_:)``, controls, the model's observers) run after the operation and may
/// use the stack freely.
///
/// What still stops the program, and why each is not an error: a position outside `0..<count`
/// passed to ``text(at:)`` or ``command(at:)`` (as an array's subscript: the caller holds the
/// count, and the stack's `text(at:)` cannot throw), and a step count below 1 passed to
/// ``undo(steps:expecting:)`` or ``redo(steps:expecting:)`` (a contract on the argument, checked
/// the same way by `DurableHistory`). Nothing a command or handler does at run time traps.
///
/// - Complexity: push, undo and redo are amortized O(1) for single-entry steps (plus the redo
///   tail a push discards); nothing is allocated per operation beyond what the command
///   allocates itself (commands of up to three words are stored inline), and no state is
///   computed for observers until someone observes.
public final class UndoStack: UndoHistory {
    /// What ``command(at:)`` returns: the command as the stack keeps it.
    public typealias Command = any UndoCommand

    // Dynamic exclusivity checks are off for these properties (they cost a third of a
    // push). Overlapping accesses cannot happen: every mutating entry point goes through
    // `perform` (or `push(entry:)`), which refuses re-entrance (a command calling back into the
    // stack running it) before touching anything, and the stack is confined to one isolation
    // domain (not `Sendable`).

    @exclusivity(unchecked) var engine: HistoryEngine<MemoryHistoryStorage<UndoEntry>>

    /// Present once someone observes (events, model, group, controls); `nil` keeps the hot path bare.
    @exclusivity(unchecked) var observers: HistoryObservers?

    /// What runs now, to refuse re-entrant calls from commands (and to let a registry join a push).
    @exclusivity(unchecked) var performing = Performing.none

    /// The registry whose registrations joined the command being pushed: they are recorded after
    /// it, in its step, when the push succeeds. Held only until then.
    @exclusivity(unchecked) var joiningRegistry: UndoRegistry?

    /// What the stack is doing.
    enum Performing: UInt8 {
        case none, push, other
    }

    /// Whether an operation is running (a command is running inside it).
    var isPerforming: Bool { performing != .none }

    /// Creates an empty, clean stack.
    /// - Parameters:
    ///   - undoLimit: The maximum number of entries kept, or 0 (the default) for no limit. In a
    ///     branching stack it counts every node of the tree.
    ///   - keepsBranches: `true` keeps the redo steps as a branch when a command is pushed after an
    ///     undo, instead of discarding them. `false` (the default) is Qt's
    ///     linear stack, at the same cost as before branches existed.
    public init(undoLimit: Int = 0, keepsBranches: Bool = false) {
        engine = HistoryEngine(storage: MemoryHistoryStorage(keepsBranches: keepsBranches), undoLimit: undoLimit)
    }

    deinit {
        observers?.finish()
    }

    // MARK: - State

    /// The number of entries (a closed macro counts once).
    ///
    /// An open outermost macro counts from ``beginMacro(_:)``, as in Qt: it is the entry at
    /// `count - 1` (``text(at:)`` gives its text) although it is recorded only at its ``endMacro()``.
    public var count: Int { engine.count }

    /// The number of entries currently done; the next ``redo()`` applies the entry at this index.
    public var index: Int { engine.index }

    /// Whether there is a step to undo (and no macro is open).
    public var canUndo: Bool { engine.canUndo }

    /// Whether there is a step to redo (and no macro is open).
    public var canRedo: Bool { engine.canRedo }

    /// The action text of the step ``undo()`` would revert, or "" when there is none.
    public var undoText: String { engine.undoText() }

    /// The action text of the step ``redo()`` would apply, or "" when there is none.
    public var redoText: String { engine.redoText() }

    /// Whether the stack is at its clean index and no macro is open.
    public var isClean: Bool { engine.isClean }

    /// The index marked by ``setClean()``, or `nil` when the clean state cannot be reached.
    ///
    /// A new stack, and a cleared one, is clean at 0.
    public var cleanIndex: Int? { engine.cleanIndex }

    /// Whether a macro is open (the stack is disabled until the outermost one ends).
    public var isInMacro: Bool { engine.isInMacro }

    /// How many macros are open.
    public var macroDepth: Int { engine.macroDepth }

    /// A snapshot of the whole observable state.
    public var state: UndoState { engine.state() }

    /// The command at a position (`0 ..< count`); a closed macro is an ``UndoMacro``, and so is
    /// the open outermost macro (at `count - 1`, with the children pushed so far).
    ///
    /// The stack keeps its own copy: changing the returned value changes nothing in the stack.
    /// - Complexity: O(1) (the open macro: O(children)).
    public func command(at position: Int) -> any UndoCommand {
        if position == engine.storage.count, let open = engine.openMacroEntry() { return open.command }
        return engine.entry(at: position).command
    }

    /// The text of the entry at a position (`0 ..< count`), as shown in a history list.
    /// - Complexity: O(1).
    public func text(at position: Int) -> String {
        engine.text(at: position)
    }

    /// The maximum number of entries kept, or 0 for no limit; change it with ``setUndoLimit(_:)``.
    public var undoLimit: Int {
        get { engine.undoLimit }
        @available(*, deprecated, renamed: "setUndoLimit(_:)", message: "one spelling for every UndoHistory")
        set { setUndoLimit(newValue) }
    }

    /// Sets the maximum number of entries kept (0: no limit).
    ///
    /// Unlike Qt, the limit can be changed at any time: lowering it removes the oldest done
    /// entries at once (``cleanIndex`` slides down, or is lost if its entry went). A redo tail
    /// above the limit is kept until the next push discards it.
    /// Called from inside a command this stack is running, it does nothing.
    /// - Parameter limit: The new limit; negative values mean 0.
    public func setUndoLimit(_ limit: Int) {
        performUnlessRunning(.setUndoLimit) { engine.setUndoLimit(limit) }
    }

    // MARK: - Records

    /// The step ``undo()`` would revert (its first entry), or `nil` when there is none.
    ///
    /// Pass its ``UndoRecord/id`` to ``undo(steps:expecting:)`` to undo that step only.
    /// - Complexity: O(k) for a step of k entries.
    public var undoRecord: UndoRecord? {
        guard engine.canUndo else { return nil }
        return record(at: engine.stepStart(below: engine.index))
    }

    /// The step ``redo()`` would apply, or `nil` when there is none.
    public var redoRecord: UndoRecord? {
        engine.canRedo ? record(at: engine.index) : nil
    }

    /// The record of the stored entry at a position.
    func record(at position: Int) -> UndoRecord {
        let storage = engine.storage
        let id = UndoRecord.ID(position: storage.trimmed + position, generation: storage.generation)
        return storage.readEntry(at: position) { UndoRecord(id: id, text: $0.text, actionText: $0.actionText) }
    }

    // MARK: - Push, undo, redo

    /// Executes a command and records it (or merges it into the previous one).
    ///
    /// - Parameter command: The command; its `redo()` runs now.
    /// - Throws: The command's error; then nothing is recorded and the history is untouched.
    ///   ``UndoError/Code/reentrantCall`` when called from inside a command this stack is running.
    /// - Complexity: Amortized O(1), plus the number of undone entries it discards.
    @inlinable
    public func push(_ command: some UndoCommand) throws {
        // Inlinable so the caller's module wraps its concrete command in the existential
        // (no value-witness calls); the rest of push is not inlined.
        try push(entry: UndoEntry(command))
    }

    /// `perform(.push)` written out: a closure could not consume the entry.
    @usableFromInline
    func push(entry: consuming UndoEntry) throws {
        // Before anything is set or deferred: the running operation's state must stay its own.
        guard performing == .none else { throw UndoError(.reentrantCall) }
        performing = .push
        let always = !engine.isInMacro
        var succeeded = false
        defer {
            performing = .none
            if let observers {
                observers.publish(.push, state: engine.state(), always: always && succeeded)
            }
        }
        do {
            try engine.push(entry)
        } catch {
            // The command failed: what it registered goes with it.
            if let registry = joiningRegistry { recordJoined(from: registry, keep: false) }
            throw error
        }
        if let registry = joiningRegistry { recordJoined(from: registry, keep: true) }
        succeeded = true
    }

    /// Records what a registry registered while the pushed command ran, as an insignificant entry:
    /// it undoes (first) and redoes (last) with that command's step.
    private func recordJoined(from registry: UndoRegistry, keep: Bool) {
        joiningRegistry = nil
        let joined = registry.takeJoined()
        if keep { try? engine.push(UndoEntry(joined), execute: false) }
    }

    /// Records a command whose change has already been made, without executing it.
    ///
    /// The rules of ``push(_:)`` apply (truncation, merge, limit, macros); only the first
    /// `redo()` is skipped. This is Swing's `addEdit` and the model of registration-style undo.
    /// Called from inside a command this stack is running, it records nothing.
    /// - Complexity: Amortized O(1), plus the number of undone entries it discards.
    public func record(_ command: some UndoCommand) {
        // Cannot throw: no command runs and the memory storage never fails.
        performUnlessRunning(.push, always: !engine.isInMacro) { try? engine.push(UndoEntry(command), execute: false) }
    }

    /// Undoes one step; does nothing when there is none or while a macro is open.
    ///
    /// - Throws: The failing command's error; the index stays just above it.
    ///   ``UndoError/Code/reentrantCall`` when called from inside a command or handler this stack
    ///   is running (an undo handler calling `undo()`): nothing is done.
    /// - Complexity: O(k) for a step of k entries (1 without insignificant commands).
    public func undo() throws {
        try perform(.undo) { try engine.undo() }
    }

    /// Undoes exactly `steps` steps, all or none.
    ///
    /// The stack has no transaction to roll back: when a command throws part of the way, the steps
    /// already undone by this call are redone before the error is rethrown, as a macro reverts its
    /// children (``UndoError/Code/rollbackFailed`` if that fails too). Delivers one `undo` event.
    ///
    /// ```swift
    /// let shown = stack.undoRecord                          // what the Undo button shows
    /// try stack.undo(steps: 1, expecting: shown?.id)        // that step, or nothing
    /// ```
    /// - Parameters:
    ///   - steps: How many steps, at least 1.
    ///   - expected: The step the caller expects to undo first (an ``undoRecord``'s ID), or `nil`.
    /// - Returns: The records of the undone steps, most recent first, read before they ran.
    /// - Throws: ``UndoError/Code/historyChanged`` when the step on top is not `expected`,
    ///   ``UndoError/Code/nothingToUndo`` when fewer than `steps` steps can be undone,
    ///   ``UndoError/Code/macroOpen`` while a macro is open, ``UndoError/Code/reentrantCall`` from
    ///   inside a command this stack is running, or what a command throws. In every case no step
    ///   stays undone.
    /// - Complexity: O(k) for the k entries of the steps.
    @discardableResult
    public func undo(steps: Int, expecting expected: UndoRecord.ID? = nil) throws -> [UndoRecord] {
        precondition(steps >= 1, "undo(steps:) needs at least one step")
        return try perform(.undo) {
            guard !engine.isInMacro else { throw UndoError(.macroOpen) }
            if let expected, expected != undoRecord?.id { throw UndoError(.historyChanged) }
            var records: [UndoRecord] = []
            var end = engine.index
            while records.count < steps, end > 0 {
                end = engine.stepStart(below: end)
                records.append(record(at: end))
            }
            try engine.undo(steps: steps)
            return records
        }
    }

    /// Redoes exactly `steps` steps, all or none; the counterpart of ``undo(steps:expecting:)``.
    ///
    /// - Parameters:
    ///   - steps: How many steps, at least 1.
    ///   - expected: The step the caller expects to redo first (a ``redoRecord``'s ID), or `nil`.
    /// - Returns: The records of the redone steps, oldest first, read before they ran.
    /// - Throws: ``UndoError/Code/historyChanged``, ``UndoError/Code/nothingToRedo``,
    ///   ``UndoError/Code/macroOpen``, ``UndoError/Code/reentrantCall``, or what a command throws;
    ///   no step stays redone then.
    /// - Complexity: O(k) for the k entries of the steps.
    @discardableResult
    public func redo(steps: Int, expecting expected: UndoRecord.ID? = nil) throws -> [UndoRecord] {
        precondition(steps >= 1, "redo(steps:) needs at least one step")
        return try perform(.redo) {
            guard !engine.isInMacro else { throw UndoError(.macroOpen) }
            if let expected, expected != redoRecord?.id { throw UndoError(.historyChanged) }
            var records: [UndoRecord] = []
            var start = engine.index
            while records.count < steps, start < engine.storage.count {
                records.append(record(at: start))
                start = engine.stepEnd(above: start)
            }
            try engine.redo(steps: steps)
            return records
        }
    }

    /// Redoes one step; does nothing when there is none or while a macro is open.
    ///
    /// - Throws: The failing command's error; the index stays just below it.
    ///   ``UndoError/Code/reentrantCall`` when called from inside a command or handler this stack
    ///   is running: nothing is done.
    /// - Complexity: O(k) for a step of k entries (1 without insignificant commands).
    public func redo() throws {
        try perform(.redo) { try engine.redo() }
    }

    /// Undoes or redoes entry by entry until the index is `target` (clamped to `0...count`).
    ///
    /// Jumps are exact (significance does not apply) and deliver one change event. Obsolete
    /// commands met on the way are removed. Ignored while a macro is open.
    /// - Throws: The failing command's error; the index stays next to it.
    ///   ``UndoError/Code/reentrantCall`` from inside a command this stack is running.
    /// - Complexity: O(|target − index|).
    public func setIndex(_ target: Int) throws {
        try perform(.jump) { try engine.setIndex(target) }
    }

    // MARK: - Macros

    /// Opens a macro: the commands pushed until the matching ``endMacro()`` become one step.
    ///
    /// Macros nest; only the outermost becomes an entry. Opening the outermost macro discards
    /// the redo tail. Until it ends, the stack is disabled (see the type's rules).
    /// While it is open, ``count`` includes it (as Qt's does) and ``text(at:)`` gives its text.
    /// Called from inside a command this stack is running, it opens nothing.
    /// - Parameter text: The macro's text and action text.
    public func beginMacro(_ text: String) {
        performUnlessRunning(.beginMacro) { engine.beginMacro(text: text) }
    }

    /// Closes the innermost open macro; closing the outermost one records it as one step.
    ///
    /// An empty macro is recorded as an empty step, as in Qt.
    /// - Throws: ``UndoError/Code/unbalancedGrouping`` when no macro is open,
    ///   ``UndoError/Code/reentrantCall`` from inside a command this stack is running.
    public func endMacro() throws {
        let closed = try perform(.endMacro) { engine.endMacro() }
        if !closed { throw UndoError(.unbalancedGrouping) }
    }

    // MARK: - Clean state, clear

    /// Marks the current index as clean (typically when the document is saved).
    ///
    /// Ignored while a macro is open, and from inside a command this stack is running.
    public func setClean() {
        performUnlessRunning(.setClean) { engine.setClean() }
    }

    /// Forgets the clean index: no state is clean until ``setClean()`` is called again.
    ///
    /// Ignored from inside a command this stack is running.
    public func resetClean() {
        performUnlessRunning(.resetClean) { engine.resetClean() }
    }

    /// Removes every entry and open macro without undoing anything; the empty stack is clean.
    ///
    /// Ignored from inside a command this stack is running (the operation running still needs
    /// its entries).
    public func clear() {
        performUnlessRunning(.clear) { engine.clear() }
    }

    // MARK: - Internal editing

    /// Lets `body` edit every command (registration-style removal), removing the commands that
    /// are obsolete afterwards. Delivers one `.edit` event.
    func editAllCommands(_ body: (inout any UndoCommand) -> Void) {
        performUnlessRunning(.edit) { try? engine.editAllEntries { body(&$0.command) } }
    }

    /// Edits the command at a position (`0 ..< count`). Delivers one `.edit` event if the state changed.
    func editCommand(at position: Int, _ body: (inout any UndoCommand) -> Void) {
        performUnlessRunning(.edit) { engine.storage.modifyEntry(at: position) { body(&$0.command) } }
    }

    /// Closes the innermost macro, dropping it when it has no children (registration groups).
    @discardableResult
    func endMacro(discardingEmpty: Bool) -> Bool {
        performUnlessRunning(.endMacro) { engine.endMacro(discardingEmpty: discardingEmpty) } ?? false
    }

    /// Renames the innermost open macro.
    func setMacroText(_ text: String) {
        performUnlessRunning(.edit) { engine.setMacroText(text) }
    }
}

@available(*, unavailable)
extension UndoStack: Sendable {}

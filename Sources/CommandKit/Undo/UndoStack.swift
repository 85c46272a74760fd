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
/// - **Push** runs the command's `redo()`, then discards the redo tail (the clean state is lost
///   if it was in the tail), then either merges the command into the one below the index
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
/// - Important: A command must not call back into the stack that is running it (pushing,
///   undoing, … from inside its `redo()` or `undo()`): the stack stops the program with a
///   precondition failure rather than corrupt its history. Change handlers (listeners, controls,
///   the model's observers) run after the operation and may use the stack freely.
///
/// - Complexity: push, undo and redo are amortized O(1) for single-entry steps (plus the redo
///   tail a push discards); nothing is allocated per operation beyond what the command
///   allocates itself (commands of up to three words are stored inline), and no state is
///   computed for observers until someone observes.
public final class UndoStack {
    // Dynamic exclusivity checks are off for these three properties (they cost a third of a
    // push). Overlapping accesses cannot happen: every mutating entry point goes through
    // `perform`, which traps on re-entrance (a command calling back into the stack running
    // it), and the stack is confined to one isolation domain (not `Sendable`).

    @exclusivity(unchecked) var engine: HistoryEngine<MemoryHistoryStorage<UndoEntry>>

    /// Present once someone observes (events, model, group, controls); `nil` keeps the hot path bare.
    @exclusivity(unchecked) var observers: HistoryObservers?

    /// Set while an operation runs, to refuse re-entrant calls from commands.
    @exclusivity(unchecked) var isPerforming = false

    /// Creates an empty, clean stack.
    /// - Parameter undoLimit: The maximum number of entries kept, or 0 (the default) for no limit.
    public init(undoLimit: Int = 0) {
        engine = HistoryEngine(storage: MemoryHistoryStorage(), undoLimit: undoLimit)
    }

    deinit {
        observers?.finish()
    }

    // MARK: - State

    /// The number of entries (a closed macro counts once).
    ///
    /// An open macro is not counted until its outermost `endMacro()` (Qt counts it from
    /// `beginMacro`); its children live outside the history until then.
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

    /// The command at a position (`0 ..< count`); a closed macro is an ``UndoMacro``.
    ///
    /// The stack keeps its own copy: changing the returned value changes nothing in the stack.
    public func command(at position: Int) -> any UndoCommand {
        engine.entry(at: position).command
    }

    /// The text of the entry at a position (`0 ..< count`), as shown in a history list.
    public func text(at position: Int) -> String {
        engine.entry(at: position).text
    }

    /// The maximum number of entries kept, or 0 for no limit.
    ///
    /// Unlike Qt, the limit can be changed at any time: lowering it removes the oldest done
    /// entries at once (``cleanIndex`` slides down, or is lost if its entry went). A redo tail
    /// above the limit is kept until the next push discards it.
    public var undoLimit: Int {
        get { engine.undoLimit }
        set { perform(.setUndoLimit) { engine.setUndoLimit(newValue) } }
    }

    // MARK: - Push, undo, redo

    /// Executes a command and records it (or merges it into the previous one).
    ///
    /// - Parameter command: The command; its `redo()` runs now.
    /// - Throws: The command's error; then nothing is recorded and the history is untouched.
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
        precondition(!isPerforming, "UndoStack: a command called back into the stack that is running it")
        isPerforming = true
        let always = !engine.isInMacro
        var succeeded = false
        defer {
            isPerforming = false
            if let observers {
                observers.publish(.push, state: engine.state(), always: always && succeeded)
            }
        }
        try engine.push(entry)
        succeeded = true
    }

    /// Records a command whose change has already been made, without executing it.
    ///
    /// The rules of ``push(_:)`` apply (truncation, merge, limit, macros); only the first
    /// `redo()` is skipped. This is Swing's `addEdit` and the model of registration-style undo.
    /// - Complexity: Amortized O(1), plus the number of undone entries it discards.
    public func record(_ command: some UndoCommand) {
        // Cannot throw: no command runs and the memory storage never fails.
        perform(.push, always: !engine.isInMacro) { try? engine.push(UndoEntry(command), execute: false) }
    }

    /// Undoes one step; does nothing when there is none or while a macro is open.
    ///
    /// - Throws: The failing command's error; the index stays just above it.
    /// - Complexity: O(k) for a step of k entries (1 without insignificant commands).
    public func undo() throws {
        try perform(.undo) { try engine.undo() }
    }

    /// Redoes one step; does nothing when there is none or while a macro is open.
    ///
    /// - Throws: The failing command's error; the index stays just below it.
    /// - Complexity: O(k) for a step of k entries (1 without insignificant commands).
    public func redo() throws {
        try perform(.redo) { try engine.redo() }
    }

    /// Undoes or redoes entry by entry until the index is `target` (clamped to `0...count`).
    ///
    /// Jumps are exact (significance does not apply) and deliver one change event. Obsolete
    /// commands met on the way are removed. Ignored while a macro is open.
    /// - Throws: The failing command's error; the index stays next to it.
    /// - Complexity: O(|target − index|).
    public func setIndex(_ target: Int) throws {
        try perform(.jump) { try engine.setIndex(target) }
    }

    // MARK: - Macros

    /// Opens a macro: the commands pushed until the matching ``endMacro()`` become one step.
    ///
    /// Macros nest; only the outermost becomes an entry. Opening the outermost macro discards
    /// the redo tail. Until it ends, the stack is disabled (see the type's rules).
    /// - Parameter text: The macro's text and action text.
    public func beginMacro(_ text: String) {
        perform(.beginMacro) { engine.beginMacro(text: text) }
    }

    /// Closes the innermost open macro; closing the outermost one records it as one step.
    ///
    /// An empty macro is recorded as an empty step, as in Qt.
    /// - Throws: ``UndoError/Code/unbalancedGrouping`` when no macro is open.
    public func endMacro() throws {
        let closed = perform(.endMacro) { engine.endMacro() }
        if !closed { throw UndoError(.unbalancedGrouping) }
    }

    // MARK: - Clean state, clear

    /// Marks the current index as clean (typically when the document is saved).
    ///
    /// Ignored while a macro is open.
    public func setClean() {
        perform(.setClean) { engine.setClean() }
    }

    /// Forgets the clean index: no state is clean until ``setClean()`` is called again.
    public func resetClean() {
        perform(.resetClean) { engine.resetClean() }
    }

    /// Removes every entry and open macro without undoing anything; the empty stack is clean.
    public func clear() {
        perform(.clear) { engine.clear() }
    }

    // MARK: - Internal editing

    /// Lets `body` edit every command (registration-style removal), removing the commands that
    /// are obsolete afterwards. Delivers one `.edit` event.
    func editAllCommands(_ body: (inout any UndoCommand) -> Void) {
        perform(.edit) { try? engine.editAllEntries { body(&$0.command) } }
    }

    /// Edits the command at a position (`0 ..< count`). Delivers one `.edit` event if the state changed.
    func editCommand(at position: Int, _ body: (inout any UndoCommand) -> Void) {
        perform(.edit) { engine.storage.modifyEntry(at: position) { body(&$0.command) } }
    }

    /// Closes the innermost macro, dropping it when it has no children (registration groups).
    @discardableResult
    func endMacro(discardingEmpty: Bool) -> Bool {
        perform(.endMacro) { engine.endMacro(discardingEmpty: discardingEmpty) }
    }

    /// Renames the innermost open macro.
    func setMacroText(_ text: String) {
        perform(.edit) { engine.setMacroText(text) }
    }
}

@available(*, unavailable)
extension UndoStack: Sendable {}

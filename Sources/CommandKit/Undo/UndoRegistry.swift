/// Registration-style undo, as Apple's `UndoManager` does it, on every platform and on the same
/// engine as ``UndoStack``.
///
/// Instead of pushing command objects, the code that changes something registers how to revert
/// it. What is registered while undoing becomes the redo action, and what is registered while
/// redoing becomes the undo action again, so one method serves both directions:
///
/// ```swift
/// final class Library {
///     let undo = UndoRegistry()
///     private(set) var albums: [Album] = []
///
///     func insert(_ album: Album, at index: Int) {
///         albums.insert(album, at: index)
///         undo.registerUndo(withTarget: self) { $0.remove(at: index) }
///         undo.setActionName("Add Album")
///     }
///
///     func remove(at index: Int) {
///         let album = albums.remove(at: index)
///         undo.registerUndo(withTarget: self) { $0.insert(album, at: index) }
///         undo.setActionName("Delete Album")
///     }
/// }
/// ```
///
/// ## Rules (those of `UndoManager`)
/// - A registration outside undo and redo clears the redo stack; one made while redoing does not.
/// - Registrations between ``beginUndoGrouping()`` and the matching ``endUndoGrouping()`` form
///   one undo step, however deeply groups nest. A registration outside any group is a step of
///   its own (there is no run loop to group by event). Empty groups leave no step.
/// - Unbalanced calls (ending a group that is not open, enabling registration that was not
///   disabled) throw ``UndoError`` instead of crashing.
/// - ``undo()`` with one group open closes it first, as `UndoManager` does; with nested groups
///   open it throws ``UndoError/Code/groupOpen``.
/// - ``levelsOfUndo`` limits the number of steps (0: no limit).
///
/// Registrations are closures: they live in memory only. The target is held weakly (the
/// registry does not keep your model alive); an action whose target is gone does nothing.
///
/// The steps live on ``stack``, an ordinary ``UndoStack``: observe it (``UndoStack/model``,
/// ``UndoStack/changes``), put it in an ``UndoGroup``, or drive Undo/Redo controls with it.
/// Like the stack, the registry is owned by one isolation domain and is not `Sendable`.
public final class UndoRegistry {
    /// The history holding the registered steps.
    public let stack: UndoStack

    /// What the registry is doing, which decides where a registration goes.
    enum Phase {
        /// Registrations are recorded as new steps (and clear the redo stack).
        case idle
        /// An undo runs: registrations are collected as its redo actions.
        case undoing
        /// A redo runs: registrations are collected as its undo actions.
        case redoing
    }

    private(set) var phase = Phase.idle
    /// Actions registered during the undo or redo in progress.
    private var collected: [RegisteredAction] = []
    /// A name given with `setActionName` during the undo or redo in progress.
    private var collectedName: String?
    private var groupDepth = 0
    private var disableCount = 0

    /// Creates a registry with an empty history.
    /// - Parameter levelsOfUndo: The maximum number of undo steps kept (0: no limit).
    public init(levelsOfUndo: Int = 0) {
        stack = UndoStack(undoLimit: levelsOfUndo)
    }

    // MARK: - Registering

    /// Registers the action that reverts a change.
    ///
    /// - Parameters:
    ///   - target: The object the action works on, held weakly; also the key for
    ///     ``removeAllActions(withTarget:)``.
    ///   - handler: Called with the target to revert the change. While it runs, ``isUndoing``
    ///     (or ``isRedoing``) is `true`, and what it registers becomes the opposite action.
    /// - Complexity: Amortized O(1) (plus the redo steps it discards).
    public func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping (Target) -> Void) {
        guard disableCount == 0 else { return }
        let action = RegisteredAction(target: ObjectIdentifier(target)) { [weak target] in
            if let target { handler(target) }
        }
        switch phase {
        case .undoing, .redoing:
            collected.append(action)
        case .idle:
            stack.record(RegisteredActions(registry: self, actions: [action], name: ""))
        }
    }

    // MARK: - Grouping

    /// Opens a group: registrations until the matching ``endUndoGrouping()`` form one step.
    public func beginUndoGrouping() {
        groupDepth += 1
        if groupDepth == 1 { stack.beginMacro("") }
    }

    /// Closes the innermost group; closing the outermost one records the step (if not empty).
    /// - Throws: ``UndoError/Code/unbalancedGrouping`` when no group is open.
    public func endUndoGrouping() throws {
        guard groupDepth > 0 else { throw UndoError(.unbalancedGrouping) }
        groupDepth -= 1
        if groupDepth == 0 { stack.endMacro(discardingEmpty: true) }
    }

    /// How many groups are open.
    public var groupingLevel: Int { groupDepth }

    // MARK: - Undo and redo

    /// Undoes the last step (closing a single open group first).
    ///
    /// - Throws: ``UndoError/Code/groupOpen`` when nested groups are open.
    public func undo() throws {
        if groupDepth > 1 { throw UndoError(.groupOpen) }
        if groupDepth == 1 { try endUndoGrouping() }
        try stack.undo()
    }

    /// Redoes the last undone step.
    /// - Throws: ``UndoError/Code/groupOpen`` when a group is open.
    public func redo() throws {
        if groupDepth > 0 { throw UndoError(.groupOpen) }
        try stack.redo()
    }

    /// Whether there is a step to undo.
    public var canUndo: Bool { stack.canUndo }
    /// Whether there is a step to redo.
    public var canRedo: Bool { stack.canRedo }
    /// Whether an undo is running (its registrations become the redo action).
    public var isUndoing: Bool { phase == .undoing }
    /// Whether a redo is running (its registrations become the undo action).
    public var isRedoing: Bool { phase == .redoing }

    // MARK: - Names

    /// Names the step being built or, outside a group, the step that would be undone next.
    ///
    /// While undoing or redoing, names the opposite step being collected.
    public func setActionName(_ name: String) {
        switch phase {
        case .undoing, .redoing:
            collectedName = name
        case .idle where groupDepth > 0:
            stack.setMacroText(name)
        case .idle:
            guard stack.index > 0 else { return }
            stack.editCommand(at: stack.index - 1) { Self.rename(&$0, to: name) }
        }
    }

    /// The name of the step ``undo()`` would revert ("" when none or unnamed).
    public var undoActionName: String { stack.undoText }
    /// The name of the step ``redo()`` would apply ("" when none or unnamed).
    public var redoActionName: String { stack.redoText }
    /// "Undo" followed by ``undoActionName`` when there is one.
    public var undoMenuItemTitle: String { undoActionName.isEmpty ? "Undo" : "Undo \(undoActionName)" }
    /// "Redo" followed by ``redoActionName`` when there is one.
    public var redoMenuItemTitle: String { redoActionName.isEmpty ? "Redo" : "Redo \(redoActionName)" }

    // MARK: - Limits and switches

    /// The maximum number of undo steps kept (0: no limit); the oldest steps are dropped.
    public var levelsOfUndo: Int {
        get { stack.undoLimit }
        set { stack.undoLimit = newValue }
    }

    /// Stops recording registrations until the matching ``enableUndoRegistration()``. Counted.
    public func disableUndoRegistration() {
        disableCount += 1
    }

    /// Balances one ``disableUndoRegistration()``.
    /// - Throws: ``UndoError/Code/unbalancedGrouping`` when registration is not disabled.
    public func enableUndoRegistration() throws {
        guard disableCount > 0 else { throw UndoError(.unbalancedGrouping) }
        disableCount -= 1
    }

    /// Whether registrations are recorded.
    public var isUndoRegistrationEnabled: Bool { disableCount == 0 }

    // MARK: - Removing

    /// Removes every step, closes open groups and enables registration again.
    public func removeAllActions() {
        groupDepth = 0
        disableCount = 0
        stack.clear()
    }

    /// Removes every action registered with `target`; steps left empty disappear.
    /// - Complexity: O(n) in the number of registered actions.
    public func removeAllActions(withTarget target: AnyObject) {
        let id = ObjectIdentifier(target)
        stack.editAllCommands { Self.removeActions(of: id, from: &$0) }
    }

    // MARK: - Internals

    /// Runs a step's actions (newest first) while collecting the opposite actions.
    func run(_ actions: [RegisteredAction], as phase: Phase, name: inout String) -> [RegisteredAction] {
        let outer = (self.phase, collected, collectedName)
        self.phase = phase
        collected = []
        collectedName = nil
        for action in actions.reversed() { action.run() }
        let result = collected
        if let collectedName { name = collectedName }
        (self.phase, collected, collectedName) = outer
        return result
    }

    private static func rename(_ command: inout any UndoCommand, to name: String) {
        if var actions = command as? RegisteredActions {
            actions.name = name
            command = actions
        } else if var macro = command as? UndoMacro {
            macro.text = name
            macro.actionText = name
            command = macro
        }
    }

    private static func removeActions(of target: ObjectIdentifier, from command: inout any UndoCommand) {
        if var actions = command as? RegisteredActions {
            actions.actions.removeAll { $0.target == target }
            command = actions
        } else if var macro = command as? UndoMacro {
            for i in macro.entries.indices { removeActions(of: target, from: &macro.entries[i].command) }
            macro.entries.removeAll { $0.isObsolete }
            if macro.entries.isEmpty { macro.isObsolete = true }
            command = macro
        }
    }
}

@available(*, unavailable)
extension UndoRegistry: Sendable {}

/// One registered closure and the identity of its target.
struct RegisteredAction {
    let target: ObjectIdentifier
    let run: () -> Void
}

/// A step made of registered actions: undo runs them and keeps what they register for redo.
struct RegisteredActions: UndoCommand {
    weak var registry: UndoRegistry?
    var actions: [RegisteredAction]
    var name: String

    var text: String { name }
    /// An undo that registered nothing leaves nothing to redo: the step disappears.
    var isObsolete: Bool { actions.isEmpty }

    mutating func undo() { flip(.undoing) }
    mutating func redo() { flip(.redoing) }

    private mutating func flip(_ phase: UndoRegistry.Phase) {
        guard let registry else {
            for action in actions.reversed() { action.run() }
            actions = []
            return
        }
        actions = registry.run(actions, as: phase, name: &name)
    }
}

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
/// - A call back into the registry from inside a handler it is running (or a command its stack
///   is running) is refused, never fatal: ``undo()``, ``redo()`` and ``endUndoGrouping()`` throw
///   ``UndoError/Code/reentrantCall`` and change nothing; ``removeAllActions()``,
///   ``removeAllActions(withTarget:)`` and setting ``levelsOfUndo`` do nothing then. (Registering,
///   naming and opening groups there are the rules' own business: see above and below.)
/// - ``undo()`` with one group open closes it first, as `UndoManager` does; with nested groups
///   open it throws ``UndoError/Code/groupOpen``.
/// - ``levelsOfUndo`` limits the number of steps (0: no limit).
/// - ``setActionName(_:)`` names the open group, whether it comes before or after the
///   registrations. Outside a group it names the step just registered (or the group just closed)
///   if nothing has named that step yet, and otherwise the next step registered: both orders,
///   name-then-register and register-then-name, name the step they belong to.
/// - What a command object pushed on ``stack`` registers while it runs (its code calls model
///   methods written in registration style) joins that command's step, never traps: it is
///   recorded as an insignificant entry of registered actions right after the command, so one
///   undo reverts both (the registered actions first, then the command's `undo()`). When the step
///   is redone, the command runs again and what it registers then replaces those actions. What
///   the command's `undo()` registers is dropped: its `redo()` makes the change again. So let the
///   registrations own the changes they revert, and the command's `undo()` revert only the rest.
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
    /// Groups opened while a command pushed on the stack runs: counted, not opened on the stack.
    private var joinedGroupDepth = 0
    private var disableCount = 0
    /// A name given outside a group when no step was waiting for one: it names the next step.
    private var pendingName: String?
    /// The step a name given next renames: the one just registered without a name, or the group
    /// just closed; `nil` once a name was given (or anything else happened: see `setActionName`).
    private var renameableStep: UndoRecord.ID?
    /// Actions registered while a command pushed on the stack runs, and the name given meanwhile.
    private var joining: (actions: [RegisteredAction], name: String?) = ([], nil)

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
        case .idle where stack.performing != .none:
            // A command object on the stack runs: what its code registers joins its step.
            join(action)
        case .idle where groupDepth > 0:
            stack.record(RegisteredActions(registry: self, actions: [action], name: ""))
        case .idle:
            let name = pendingName
            pendingName = nil
            stack.record(RegisteredActions(registry: self, actions: [action], name: name ?? ""))
            renameableStep = name == nil ? stack.undoRecord?.id : nil
        }
    }

    /// Collects a registration made while a command pushed on the stack runs, and hands the
    /// stack what the push should record after the command (once per push).
    private func join(_ action: RegisteredAction) {
        stack.joiningRegistry = self
        joining.actions.append(action)
    }

    /// The registrations collected during the push now ending, as a step of their own that rides
    /// along with the pushed command.
    func takeJoined() -> RegisteredActions {
        defer { joining = ([], nil) }
        return RegisteredActions(registry: self, actions: joining.actions, name: joining.name ?? "", joinsCommand: true)
    }

    /// The registrations collected while the stack redid the command a joined step belongs to:
    /// they replace the joined step's actions (the command made the changes again).
    func takeJoinedActions(name: inout String) -> [RegisteredAction] {
        defer { joining = ([], nil) }
        if let joinedName = joining.name { name = joinedName }
        return joining.actions
    }

    /// Forgets registrations no joined step took (the stack operation that collected them is over).
    func discardJoined() {
        joining = ([], nil)
    }

    // MARK: - Grouping

    /// Opens a group: registrations until the matching ``endUndoGrouping()`` form one step.
    ///
    /// A name given outside a group just before (``setActionName(_:)``) names the group.
    public func beginUndoGrouping() {
        if stack.performing != .none {
            // Inside a pushed command: its registrations join its step already, as one.
            joinedGroupDepth += 1
            return
        }
        groupDepth += 1
        if groupDepth == 1 {
            stack.beginMacro(pendingName ?? "")
            pendingName = nil
            renameableStep = nil
        }
    }

    /// Closes the innermost group; closing the outermost one records the step (if not empty).
    /// - Throws: ``UndoError/Code/unbalancedGrouping`` when no group is open,
    ///   ``UndoError/Code/reentrantCall`` when it would close a group opened outside the handler or
    ///   command running now (the group stays open).
    public func endUndoGrouping() throws {
        if joinedGroupDepth > 0 {
            joinedGroupDepth -= 1
            return
        }
        guard groupDepth > 0 else { throw UndoError(.unbalancedGrouping) }
        // A group opened before the running operation is its macro: it cannot close under it.
        guard !stack.isPerforming else { throw UndoError(.reentrantCall) }
        groupDepth -= 1
        guard groupDepth == 0 else { return }
        let empty = stack.engine.isOutermostMacroEmpty
        stack.endMacro(discardingEmpty: true)
        guard !empty, stack.index > 0 else { return }
        stack.editCommand(at: stack.index - 1) { Self.flatten(&$0) }
        // A name given right after closing a group names it, as `UndoManager` names its top group.
        renameableStep = stack.undoRecord?.id
    }

    /// How many groups are open.
    public var groupingLevel: Int { groupDepth + joinedGroupDepth }

    // MARK: - Undo and redo

    /// Undoes the last step (closing a single open group first).
    ///
    /// - Throws: ``UndoError/Code/groupOpen`` when nested groups are open,
    ///   ``UndoError/Code/reentrantCall`` when called from inside a handler (or a command) the
    ///   registry's stack is running: nothing is done, and the undo or redo running goes on.
    public func undo() throws {
        // First: closing a group below would change the history before the stack refused.
        guard !stack.isPerforming else { throw UndoError(.reentrantCall) }
        if groupDepth > 1 { throw UndoError(.groupOpen) }
        if groupDepth == 1 { try endUndoGrouping() }
        try stack.undo()
    }

    /// Redoes the last undone step.
    /// - Throws: ``UndoError/Code/groupOpen`` when a group is open,
    ///   ``UndoError/Code/reentrantCall`` when called from inside a handler (or a command) the
    ///   registry's stack is running: nothing is done.
    public func redo() throws {
        guard !stack.isPerforming else { throw UndoError(.reentrantCall) }
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

    /// Names the step being built: the open group; outside a group, the step just registered (or
    /// the group just closed) when nothing has named it yet, else the next step registered.
    ///
    /// Both of `UndoManager`'s orders work: naming before the registrations of a group names the
    /// group, as `UndoManager` does; outside a group, a name given right after a registration names
    /// it, and a name given when the last step already has one (or after an undo or a redo) waits
    /// for the next registration or group. While undoing or redoing, names the opposite step being
    /// collected (for a group, the whole group). Inside a command pushed on ``stack``, names the
    /// registrations that join its step.
    public func setActionName(_ name: String) {
        switch phase {
        case .undoing, .redoing:
            collectedName = name
        case .idle where stack.performing != .none:
            joining.name = name
        case .idle where groupDepth > 0:
            stack.setMacroText(name)
        case .idle:
            if let step = renameableStep, stack.undoRecord?.id == step {
                stack.editCommand(at: stack.index - 1) { Self.rename(&$0, to: name) }
                renameableStep = nil
            } else {
                pendingName = name
                renameableStep = nil
            }
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
    ///
    /// Set from inside a handler the registry is running, the limit stays as it was.
    public var levelsOfUndo: Int {
        get { stack.undoLimit }
        set { stack.setUndoLimit(newValue) }
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
    ///
    /// Called from inside a handler (or a command) the registry's stack is running, it does
    /// nothing: the undo or redo running still needs its step.
    public func removeAllActions() {
        guard !stack.isPerforming else { return }
        groupDepth = 0
        disableCount = 0
        pendingName = nil
        renameableStep = nil
        stack.clear()
    }

    /// Removes every action registered with `target`; steps left empty disappear.
    ///
    /// Called from inside a handler (or a command) the registry's stack is running, it does nothing.
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

    /// A closed group whose children are all registered actions becomes one step of registered
    /// actions (run newest first, as the group's children were): a name set while it is undone or
    /// redone then names the whole step, as for an ungrouped one.
    private static func flatten(_ command: inout any UndoCommand) {
        guard let macro = command as? UndoMacro else { return }
        var actions: [RegisteredAction] = []
        var registry: UndoRegistry?
        for entry in macro.entries {
            guard let step = entry.command as? RegisteredActions else { return }
            actions += step.actions
            registry = registry ?? step.registry
        }
        guard let registry else { return }
        command = RegisteredActions(registry: registry, actions: actions, name: macro.actionText)
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
    /// Whether these are the registrations of a command object pushed on the stack: they ride along
    /// with its step (insignificant), undo first, and are replaced by what the command registers
    /// again when it is redone.
    var joinsCommand = false

    var text: String { name }
    var isSignificant: Bool { !joinsCommand }
    /// An undo that registered nothing leaves nothing to redo: the step disappears.
    var isObsolete: Bool { actions.isEmpty }

    mutating func undo() { flip(.undoing) }

    mutating func redo() {
        // The command below has just been redone and registered its undo again: take that.
        if joinsCommand, let registry {
            actions = registry.takeJoinedActions(name: &name)
            return
        }
        flip(.redoing)
    }

    private mutating func flip(_ phase: UndoRegistry.Phase) {
        guard let registry else {
            for action in actions.reversed() { action.run() }
            actions = []
            return
        }
        actions = registry.run(actions, as: phase, name: &name)
    }
}

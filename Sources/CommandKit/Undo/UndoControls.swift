/// Keeps an Undo or Redo ``ActionControl`` in step with a history, and sends its action.
///
/// The control holds its target weakly; the stack (or group) holds this binding through its
/// listener, so the binding lives as long as the history, and leaves when the control is gone.
final class UndoControlBinding {
    enum Direction { case undo, redo }

    private let direction: Direction
    private let prefix: String
    private let perform: () throws -> Void
    private let onError: (any Error) -> Void
    weak var control: ActionControl?

    init(
        _ direction: Direction,
        prefix: String,
        perform: @escaping () throws -> Void,
        onError: @escaping (any Error) -> Void
    ) {
        self.direction = direction
        self.prefix = prefix
        self.perform = perform
        self.onError = onError
    }

    /// The control's action: undo or redo, with the error handed to `onError`.
    func send() {
        do { try perform() } catch { onError(error) }
    }

    /// Updates title and enabled state; returns `false` once the control is gone.
    @discardableResult
    func update(_ state: UndoState) -> Bool {
        guard let control else { return false }
        let text = direction == .undo ? state.undoText : state.redoText
        control.title = text.isEmpty ? prefix : "\(prefix) \(text)"
        control.isEnabled = direction == .undo ? state.canUndo : state.canRedo
        return true
    }

    static func makeControl(
        _ direction: Direction,
        prefix: String,
        state: UndoState,
        perform: @escaping () throws -> Void,
        onError: @escaping (any Error) -> Void,
        addListener: (@escaping (UndoChange) -> Void) -> Int,
        removeListener: @escaping (Int) -> Void
    ) -> ActionControl {
        let control = ActionControl(title: prefix, isEnabled: false)
        let binding = UndoControlBinding(direction, prefix: prefix, perform: perform, onError: onError)
        binding.control = control
        binding.update(state)
        control.setTarget(binding, action: UndoControlBinding.send)
        var id = 0
        id = addListener { change in
            // The listener owns the binding; once the control is gone it removes itself.
            if !binding.update(change.new) { removeListener(id) }
        }
        return control
    }
}

@available(*, unavailable)
extension UndoControlBinding: Sendable {}

extension UndoStack {
    /// Creates an Undo control (a toolbar button, a menu item) that follows this stack.
    ///
    /// The control is enabled exactly when ``canUndo`` is true; its title is the prefix
    /// followed by ``undoText`` ("Undo Delete Album"), or the prefix alone when there is
    /// nothing to undo. Sending its action undoes one step. The control does not keep the
    /// stack alive: once the stack is gone it sends nothing.
    ///
    /// ```swift
    /// let undoButton = stack.makeUndoControl { error in show(error) }
    /// undoButton.sendAction()  // the user clicked
    /// ```
    /// - Parameters:
    ///   - prefix: The title's first word(s). Defaults to "Undo".
    ///   - onError: Receives what a failing undo throws (controls cannot throw).
    /// - Returns: The control, already in step with the stack.
    public func makeUndoControl(
        prefix: String = "Undo",
        onError: @escaping (any Error) -> Void = { _ in }
    ) -> ActionControl {
        UndoControlBinding.makeControl(
            .undo, prefix: prefix, state: state,
            perform: { [weak self] in try self?.undo() }, onError: onError,
            addListener: { addListener($0) }, removeListener: { [weak self] in self?.removeListener($0) })
    }

    /// Creates a Redo control that follows this stack; see ``makeUndoControl(prefix:onError:)``.
    /// - Parameters:
    ///   - prefix: The title's first word(s). Defaults to "Redo".
    ///   - onError: Receives what a failing redo throws.
    /// - Returns: The control, already in step with the stack.
    public func makeRedoControl(
        prefix: String = "Redo",
        onError: @escaping (any Error) -> Void = { _ in }
    ) -> ActionControl {
        UndoControlBinding.makeControl(
            .redo, prefix: prefix, state: state,
            perform: { [weak self] in try self?.redo() }, onError: onError,
            addListener: { addListener($0) }, removeListener: { [weak self] in self?.removeListener($0) })
    }
}

extension UndoGroup {
    /// Creates an Undo control that follows whichever stack is active.
    ///
    /// Disabled, titled with the prefix alone, while no stack is active.
    /// - Parameters:
    ///   - prefix: The title's first word(s). Defaults to "Undo".
    ///   - onError: Receives what a failing undo throws.
    /// - Returns: The control, already in step with the group.
    public func makeUndoControl(
        prefix: String = "Undo",
        onError: @escaping (any Error) -> Void = { _ in }
    ) -> ActionControl {
        UndoControlBinding.makeControl(
            .undo, prefix: prefix, state: state,
            perform: { [weak self] in try self?.undo() }, onError: onError,
            addListener: { addListener($0) }, removeListener: { [weak self] in self?.removeListener($0) })
    }

    /// Creates a Redo control that follows whichever stack is active.
    /// - Parameters:
    ///   - prefix: The title's first word(s). Defaults to "Redo".
    ///   - onError: Receives what a failing redo throws.
    /// - Returns: The control, already in step with the group.
    public func makeRedoControl(
        prefix: String = "Redo",
        onError: @escaping (any Error) -> Void = { _ in }
    ) -> ActionControl {
        UndoControlBinding.makeControl(
            .redo, prefix: prefix, state: state,
            perform: { [weak self] in try self?.redo() }, onError: onError,
            addListener: { addListener($0) }, removeListener: { [weak self] in self?.removeListener($0) })
    }
}

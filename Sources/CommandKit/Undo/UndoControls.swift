/// Keeps an Undo or Redo ``ActionControl`` in step with a history, and sends its action.
///
/// The control holds its target weakly; the history holds this binding through its change
/// handler, so the binding lives as long as the history, and leaves when the control is gone.
/// At each update it also keeps the identity of the step the control now shows, and its action
/// passes it as the expectation: the control undoes the step it shows, or nothing.
final class UndoControlBinding {
    enum Direction { case undo, redo }

    private let direction: Direction
    private let prefix: String
    /// The identity of the step the control shows (`nil` when unknown or none).
    private let shownStep: () -> AnyHashable?
    /// Undoes or redoes one step, expecting the given one.
    private let perform: (AnyHashable?) throws -> Void
    private let onError: (any Error) -> Void
    private var shown: AnyHashable?
    weak var control: ActionControl?

    init(
        _ direction: Direction,
        prefix: String,
        shownStep: @escaping () -> AnyHashable?,
        perform: @escaping (AnyHashable?) throws -> Void,
        onError: @escaping (any Error) -> Void
    ) {
        self.direction = direction
        self.prefix = prefix
        self.shownStep = shownStep
        self.perform = perform
        self.onError = onError
    }

    /// The control's action: undo or redo the step shown, with the error handed to `onError`.
    func send() {
        do { try perform(shown) } catch { onError(error) }
    }

    /// Updates title, enabled state and the step shown; returns `false` once the control is gone.
    @discardableResult
    func update(_ state: UndoState) -> Bool {
        guard let control else { return false }
        let text = direction == .undo ? state.undoText : state.redoText
        let enabled = direction == .undo ? state.canUndo : state.canRedo
        shown = enabled ? shownStep() : nil
        control.title = text.isEmpty ? prefix : "\(prefix) \(text)"
        control.isEnabled = enabled
        return true
    }

    static func makeControl(
        _ direction: Direction,
        prefix: String,
        state: UndoState,
        shownStep: @escaping () -> AnyHashable?,
        perform: @escaping (AnyHashable?) throws -> Void,
        onError: @escaping (any Error) -> Void,
        addChangeHandler: (@escaping (UndoChange) -> Void) -> UndoChangeHandlerToken,
        removeChangeHandler: @escaping (UndoChangeHandlerToken) -> Void
    ) -> ActionControl {
        let control = ActionControl(title: prefix, isEnabled: false)
        let binding = UndoControlBinding(
            direction, prefix: prefix, shownStep: shownStep, perform: perform, onError: onError)
        binding.control = control
        binding.update(state)
        control.setTarget(binding, action: UndoControlBinding.send)
        var token: UndoChangeHandlerToken?
        token = addChangeHandler { change in
            // The handler owns the binding; once the control is gone it removes itself.
            if !binding.update(change.new), let token { removeChangeHandler(token) }
        }
        return control
    }
}

@available(*, unavailable)
extension UndoControlBinding: Sendable {}

extension UndoHistory {
    /// Creates an Undo control (a toolbar button, a menu item) that follows this history.
    ///
    /// The control is enabled exactly when ``canUndo`` is true; its title is the prefix
    /// followed by ``undoText`` ("Undo Delete Album"), or the prefix alone when there is
    /// nothing to undo. Sending its action undoes the step the control shows
    /// (``undo(steps:expecting:)`` with the ``undoRecord`` read when the control last updated): if
    /// the history has another step on top by then (another process pushed, on a durable history),
    /// nothing is undone, `onError` receives the "history changed" error, and the control shows the
    /// history's new state. The control does not keep the history alive: once the history is gone
    /// it sends nothing.
    ///
    /// ```swift
    /// let undoButton = stack.makeUndoControl { error in show(error) }
    /// undoButton.sendAction()  // the user clicked
    /// ```
    /// - Parameters:
    ///   - prefix: The title's first word(s). Defaults to "Undo".
    ///   - onError: Receives what a failing or refused undo throws (controls cannot throw).
    /// - Returns: The control, already in step with the history.
    public func makeUndoControl(
        prefix: String = "Undo",
        onError: @escaping (any Error) -> Void = { _ in }
    ) -> ActionControl {
        UndoControlBinding.makeControl(
            .undo, prefix: prefix, state: state,
            shownStep: { [weak self] in self?.undoRecord.map { AnyHashable($0.id) } },
            perform: { [weak self] shown in
                try self?.undo(steps: 1, expecting: shown.flatMap { $0.base as? Record.ID })
            },
            onError: onError,
            addChangeHandler: { addChangeHandler($0) },
            removeChangeHandler: { [weak self] in self?.removeChangeHandler($0) })
    }

    /// Creates a Redo control that follows this history; see ``makeUndoControl(prefix:onError:)``.
    ///
    /// Sending its action redoes the step the control shows (``redoRecord``), or nothing.
    /// - Parameters:
    ///   - prefix: The title's first word(s). Defaults to "Redo".
    ///   - onError: Receives what a failing or refused redo throws.
    /// - Returns: The control, already in step with the history.
    public func makeRedoControl(
        prefix: String = "Redo",
        onError: @escaping (any Error) -> Void = { _ in }
    ) -> ActionControl {
        UndoControlBinding.makeControl(
            .redo, prefix: prefix, state: state,
            shownStep: { [weak self] in self?.redoRecord.map { AnyHashable($0.id) } },
            perform: { [weak self] shown in
                try self?.redo(steps: 1, expecting: shown.flatMap { $0.base as? Record.ID })
            },
            onError: onError,
            addChangeHandler: { addChangeHandler($0) },
            removeChangeHandler: { [weak self] in self?.removeChangeHandler($0) })
    }
}

extension UndoGroup {
    /// Creates an Undo control that follows whichever history is active.
    ///
    /// Disabled, titled with the prefix alone, while no history is active. Like a history's own
    /// control, it undoes the step it shows or nothing.
    /// - Parameters:
    ///   - prefix: The title's first word(s). Defaults to "Undo".
    ///   - onError: Receives what a failing or refused undo throws.
    /// - Returns: The control, already in step with the group.
    public func makeUndoControl(
        prefix: String = "Undo",
        onError: @escaping (any Error) -> Void = { _ in }
    ) -> ActionControl {
        UndoControlBinding.makeControl(
            .undo, prefix: prefix, state: state,
            shownStep: { [weak self] in self?.activeMember?.undoStep() },
            perform: { [weak self] shown in try self?.activeMember?.undo(shown) },
            onError: onError,
            addChangeHandler: { addChangeHandler($0) },
            removeChangeHandler: { [weak self] in self?.removeChangeHandler($0) })
    }

    /// Creates a Redo control that follows whichever history is active.
    /// - Parameters:
    ///   - prefix: The title's first word(s). Defaults to "Redo".
    ///   - onError: Receives what a failing or refused redo throws.
    /// - Returns: The control, already in step with the group.
    public func makeRedoControl(
        prefix: String = "Redo",
        onError: @escaping (any Error) -> Void = { _ in }
    ) -> ActionControl {
        UndoControlBinding.makeControl(
            .redo, prefix: prefix, state: state,
            shownStep: { [weak self] in self?.activeMember?.redoStep() },
            perform: { [weak self] shown in try self?.activeMember?.redo(shown) },
            onError: onError,
            addChangeHandler: { addChangeHandler($0) },
            removeChangeHandler: { [weak self] in self?.removeChangeHandler($0) })
    }
}

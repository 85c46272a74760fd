public import Observation

/// The observable state of an undo history: what an Undo/Redo button or a title bar shows.
///
/// Get one from ``UndoStack/model`` or ``UndoGroup/model``; it is updated after every change,
/// and a property is only written when its value changes, so observers re-render only for what
/// they read. It lives in the stack's isolation domain (not `Sendable`).
///
/// ```swift
/// withObservationTracking {
///     button.isEnabled = stack.model.canUndo
/// } onChange: { … }
/// ```
@Observable
public final class UndoStackModel {
    /// The number of steps done.
    public private(set) var index: Int
    /// The number of entries.
    public private(set) var count: Int
    /// The clean index, if any.
    public private(set) var cleanIndex: Int?
    /// Whether the history is clean ("saved").
    public private(set) var isClean: Bool
    /// Whether undo is possible.
    public private(set) var canUndo: Bool
    /// Whether redo is possible.
    public private(set) var canRedo: Bool
    /// The action text of the next undo ("" when none).
    public private(set) var undoText: String
    /// The action text of the next redo ("" when none).
    public private(set) var redoText: String

    init(state: UndoState) {
        index = state.index
        count = state.count
        cleanIndex = state.cleanIndex
        isClean = state.isClean
        canUndo = state.canUndo
        canRedo = state.canRedo
        undoText = state.undoText
        redoText = state.redoText
    }

    /// Writes the properties that differ from `state`.
    func update(_ state: UndoState) {
        if index != state.index { index = state.index }
        if count != state.count { count = state.count }
        if cleanIndex != state.cleanIndex { cleanIndex = state.cleanIndex }
        if isClean != state.isClean { isClean = state.isClean }
        if canUndo != state.canUndo { canUndo = state.canUndo }
        if canRedo != state.canRedo { canRedo = state.canRedo }
        if undoText != state.undoText { undoText = state.undoText }
        if redoText != state.redoText { redoText = state.redoText }
    }
}

@available(*, unavailable)
extension UndoStackModel: Sendable {}

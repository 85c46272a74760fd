/// A snapshot of everything an undo history shows: position, clean state, and the Undo/Redo titles.
///
/// Snapshots are what change events carry (``UndoChange``) and what the observable
/// ``UndoStackModel`` mirrors. While a macro is open the history is "disabled", as in Qt:
/// `canUndo`, `canRedo` and `isClean` are `false` and both texts are empty.
public struct UndoState: Sendable, Hashable {
    /// The number of steps currently done (`0...count`).
    public var index: Int
    /// The number of entries in the history (a closed macro counts once; an open outermost macro
    /// counts from `beginMacro`, as in Qt).
    public var count: Int
    /// The index marked clean, or `nil` when the clean state can no longer be reached.
    public var cleanIndex: Int?
    /// Whether the history is at its clean index (and no macro is open).
    public var isClean: Bool
    /// Whether ``UndoHistory/undo()`` would do something.
    public var canUndo: Bool
    /// Whether ``UndoHistory/redo()`` would do something.
    public var canRedo: Bool
    /// The action text of the step the next undo reverts (empty when there is none).
    public var undoText: String
    /// The action text of the step the next redo applies (empty when there is none).
    public var redoText: String
    /// How many macros are open (0 when none).
    public var macroDepth: Int

    /// Creates a snapshot. Histories make these; tests and previews may too.
    public init(
        index: Int = 0,
        count: Int = 0,
        cleanIndex: Int? = 0,
        isClean: Bool = true,
        canUndo: Bool = false,
        canRedo: Bool = false,
        undoText: String = "",
        redoText: String = "",
        macroDepth: Int = 0
    ) {
        self.index = index
        self.count = count
        self.cleanIndex = cleanIndex
        self.isClean = isClean
        self.canUndo = canUndo
        self.canRedo = canRedo
        self.undoText = undoText
        self.redoText = redoText
        self.macroDepth = macroDepth
    }

    /// The state of a new, empty history: index 0, clean, nothing to undo or redo.
    public static let empty = UndoState()
}

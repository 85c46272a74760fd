/// The one history engine: every undo rule, over any ``HistoryStorage``.
///
/// ``UndoStack`` runs it over `MemoryHistoryStorage`; `CommandStore` runs it over SQLite.
/// The rules follow Qt's `QUndoStack`, with Swing's significance and a documented error rule:
///
/// - **push** runs the entry's `redo()` (unless `execute` is `false`), then: inside a macro,
///   merges it into the macro's last child or appends it as a child; otherwise truncates the
///   redo tail (losing the clean index if it was in the tail), merges it into the entry below
///   the index when both have the same non-`nil` `mergeID` and the index is not the clean index,
///   or appends it, trims to the undo limit, and advances the index. An entry that is obsolete
///   after its redo is dropped; an entry that is obsolete after absorbing a merge is removed.
/// - **undo / redo** move by one *step*: a significant entry plus the insignificant entries
///   pushed after it (a run of insignificant entries at the bottom is a step of its own).
///   Obsolete entries are removed once they ran; the clean index is lost if it was above.
/// - **jump** (`setIndex`) redoes or undoes entry by entry to a clamped target, ignoring
///   significance (the target is exact).
/// - **macros** nest; the outermost `endMacro` appends one entry, so a macro counts once
///   against the limit. While a macro is open, undo, redo, jump and `setClean` are ignored.
/// - **branches** (a storage that keeps them): push and the outermost `beginMacro` park the redo
///   tail as a branch instead of removing it; redo follows the branch visited last; `jump(to:)`
///   reaches any node; the limit counts every node (the time-travel article has every rule).
/// - **errors**: an entry that throws leaves the history consistent. A failing push records
///   nothing. A failing undo/redo/jump stops at the failing entry: every entry below the index
///   is done, every entry at or above it is undone, and the failing entry stays where it was.
///   The error is rethrown to the caller.
///
/// The engine is a value owned by one object (never copied after creation: its storage may be
/// a class). It is not `Sendable`; its owner decides the isolation.
public struct HistoryEngine<Storage: HistoryStorage> {
    /// The storage's entry type.
    public typealias Entry = Storage.Entry

    /// An open macro: its text and where its children begin in ``macroChildren``.
    struct OpenMacro {
        var text: String
        var start: Int
    }

    /// The storage holding the entries, the index and the clean index.
    public let storage: Storage

    /// The maximum number of entries kept, or 0 for no limit.
    public private(set) var undoLimit: Int = 0

    /// The open macros, innermost last.
    var openMacros: [OpenMacro] = []

    /// The children of every open macro, outermost macro's first: a macro's children run from its
    /// `start` to the next open macro's (or the end). One buffer, reused from macro to macro, so
    /// closing a macro makes one array of exactly its children instead of growing one per macro.
    var macroChildren: [Entry] = []

    /// Where the children of the open macro at `depth` end in ``macroChildren``.
    private func childrenEnd(ofMacroAt depth: Int) -> Int {
        depth + 1 < openMacros.count ? openMacros[depth + 1].start : macroChildren.count
    }

    /// Whether the open outermost macro has no children yet (`true` when none is open).
    var isOutermostMacroEmpty: Bool {
        guard let outermost = openMacros.first else { return true }
        return childrenEnd(ofMacroAt: 0) == outermost.start
    }

    /// Creates an engine over a storage, which may already hold a history.
    public init(storage: Storage, undoLimit: Int = 0) {
        self.storage = storage
        self.undoLimit = max(0, undoLimit)
    }

    // MARK: - Reading

    /// The number of done entries.
    public var index: Int { storage.index }
    /// The number of entries, the open outermost macro included (as Qt counts it: from
    /// `beginMacro`, at position `storage.count`, although it reaches the storage only when it ends).
    public var count: Int { openMacros.isEmpty ? storage.count : storage.count + 1 }
    /// The clean index, if any.
    public var cleanIndex: Int? { storage.cleanIndex }
    /// How many macros are open.
    public var macroDepth: Int { openMacros.count }
    /// Whether a macro is open.
    public var isInMacro: Bool { !openMacros.isEmpty }
    /// Whether the index is the clean index and no macro is open.
    public var isClean: Bool { openMacros.isEmpty && storage.cleanIndex == storage.index }
    /// Whether undo would do something.
    public var canUndo: Bool { openMacros.isEmpty && storage.index > 0 }
    /// Whether redo would do something.
    public var canRedo: Bool { openMacros.isEmpty && storage.index < storage.count }

    /// The stored entry at a position, `0 ..< storage.count`.
    public func entry(at position: Int) throws(Storage.Failure) -> Entry {
        try storage.entry(at: position)
    }

    /// The text of the entry at a position, `0 ..< count`: a stored entry's, or the open outermost
    /// macro's at `storage.count`.
    public func text(at position: Int) throws(Storage.Failure) -> String {
        if position == storage.count, let outermost = openMacros.first { return outermost.text }
        return try storage.readEntry(at: position) { $0.text }
    }

    /// The open outermost macro as an entry of the children pushed so far (inner open macros not
    /// included), or `nil` when no macro is open.
    public func openMacroEntry() -> Entry? {
        guard let outermost = openMacros.first else { return nil }
        return Entry.macro(
            text: outermost.text, children: Array(macroChildren[outermost.start..<childrenEnd(ofMacroAt: 0)]))
    }

    /// The start of the step that ends just below `end` (the largest step boundary below it).
    ///
    /// - Complexity: O(k), k the number of insignificant entries in the step.
    public func stepStart(below end: Int) throws(Storage.Failure) -> Int {
        var position = end - 1
        while position > 0, !(try storage.readEntry(at: position) { $0.isSignificant }) {
            position -= 1
        }
        return position
    }

    /// The action text of the step the next undo reverts ("" when none or in a macro).
    public func undoText() throws(Storage.Failure) -> String {
        guard canUndo else { return "" }
        return try storage.readEntry(at: stepStart(below: storage.index)) { $0.actionText }
    }

    /// The action text of the step the next redo applies ("" when none or in a macro).
    public func redoText() throws(Storage.Failure) -> String {
        guard canRedo else { return "" }
        return try storage.readEntry(at: storage.index) { $0.actionText }
    }

    /// A snapshot of the observable state.
    public func state() throws(Storage.Failure) -> UndoState {
        UndoState(
            index: storage.index,
            count: count,
            cleanIndex: storage.cleanIndex,
            isClean: isClean,
            canUndo: canUndo,
            canRedo: canRedo,
            undoText: try undoText(),
            redoText: try redoText(),
            macroDepth: openMacros.count
        )
    }

    // MARK: - Push

    /// Executes (unless `execute` is `false`) and records an entry; see the type's rules.
    ///
    /// - Parameters:
    ///   - entry: The new entry.
    ///   - execute: `false` records an entry whose effect has already happened (Swing's
    ///     `addEdit`, registration-style undo).
    /// - Throws: The entry's error (nothing recorded), or the storage's.
    /// - Complexity: Amortized O(1) plus the size of the truncated redo tail.
    public mutating func push(_ entry: consuming Entry, execute: Bool = true) throws {
        var entry = entry
        if execute, !entry.isObsolete {
            try entry.redo()
        }
        if !openMacros.isEmpty {
            pushIntoMacro(consume entry)
            return
        }
        var index = storage.index
        let count = storage.count
        let hadRedoSteps = index < count
        if hadRedoSteps {
            // A tree parks the redo steps as a branch; a linear history removes them.
            try storage.parkEntries(from: index)
            if let clean = storage.cleanIndex, clean > index {
                try storage.setCleanIndex(nil)
            }
        }
        // Read the merge ID first: a storage writing entries back only writes after a merge attempt.
        // In a tree, only into a leaf: a node with a branch below it stays what the branch grew from.
        if index > 0, let id = entry.mergeID, index != storage.cleanIndex,
            !(hadRedoSteps && storage.keepsBranches),
            try storage.readEntry(at: index - 1, { $0.mergeID == id })
        {
            let top = index - 1
            let merged = try storage.modifyEntry(at: top) { current -> Bool? in
                guard current.merge(with: entry) else { return nil }
                return current.isObsolete
            }
            if let obsolete = merged {
                if obsolete {
                    try storage.removeEntry(at: top)
                    try storage.setIndex(top)
                    if storage.keepsBranches { try followLatestBranch(at: top) }
                }
                return
            }
        }
        if entry.isObsolete {
            // Dropped: the state is the one the redo steps (now parked) branched from.
            if hadRedoSteps && storage.keepsBranches { try followLatestBranch(at: index) }
            return
        }
        try storage.append(entry)
        index += 1
        try applyUndoLimit(index: &index)
        try storage.setIndex(index)
    }

    /// Trims to the undo limit after an entry was added at `index - 1`.
    ///
    /// In a tree the limit counts every node: the oldest parked branches go first (whole), then the
    /// oldest entries of the path, never the steps that are done above them.
    /// Trims to the undo limit after an entry was appended at `index - 1`. Inlined: for a linear
    /// history the call to ``enforceUndoLimit(index:)`` cost a limited push a tenth.
    @inline(__always)
    private func applyUndoLimit(index: inout Int) throws(Storage.Failure) {
        guard undoLimit > 0 else { return }
        if storage.keepsBranches {
            try enforceUndoLimit(index: &index)
        } else if index > undoLimit {
            try trim(index - undoLimit, index: &index)
        }
    }

    /// Called only for a storage that keeps branches (a linear one trims in ``applyUndoLimit(index:)``).
    private func enforceUndoLimit(index: inout Int) throws(Storage.Failure) {
        guard undoLimit > 0 else { return }
        while storage.count + storage.parkedCount > undoLimit, let oldest = try storage.oldestParkedNode() {
            try storage.removeParkedBranch(oldest)
        }
        let excess = min(storage.count - undoLimit, index)
        if excess > 0 { try trim(excess, index: &index) }
    }

    /// Keeps the tree's invariant: at the path's end (`index == storage.count`), the branch a redo
    /// would follow is brought onto the path, so `canRedo` and the redo texts read the path alone.
    /// Nothing to do in a linear history.
    /// Called only for a storage that keeps branches (each caller checks, so a linear history's
    /// hot paths make no call).
    private func followLatestBranch(at index: Int) throws(Storage.Failure) {
        guard index == storage.count else { return }
        let end = storage.count == 0 ? HistoryNode.ID.root : try storage.nodeID(at: storage.count - 1)
        if let child = try storage.latestParkedChild(of: end) {
            try storage.unparkEntry(child)
        }
    }

    private mutating func pushIntoMacro(_ entry: consuming Entry) {
        let id = entry.mergeID
        if id != nil, macroChildren.count > openMacros[openMacros.count - 1].start {
            let top = macroChildren.count - 1
            if macroChildren[top].mergeID == id, macroChildren[top].merge(with: entry) {
                if macroChildren[top].isObsolete {
                    macroChildren.removeLast()
                }
                return
            }
        }
        if entry.isObsolete { return }
        macroChildren.append(consume entry)
    }

    /// Removes the `k` oldest entries, sliding `index` and the clean index.
    private func trim(_ k: Int, index: inout Int) throws(Storage.Failure) {
        try storage.removeFirstEntries(k)
        index -= k
        if let clean = storage.cleanIndex {
            try storage.setCleanIndex(clean < k ? nil : clean - k)
        }
    }

    // MARK: - Undo, redo, jump

    /// Undoes one step (no effect at index 0 or while a macro is open).
    ///
    /// - Throws: The failing entry's error; the index stays just above the failing entry.
    /// - Complexity: O(k) for a step of k entries.
    public mutating func undo() throws {
        guard openMacros.isEmpty else { return }
        var index = storage.index
        guard index > 0 else { return }
        let start = try stepStart(below: index)
        do {
            while index > start {
                try undoEntry(at: index - 1)
                index -= 1
            }
        } catch {
            try? storage.setIndex(index)
            throw error
        }
        try storage.setIndex(index)
        if storage.keepsBranches { try followLatestBranch(at: index) }
    }

    /// Redoes one step (no effect at the top or while a macro is open).
    ///
    /// - Throws: The failing entry's error; the index stays just below the failing entry.
    /// - Complexity: O(k) for a step of k entries.
    public mutating func redo() throws {
        guard openMacros.isEmpty else { return }
        var index = storage.index
        guard index < storage.count else { return }
        var first = true
        do {
            while index < storage.count {
                if !first, try storage.readEntry(at: index, { $0.isSignificant }) { break }
                first = false
                if try redoEntry(at: index) { index += 1 }
                // In a tree, the step may go on in the branch below the path's end.
                if storage.keepsBranches { try followLatestBranch(at: index) }
            }
        } catch {
            try? storage.setIndex(index)
            throw error
        }
        try storage.setIndex(index)
    }

    /// The end of the step that starts at `start` (the next step boundary above it).
    ///
    /// - Complexity: O(k), k the number of insignificant entries in the step.
    public func stepEnd(above start: Int) throws(Storage.Failure) -> Int {
        var position = start + 1
        while position < storage.count, !(try storage.readEntry(at: position) { $0.isSignificant }) {
            position += 1
        }
        return position
    }

    /// Undoes exactly `steps` steps, or none.
    ///
    /// Checks first that `steps` steps can be undone. If an entry throws part of the way, the
    /// entries this call undid are redone (less those that turned obsolete and went) before the
    /// error is rethrown, as a macro reverts its children; a persistent storage's owner rolls its
    /// transaction back instead, and may count the steps itself.
    /// - Throws: ``UndoError/Code/macroOpen`` while a macro is open, ``UndoError/Code/nothingToUndo``
    ///   when fewer steps can be undone (nothing is done then), the failing entry's error, or
    ///   ``UndoError/Code/rollbackFailed`` when redoing after a failure failed too.
    /// - Complexity: O(k) for the k entries of the steps.
    public mutating func undo(steps: Int) throws {
        guard openMacros.isEmpty else { throw UndoError(.macroOpen) }
        var end = storage.index
        for _ in 0..<steps {
            guard end > 0 else { throw UndoError(.nothingToUndo) }
            end = try stepStart(below: end)
        }
        try allOrNothing { engine in for _ in 0..<steps { try engine.undo() } }
    }

    /// Redoes exactly `steps` steps, or none; the counterpart of ``undo(steps:)``.
    /// - Throws: ``UndoError/Code/macroOpen``, ``UndoError/Code/nothingToRedo``, the failing
    ///   entry's error, or ``UndoError/Code/rollbackFailed``.
    /// - Complexity: O(k) for the k entries of the steps.
    public mutating func redo(steps: Int) throws {
        guard openMacros.isEmpty else { throw UndoError(.macroOpen) }
        var start = storage.index
        for _ in 0..<steps {
            guard start < storage.count else { throw UndoError(.nothingToRedo) }
            start = try stepEnd(above: start)
        }
        try allOrNothing { engine in for _ in 0..<steps { try engine.redo() } }
    }

    /// Runs `body`, which moves the index; if it throws, moves back to where it started (less the
    /// entries that turned obsolete and went) before rethrowing.
    private mutating func allOrNothing(_ body: (inout Self) throws -> Void) throws {
        let startIndex = storage.index
        let startCount = storage.count
        do {
            try body(&self)
        } catch {
            do {
                // Entries that went were below the start (undo) or among the redone ones (redo).
                let removed = startCount - storage.count
                try setIndex(storage.index < startIndex ? startIndex - removed : startIndex)
            } catch let rollback {
                throw UndoError(.rollbackFailed, underlying: error, rollback: rollback)
            }
            throw error
        }
    }

    /// Moves to `target` (clamped to `0...count`), redoing or undoing entry by entry.
    ///
    /// Obsolete entries met on the way are removed (when redoing, the target moves down with
    /// them). Ignored while a macro is open.
    /// - Throws: The failing entry's error; the index stays next to the failing entry.
    /// - Complexity: O(|target − index|).
    public mutating func setIndex(_ target: Int) throws {
        guard openMacros.isEmpty else { return }
        var target = min(max(target, 0), storage.count)
        var index = storage.index
        do {
            while index < target {
                if try redoEntry(at: index) { index += 1 } else { target -= 1 }
            }
            while index > target {
                try undoEntry(at: index - 1)
                index -= 1
            }
        } catch {
            try? storage.setIndex(index)
            throw error
        }
        try storage.setIndex(index)
        if storage.keepsBranches { try followLatestBranch(at: index) }
    }

    /// Undoes the entry at `position` and removes it if it is obsolete afterwards.
    private func undoEntry(at position: Int) throws {
        let obsolete = try storage.modifyEntry(at: position) { entry -> Bool in
            if !entry.isObsolete { try entry.undo() }
            return entry.isObsolete
        }
        if obsolete { try removeObsolete(at: position) }
    }

    /// Redoes the entry at `position`; returns `false` if it turned obsolete and was removed.
    private func redoEntry(at position: Int) throws -> Bool {
        let obsolete = try storage.modifyEntry(at: position) { entry -> Bool in
            if !entry.isObsolete { try entry.redo() }
            return entry.isObsolete
        }
        if obsolete { try removeObsolete(at: position) }
        return !obsolete
    }

    private func removeObsolete(at position: Int) throws {
        try storage.removeEntry(at: position)
        if let clean = storage.cleanIndex, clean > position {
            try storage.setCleanIndex(nil)
        }
    }

    // MARK: - The tree

    /// The current state: the node of the last done entry, or the root when none is done.
    public func currentNode() throws(Storage.Failure) -> HistoryNode.ID {
        storage.index == 0 ? .root : try storage.nodeID(at: storage.index - 1)
    }

    /// Moves to any state of the tree: undoes up to the state both share, then redoes down the
    /// other branch, which becomes the path (the redo steps below `target` are the branch visited
    /// there last).
    ///
    /// All or nothing: when a command throws, the steps this jump ran are run back (less the
    /// entries that turned obsolete and went) and the error is a ``HistoryJumpError`` naming the step.
    /// A persistent storage's owner rolls its transaction back instead.
    /// - Throws: ``UndoError/Code/macroOpen``, ``UndoError/Code/noSuchStep`` when `target` is not in
    ///   the tree, ``HistoryJumpError``, or ``UndoError/Code/rollbackFailed``.
    /// - Complexity: O(k) for the k steps crossed, plus the branches moved onto and off the path
    ///   (O(log n) each in memory, n the number of nodes).
    /// - Parameters:
    ///   - target: The state to reach (``HistoryNode/ID/root``: before every step).
    ///   - runningBack: `false` when the caller rolls a transaction back on failure instead.
    /// - Returns: The steps undone and redone.
    @discardableResult
    public mutating func jump(
        to target: HistoryNode.ID, runningBackOnFailure runningBack: Bool = true
    ) throws -> HistoryJump {
        guard openMacros.isEmpty else { throw UndoError(.macroOpen) }
        let origin = try currentNode()
        var jump = HistoryJump()
        guard target != origin else { return jump }
        // What redo followed from the origin, and the clean state's node (parking its branch
        // forgets it), to restore both after a run back.
        let originRedo = storage.index < storage.count ? try storage.nodeID(at: storage.index) : nil
        let cleanNode = try storage.cleanIndex.map { $0 == 0 ? HistoryNode.ID.root : try storage.nodeID(at: $0 - 1) }
        do {
            try move(to: target, log: &jump)
        } catch {
            guard runningBack else { throw error }
            do {
                var rollback = HistoryJump()
                try move(to: origin, log: &rollback)
                let index = storage.index
                let redo = index < storage.count ? try storage.nodeID(at: index) : nil
                if let originRedo, redo != originRedo {
                    try storage.parkEntries(from: index)
                    try storage.unparkEntry(originRedo)
                }
                if let cleanNode, storage.cleanIndex == nil {
                    let position = cleanNode == .root ? 0 : try storage.pathPosition(of: cleanNode).map { $0 + 1 }
                    if let position { try storage.setCleanIndex(position) }
                }
            } catch let rollback {
                throw UndoError(.rollbackFailed, underlying: error, rollback: rollback)
            }
            throw error
        }
        return jump
    }

    /// The state recorded just before (`before == true`) or after the current one, on any branch
    /// (vim's `g-` and `g+`): the root before the first step; `nil` when there is none.
    public func chronologicalNeighbor(before: Bool) throws(Storage.Failure) -> HistoryNode.ID? {
        let current = try currentNode()
        if let node = try storage.chronologicalNeighbor(of: current, before: before) { return node }
        return before && current != .root ? .root : nil
    }

    /// The state as it was at a time (milliseconds since 1970): the newest node recorded then or
    /// before, or the root when every step is newer (vim's `:earlier` counts the same way).
    public func node(recordedAtOrBefore time: Int64) throws(Storage.Failure) -> HistoryNode.ID {
        try storage.latestNode(recordedAtOrBefore: time) ?? .root
    }

    /// ``jump(to:)`` without the rollback.
    private mutating func move(to target: HistoryNode.ID, log: inout HistoryJump) throws {
        if target == .root { return try walk(to: 0, log: &log) }
        if let position = try storage.pathPosition(of: target) { return try walk(to: position + 1, log: &log) }
        // A parked node: climb its parked ancestors to the node of the path it branches from.
        var chain: [HistoryNode.ID] = []
        var node = target
        while let parent = try storage.parkedParent(of: node) {
            chain.append(node)
            node = parent
        }
        guard !chain.isEmpty else { throw UndoError(.noSuchStep) }
        let fork: Int
        if node == .root {
            fork = 0
        } else {
            guard let position = try storage.pathPosition(of: node) else { throw UndoError(.noSuchStep) }
            fork = position + 1
        }
        try walk(to: fork, log: &log, followingBranches: false)
        // The path from the fork on becomes a branch; the target's becomes the path.
        let index = storage.index
        try storage.parkEntries(from: index)
        if let clean = storage.cleanIndex, clean > index { try storage.setCleanIndex(nil) }
        for node in chain.reversed() {
            try storage.unparkEntry(node)
        }
        try walk(to: storage.count, log: &log)
    }

    /// Undoes or redoes entry by entry to `target`, as ``setIndex(_:)``, naming the failing step
    /// and logging each step run.
    private mutating func walk(to target: Int, log: inout HistoryJump, followingBranches: Bool = true) throws {
        var target = min(max(target, 0), storage.count)
        var index = storage.index
        do {
            while index < target {
                let step = HistoryJump.Step(
                    id: try storage.nodeID(at: index), text: try storage.readEntry(at: index) { $0.text })
                if try runNamingTheStep(at: index, undoing: false) {
                    log.redone.append(step)
                    index += 1
                } else {
                    target -= 1
                }
            }
            while index > target {
                log.undone.append(
                    HistoryJump.Step(
                        id: try storage.nodeID(at: index - 1), text: try storage.readEntry(at: index - 1) { $0.text }))
                _ = try runNamingTheStep(at: index - 1, undoing: true)
                index -= 1
            }
        } catch {
            try? storage.setIndex(index)
            throw error
        }
        try storage.setIndex(index)
        if followingBranches && storage.keepsBranches { try followLatestBranch(at: index) }
    }

    /// Runs the entry at `position`; returns `false` if it turned obsolete and went. A command's
    /// error becomes a ``HistoryJumpError``.
    private func runNamingTheStep(at position: Int, undoing: Bool) throws -> Bool {
        do {
            if undoing {
                try undoEntry(at: position)
                return true
            }
            return try redoEntry(at: position)
        } catch let error as HistoryJumpError {
            throw error
        } catch {
            let node = (try? storage.nodeID(at: position)) ?? .root
            let text = (try? storage.readEntry(at: position) { $0.text }) ?? ""
            throw HistoryJumpError(step: node, text: text, wasUndoing: undoing, error: error)
        }
    }

    // MARK: - Macros

    /// Opens a macro: later pushes become its children, and it becomes one step when the
    /// outermost macro ends. Opening the outermost macro truncates the redo tail.
    public mutating func beginMacro(text: String) throws(Storage.Failure) {
        if openMacros.isEmpty {
            let index = storage.index
            if index < storage.count {
                try storage.parkEntries(from: index)
                if let clean = storage.cleanIndex, clean > index {
                    try storage.setCleanIndex(nil)
                }
            }
        }
        openMacros.append(OpenMacro(text: text, start: macroChildren.count))
    }

    /// Closes the innermost macro.
    ///
    /// - Parameter discardingEmpty: `true` drops a macro without children instead of
    ///   recording an empty step (registration-style groups do this; Qt keeps empty macros).
    /// - Returns: `false` if no macro was open (nothing happens).
    /// - Throws: The storage's error when the outermost macro is appended.
    @discardableResult
    public mutating func endMacro(discardingEmpty: Bool = false) throws(Storage.Failure) -> Bool {
        guard let closed = openMacros.popLast() else { return false }
        // The innermost macro's children are the buffer's tail.
        if discardingEmpty, macroChildren.count == closed.start { return true }
        let entry = Entry.macro(text: closed.text, children: Array(macroChildren[closed.start...]))
        macroChildren.removeSubrange(closed.start...)
        if !openMacros.isEmpty {
            macroChildren.append(entry)
            return true
        }
        try storage.append(entry)
        var index = storage.index + 1
        try applyUndoLimit(index: &index)
        try storage.setIndex(index)
        return true
    }

    /// Changes the text of the innermost open macro (no effect when none is open).
    public mutating func setMacroText(_ text: String) {
        guard !openMacros.isEmpty else { return }
        openMacros[openMacros.count - 1].text = text
    }

    // MARK: - Clean state, limit, clear

    /// Marks the current index clean (ignored while a macro is open).
    public func setClean() throws(Storage.Failure) {
        guard openMacros.isEmpty else { return }
        try storage.setCleanIndex(storage.index)
    }

    /// Forgets the clean index: no state is clean any more.
    public func resetClean() throws(Storage.Failure) {
        try storage.setCleanIndex(nil)
    }

    /// Sets the maximum number of entries (0: no limit), trimming the oldest done entries.
    ///
    /// Unlike Qt, the limit may change at any time. Lowering it removes the oldest entries
    /// below the index right away (never the redo tail: that goes at the next push).
    public mutating func setUndoLimit(_ limit: Int) throws(Storage.Failure) {
        undoLimit = max(0, limit)
        guard undoLimit > 0, openMacros.isEmpty else { return }
        var index = storage.index
        if storage.keepsBranches {
            try enforceUndoLimit(index: &index)
        } else {
            let excess = min(storage.count - undoLimit, index)
            guard excess > 0 else { return }
            try trim(excess, index: &index)
        }
        try storage.setIndex(index)
    }

    /// Removes every entry and open macro without running them; the empty history is clean.
    public mutating func clear() throws(Storage.Failure) {
        openMacros.removeAll()
        macroChildren.removeAll()
        if storage.count > 0 { try storage.removeEntries(from: 0) }
        try storage.setIndex(0)
        try storage.setCleanIndex(0)
    }

    // MARK: - Bulk edits

    /// Lets `body` edit every entry (and open macro child), then removes the entries that are
    /// obsolete afterwards, sliding the index; the clean index is lost if an entry below it went.
    ///
    /// Used by registration-style undo to remove all actions of one target.
    /// - Complexity: O(count) plus O(count) per removed entry.
    public mutating func editAllEntries(_ body: (inout Entry) -> Void) throws {
        for c in macroChildren.indices { body(&macroChildren[c]) }
        // Innermost first, so the starts still to visit stay valid.
        for m in openMacros.indices.reversed() {
            let children = openMacros[m].start..<childrenEnd(ofMacroAt: m)
            let kept = macroChildren[children].filter { !$0.isObsolete }
            let removed = children.count - kept.count
            guard removed > 0 else { continue }
            macroChildren.replaceSubrange(children, with: kept)
            for later in (m + 1)..<openMacros.count { openMacros[later].start -= removed }
        }
        var position = storage.count - 1
        var index = storage.index
        while position >= 0 {
            let obsolete = try storage.modifyEntry(at: position) { entry -> Bool in
                body(&entry)
                return entry.isObsolete
            }
            if obsolete {
                try removeObsolete(at: position)
                if position < index { index -= 1 }
            }
            position -= 1
        }
        try storage.setIndex(index)
        if storage.keepsBranches { try followLatestBranch(at: index) }
    }
}

@available(*, unavailable, message: "A history engine belongs to the isolation domain of the history that owns it.")
extension HistoryEngine: Sendable {}

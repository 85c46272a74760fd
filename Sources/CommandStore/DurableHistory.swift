public import CommandKit

/// An undo history stored in SQLite with the receiver's data: each step commits atomically, and
/// the whole undo/redo state survives the process.
///
/// `DurableHistory` runs CommandKit's history engine (the same rules as `UndoStack`: redo-tail
/// truncation, merging, macros, clean state, undo limit, significance) over an SQLite storage. Each
/// ``push(_:)``, ``undo()``, ``redo()``, ``setIndex(_:)``, and each outermost macro from
/// ``beginMacro(_:)`` to ``endMacro()``, is one transaction holding both the receiver's writes and
/// the history's. A crash at any instant keeps every completed call and loses the interrupted one
/// entirely. Reopening restores the index, the clean state and every entry; entries are decoded on
/// demand, so opening a history of a million entries costs what opening one of ten costs.
///
/// ```swift
/// let db = try Database.openStore(path: path, schemas: [Library.schema], configuration: configuration)
/// let library = Library(database: db)
/// var registry = CommandRegistry<Library>()
/// registry.register(DeleteAlbum.self)
/// let history = try DurableHistory(database: db, receiver: library, registry: registry)
///
/// try history.push(DeleteAlbum(albumID: 7))   // deletes and records, in one transaction
/// history.undoText                            // "Delete Album"
/// try history.undo()                          // the album is back, in this process or the next
/// ```
///
/// The receiver must keep its state in the database (or re-read it): when a call fails, its
/// transaction rolls back the receiver's writes with the history's, and in-memory copies the
/// receiver made during the call would then be stale.
///
/// A `DurableHistory` is not `Sendable`: it lives in the isolation domain of its ``Database``.
public final class DurableHistory<Receiver> {
    /// The connection the history and its receiver write through.
    public let database: Database
    /// What the commands run against.
    public let receiver: Receiver
    /// The command types the history can decode.
    public let registry: CommandRegistry<Receiver>

    // Mutable state opts out of the runtime's exclusivity checks: `activity` refuses re-entrant
    // calls (a command calling its own history), which is the overlap those checks would catch.
    @exclusivity(unchecked) private var engine: HistoryEngine<SQLiteHistoryStorage>
    /// The engine's storage, kept apart so reading it never touches `engine`, which a running
    /// operation holds exclusively (a command may read the history while it runs).
    private let storage: SQLiteHistoryStorage
    /// The state as of the last call; its texts are out of date while `textsAreStale`.
    @exclusivity(unchecked) private var cachedState: UndoState
    /// Whether the last call changed the history without computing the Undo/Redo texts: they are
    /// read on demand, since a caller pushing many commands rarely shows every text (they cost a
    /// sixth of a push).
    @exclusivity(unchecked) private var textsAreStale = false

    @exclusivity(unchecked) private var activity = DurableHistoryActivity.idle
    /// Present once someone observes (``changes``, ``model``): until then no call reads texts for them.
    @exclusivity(unchecked) private var observers: HistoryObservers?

    private static var macroSavepoint: String { "commandstore_macro" }

    /// Opens the history stored in `database`.
    ///
    /// Reads the header row and decodes at most the entries next to the index (for the Undo/Redo
    /// texts), whatever the history's length.
    ///
    /// - Parameters:
    ///   - database: A connection opened with ``Database/openStore(path:schemas:configuration:)``.
    ///   - receiver: What the commands run against.
    ///   - registry: The command types stored in this history.
    /// - Throws: ``StoreError`` when the database has no history tables, or when an entry next to
    ///   the index has an unknown kind or does not decode; ``DatabaseError`` from SQLite.
    /// - Complexity: O(1) in the number of entries.
    public init(database: Database, receiver: Receiver, registry: CommandRegistry<Receiver>) throws {
        self.database = database
        self.receiver = receiver
        self.registry = registry
        let storage = try SQLiteHistoryStorage(
            database: database,
            commands: BoundCommandDecoder(registry: registry, receiver: receiver)
        )
        self.storage = storage
        engine = HistoryEngine(storage: storage, undoLimit: storage.undoLimit)
        cachedState = try engine.state()
    }

    deinit {
        observers?.finish()
        // An outermost macro still open: its changes were never committed; drop them.
        switch activity {
        case .macro(let scope), .runningInMacro(let scope):
            try? rollback(scope)
        case .idle, .running:
            break
        }
    }

    // MARK: - State

    /// The index, count, clean state, texts and macro depth, as of the last call.
    ///
    /// The texts are read from the entries next to the index on first use after a call, and kept.
    /// If that read fails (an I/O error, a damaged row), the text is empty; the next operation
    /// reaching that entry reports the problem.
    public var state: UndoState { stateWithTexts() }
    /// Whether ``undo()`` would do something (`false` while a macro is open).
    public var canUndo: Bool { cachedState.canUndo }
    /// Whether ``redo()`` would do something (`false` while a macro is open).
    public var canRedo: Bool { cachedState.canRedo }
    /// The action text of the step the next undo reverts ("" when none).
    public var undoText: String { stateWithTexts().undoText }
    /// The action text of the step the next redo applies ("" when none).
    public var redoText: String { stateWithTexts().redoText }
    /// The number of entries done (`0...count`).
    public var index: Int { cachedState.index }
    /// The number of entries (a closed macro counts once).
    public var count: Int { cachedState.count }
    /// The index marked clean, or `nil` when it can no longer be reached.
    public var cleanIndex: Int? { cachedState.cleanIndex }
    /// Whether the history is at its clean index (and no macro is open).
    public var isClean: Bool { cachedState.isClean }
    /// How many macros are open.
    public var macroDepth: Int { cachedState.macroDepth }
    /// The maximum number of entries kept (0: no limit); stored with the history.
    public var undoLimit: Int { storage.undoLimit }

    /// The text of the entry at a position, as stored with it.
    ///
    /// Reads the entry's row without its payload and decodes nothing, so it works for entries whose
    /// command kind this program does not know (their undo or redo reports that).
    ///
    /// - Parameter position: A position in `0..<count`.
    /// - Returns: The entry's ``PersistentCommand/text``, or the macro's text.
    /// - Throws: ``StoreError`` when the entry's row is missing or damaged, or a ``DatabaseError``.
    /// - Complexity: O(1): one indexed row, its payload left unread.
    /// - Precondition: `position` is in `0..<count`.
    public func text(at position: Int) throws -> String {
        try storage.entry(at: position).text
    }

    /// Decodes every entry, and throws the first problem: an unknown kind, a version this program
    /// cannot read, data that does not decode.
    ///
    /// Opening a history decodes nothing, and an entry that cannot be decoded is reported by the
    /// undo or redo that reaches it. Call this to find such entries up front (after an upgrade,
    /// in a maintenance command).
    /// - Throws: The first ``StoreError`` found, naming the file and the entry.
    /// - Complexity: O(count): every entry is read and decoded.
    public func verifyEntries() throws {
        for position in 0..<storage.count {
            var entry = try storage.entry(at: position)
            try entry.decode()
        }
    }

    // MARK: - Observation

    /// The history's changes, as an asynchronous sequence of events.
    ///
    /// Each access returns a new stream that receives every change from then on, made through this
    /// history object (buffered without limit); it finishes when the history is deallocated. Events
    /// follow `UndoStack`'s rules (see `UndoChange`), with one addition: ``reload()`` delivers a
    /// `reload` event when what it read differs. Changes another process commits are seen at the
    /// next call or ``reload()``, not as they happen.
    ///
    /// ```swift
    /// for await change in history.changes where change.undoTextChanged {
    ///     undoMenuItem.title = "Undo \(change.new.undoText)"
    /// }
    /// ```
    public var changes: AsyncStream<UndoChange> {
        observation.makeStream()
    }

    /// An `@Observable` mirror of the history's state, for SwiftUI and `withObservationTracking`.
    ///
    /// Created on first access; from then on it is updated after every change (its texts are then
    /// read after each call, one indexed row each).
    public var model: UndoStackModel {
        observation.observableModel()
    }

    /// The observers, created on first use.
    private var observation: HistoryObservers {
        if let observers { return observers }
        let created = HistoryObservers(state: stateWithTexts())
        observers = created
        return created
    }

    // MARK: - Operations

    /// Runs the command against the receiver and records it, in one transaction.
    ///
    /// The engine's rules apply: the redo tail is dropped, the command may merge into the entry
    /// below, the oldest entries beyond ``undoLimit`` are deleted. Inside a macro the command becomes
    /// one of its children (a failing child is rolled back alone, and the macro goes on).
    ///
    /// - Parameter command: The command; it must be registered in ``registry`` to be read back.
    /// - Throws: What the command throws, or a ``DatabaseError``; either way nothing is recorded and
    ///   the receiver's writes are rolled back.
    /// - Complexity: O(1) database statements, plus the size of a dropped redo tail.
    public func push<Command: PersistentCommand>(_ command: Command) throws where Command.Receiver == Receiver {
        let entry = DurableEntry(content: .command(ReceiverBoundCommand(command, receiver: receiver)))
        try perform(.push, always: macroDepth == 0) { engine in try engine.push(entry) }
    }

    /// Undoes one step (a significant entry and the insignificant ones after it), in one transaction.
    ///
    /// Does nothing at index 0 or while a macro is open.
    /// - Throws: What a command throws, or a ``DatabaseError``; the whole step is then rolled back.
    public func undo() throws {
        try perform(.undo) { engine in try engine.undo() }
    }

    /// Redoes one step, in one transaction. Does nothing at the top or while a macro is open.
    ///
    /// - Throws: What a command throws, or a ``DatabaseError``; the whole step is then rolled back.
    public func redo() throws {
        try perform(.redo) { engine in try engine.redo() }
    }

    /// Undoes or redoes entry by entry to `index` (clamped to `0...count`), in one transaction.
    ///
    /// - Parameter index: The target index.
    /// - Throws: What a command throws, or a ``DatabaseError``; the whole jump is then rolled back.
    /// - Complexity: O(|index − current index|) entries run.
    public func setIndex(_ index: Int) throws {
        try perform(.jump) { engine in try engine.setIndex(index) }
    }

    /// Opens a macro: the commands pushed until the matching ``endMacro()`` become one step.
    ///
    /// The outermost macro opens a transaction (a savepoint if you already hold one) that stays open
    /// until its ``endMacro()``: a crash before then loses the whole macro, never part of it.
    /// - Parameter text: The step's text.
    /// - Throws: A ``DatabaseError`` when the transaction cannot start.
    public func beginMacro(_ text: String) throws {
        switch activity {
        case .idle:
            let scope: MacroScope = database.isInsideTransaction ? .savepoint : .transaction
            try begin(scope)
            activity = .running
            do {
                try storage.reloadIfChangedElsewhere()
                try engine.beginMacro(text: text)
                // The redo tail is gone already: the header must say so before any child's savepoint.
                try storage.flushHeader()
                setState(try engine.state())
                activity = .macro(scope)
            } catch {
                activity = .idle
                // The engine may have opened the macro before the failure: close it, empty, or
                // the next push would run its command and record it only in memory.
                if engine.macroDepth > 0 { _ = try? engine.endMacro(discardingEmpty: true) }
                try? rollback(scope)
                try? storage.reload()
                if let state = try? engine.state() { setState(state) }
                publish(.beginMacro)
                throw error
            }
            publish(.beginMacro)
        case .macro:
            try engine.beginMacro(text: text)
            setState(try engine.state())
            publish(.beginMacro)
        case .running, .runningInMacro:
            throw reentrancyError("beginMacro")
        }
    }

    /// Closes the innermost macro; closing the outermost one records it and commits its transaction.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/macroState`` when no macro is open, or a
    ///   ``DatabaseError`` from the commit (the whole macro is then rolled back).
    public func endMacro() throws {
        switch activity {
        case .idle:
            throw StoreError(.macroState, "endMacro() without a matching beginMacro(_:)", path: database.path)
        case .running, .runningInMacro:
            throw reentrancyError("endMacro")
        case .macro(let scope):
            guard engine.macroDepth == 1 else {
                try engine.endMacro()
                setState(try engine.state())
                publish(.endMacro)
                return
            }
            activity = .running
            do {
                try engine.endMacro()
                try storage.flushHeader()
                let state = try engine.state()
                try commit(scope)
                if case .transaction = scope { storage.noteCommitted() }
                setState(state)
                activity = .idle
            } catch {
                activity = .idle
                try? rollback(scope)
                try? storage.reload()
                if let state = try? engine.state() { setState(state) }
                publish(.endMacro)
                throw error
            }
            publish(.endMacro)
        }
    }

    /// Marks the current index clean ("document saved"). Ignored while a macro is open.
    ///
    /// - Throws: A ``DatabaseError``.
    public func setClean() throws {
        try perform(.setClean) { engine in try engine.setClean() }
    }

    /// Forgets the clean index: no state is clean any more.
    ///
    /// - Throws: A ``DatabaseError``.
    public func resetClean() throws {
        try perform(.resetClean) { engine in try engine.resetClean() }
    }

    /// Sets the maximum number of entries (0: no limit), deleting the oldest done entries beyond it.
    ///
    /// The limit is stored with the history and restored at open.
    /// - Parameter limit: The new limit.
    /// - Throws: A ``DatabaseError``.
    /// - Complexity: O(k) for k deleted entries.
    public func setUndoLimit(_ limit: Int) throws {
        try perform(.setUndoLimit) { engine in
            try engine.setUndoLimit(limit)
            engine.storage.undoLimit = engine.undoLimit
        }
    }

    /// Removes every entry without running them; the empty history is clean.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/macroState`` while a macro is open (its
    ///   transaction must end first), or a ``DatabaseError``.
    public func clear() throws {
        if case .macro = activity {
            throw StoreError(.macroState, "clear() while a macro is open: end it first", path: database.path)
        }
        try perform(.clear) { engine in try engine.clear() }
    }

    /// Rereads the history from the database.
    ///
    /// Call it after rolling back a transaction of your own that enclosed history calls: the history
    /// then forgets what those calls did.
    /// - Throws: ``StoreError`` or ``DatabaseError`` as ``init(database:receiver:registry:)``.
    public func reload() throws {
        switch activity {
        case .idle, .macro: break
        case .running, .runningInMacro: throw reentrancyError("reload")
        }
        try storage.reload()
        setState(try engine.state())
        publish(.reload)
    }

    // MARK: - Transactions

    /// Runs one engine operation in its own transaction (a savepoint inside an open macro or inside
    /// the caller's transaction), then refreshes the state.
    private func perform(
        _ change: UndoChange.Operation,
        always: Bool = false,
        _ operation: (inout HistoryEngine<SQLiteHistoryStorage>) throws -> Void
    ) throws {
        let macroScope: MacroScope?
        switch activity {
        case .idle: macroScope = nil
        case .macro(let scope): macroScope = scope
        // Refused before anything is published: the call that is running publishes when it ends.
        case .running, .runningInMacro: throw reentrancyError("a history call")
        }
        var succeeded = false
        // Runs after `activity` is restored (the defer below runs first): observers may use the history.
        defer { publish(change, always: always && succeeded) }
        activity = macroScope.map { .runningInMacro($0) } ?? .running
        defer { activity = macroScope.map { .macro($0) } ?? .idle }
        do {
            // Nested in a macro's (or the caller's) transaction, this is a savepoint: a failing
            // command is undone alone.
            try database.inTransaction {
                // Another process may have changed the history since we last read it; inside an
                // open macro we hold the write lock since beginMacro, which refreshed.
                if macroScope == nil { try storage.reloadIfChangedElsewhere() }
                try operation(&engine)
                try storage.flushHeader()
                return .commit
            }
            if macroScope == nil { storage.noteCommitted() }
            assert(engine.macroDepth == cachedState.macroDepth, "a history call opened or closed a macro")
            cachedState = stateWithoutTexts()
            textsAreStale = true
            succeeded = true
        } catch {
            try? storage.reload()
            if let state = try? engine.state() { setState(state) }
            throw error
        }
    }

    /// The state after a call, but for the texts (left empty), read from the storage's header.
    ///
    /// `perform` never opens or closes a macro, so the macro depth is the one before the call; the
    /// flags follow the engine's definitions (`HistoryEngine.canUndo` and friends: a history with
    /// an open macro is disabled). Asking the unspecialized engine for each cost a twentieth of a push.
    private func stateWithoutTexts() -> UndoState {
        let macroDepth = cachedState.macroDepth
        let enabled = macroDepth == 0
        let index = storage.index
        let count = storage.count
        let cleanIndex = storage.cleanIndex
        return UndoState(
            index: index,
            count: count,
            cleanIndex: cleanIndex,
            isClean: enabled && cleanIndex == index,
            canUndo: enabled && index > 0,
            canRedo: enabled && index < count,
            macroDepth: macroDepth
        )
    }

    /// Tells the observers, if any, what the call did: the state, texts read now, when it changed
    /// (or `always`).
    private func publish(_ change: UndoChange.Operation, always: Bool = false) {
        guard let observers else { return }
        observers.publish(change, state: stateWithTexts(), always: always)
    }

    /// Keeps a complete state (texts included).
    private func setState(_ state: UndoState) {
        cachedState = state
        textsAreStale = false
    }

    /// The state, with its texts read now if the last call left them stale.
    ///
    /// Reads through an engine made for the purpose over the same storage: `engine` may be held
    /// by a running call (a command reading the history), and the texts only need open macros,
    /// which are none whenever there is a text to show.
    private func stateWithTexts() -> UndoState {
        guard textsAreStale else { return cachedState }
        var state = cachedState
        let reader = HistoryEngine(storage: storage)
        state.undoText = state.canUndo ? ((try? reader.undoText()) ?? "") : ""
        state.redoText = state.canRedo ? ((try? reader.redoText()) ?? "") : ""
        // During a running call the storage may be half-way: do not keep what was read then.
        switch activity {
        case .idle, .macro: setState(state)
        case .running, .runningInMacro: break
        }
        return state
    }

    private func begin(_ scope: MacroScope) throws {
        switch scope {
        case .transaction: try database.execute("BEGIN IMMEDIATE TRANSACTION")
        case .savepoint: try database.execute("SAVEPOINT \(Self.macroSavepoint)")
        }
    }

    private func commit(_ scope: MacroScope) throws {
        switch scope {
        case .transaction: try database.execute("COMMIT TRANSACTION")
        case .savepoint: try database.execute("RELEASE SAVEPOINT \(Self.macroSavepoint)")
        }
    }

    private func rollback(_ scope: MacroScope) throws {
        guard database.isInsideTransaction else { return }
        switch scope {
        case .transaction:
            try database.execute("ROLLBACK TRANSACTION")
        case .savepoint:
            try database.execute("ROLLBACK TO SAVEPOINT \(Self.macroSavepoint)")
            try database.execute("RELEASE SAVEPOINT \(Self.macroSavepoint)")
        }
    }

    private func reentrancyError(_ call: String) -> StoreError {
        StoreError(
            .macroState,
            "\(call) was made from inside a running history call (a command must not call its own history)",
            path: database.path
        )
    }
}

// Outside the generic class: nested there, they would be generic too, and each use would cost a
// run-time metadata look-up.

/// What a ``DurableHistory`` has in progress: the transaction of an open outermost macro, or a call
/// running now.
private enum DurableHistoryActivity {
    case idle
    case running
    case macro(MacroScope)
    case runningInMacro(MacroScope)
}

/// How an outermost macro holds its changes until it ends.
private enum MacroScope {
    /// A transaction of its own.
    case transaction
    /// A savepoint inside the caller's transaction.
    case savepoint
}

@available(*, unavailable, message: "A DurableHistory belongs to its Database's isolation domain.")
extension DurableHistory: Sendable {}

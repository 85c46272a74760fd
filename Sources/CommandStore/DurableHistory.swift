public import CommandKit
public import SQLiteDatabase

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
/// A `DurableHistory` is not `Sendable`: it lives in the isolation domain of its `Database`.
///
/// ## Performance notes
///
/// A push costs about twice a raw SQLite insert of the same row (BENCHMARKS.md, "Durable
/// history"). What keeps it there: the Undo/Redo texts are read on demand, not after every call
/// (reading them cost a sixth of a push), unless someone observes the history; the state after a
/// call is assembled from the storage's header instead of asking the generic engine for each part
/// (a twentieth); the mutable properties skip the runtime's exclusivity checks, since a re-entrant
/// call is refused by the history itself, which is the overlap those checks would catch.
public final class DurableHistory<Receiver> {
    /// The connection the history and its receiver write through.
    public let database: Database
    /// What the commands run against.
    public let receiver: Receiver
    /// The command types the history can decode.
    public let registry: CommandRegistry<Receiver>

    // Exclusivity checks skipped: see "Performance notes" (`activity` refuses re-entrant calls).
    @exclusivity(unchecked) package var engine: HistoryEngine<SQLiteHistoryStorage>
    /// The engine's storage, kept apart so reading it never touches `engine`, which a running
    /// operation holds exclusively (a command may read the history while it runs). Internal for
    /// the extensions in files of their own (`DurableHistory+Revision.swift`).
    package let storage: SQLiteHistoryStorage
    /// The state as of the last call; its texts are out of date while `textsAreStale`.
    @exclusivity(unchecked) private var cachedState: UndoState
    /// Whether the last call changed the history without computing the Undo/Redo texts: they are
    /// read on demand, since a caller pushing many commands rarely shows every text.
    @exclusivity(unchecked) private var textsAreStale = false
    /// The records of the steps the next undo and redo apply, read with the texts.
    @exclusivity(unchecked) private var cachedRecords: (undo: HistoryRecord?, redo: HistoryRecord?) = (nil, nil)

    @exclusivity(unchecked) private var activity = DurableHistoryActivity.idle
    /// Present once someone observes (``changes``, ``model``): until then no call reads texts for them.
    @exclusivity(unchecked) package var observers: HistoryObservers?

    private static var macroSavepoint: String { "commandstore_macro" }

    /// Opens the history stored in `database`.
    ///
    /// Reads the header row and decodes at most the entries next to the index (for the Undo/Redo
    /// texts), whatever the history's length.
    ///
    /// - Parameters:
    ///   - database: A connection opened with `Database/openStore(path:schemas:configuration:)`.
    ///   - receiver: What the commands run against.
    ///   - registry: The command types stored in this history.
    /// - Throws: ``StoreError`` when the database has no history tables, or when an entry next to
    ///   the index has an unknown kind or does not decode; `DatabaseError` from SQLite.
    /// - Complexity: O(1) in the number of entries.
    /// - Parameter keepsBranches: `true` makes the history keep branches from now on (a push after
    ///   an undo parks the redo steps instead of removing them; see `CommandKit`'s "Time travel").
    ///   The choice is stored: once on, the history keeps branches for every process that opens it.
    ///   `false` (the default) keeps what the file says.
    public init(
        database: Database, receiver: Receiver, registry: CommandRegistry<Receiver>, keepsBranches: Bool = false
    ) throws {
        self.database = database
        self.receiver = receiver
        self.registry = registry
        // One read transaction: the header, and the entries the texts and records are read from,
        // of one snapshot. Read apart, another process's commit in between (a push dropping the
        // redo tail) made entries the header still counted look lost, as in a damaged file.
        var opened:
            (
                storage: SQLiteHistoryStorage, engine: HistoryEngine<SQLiteHistoryStorage>, state: UndoState,
                records: (undo: HistoryRecord?, redo: HistoryRecord?)
            )?
        try database.inTransaction(.deferred) {
            let storage = try SQLiteHistoryStorage(
                database: database,
                commands: BoundCommandDecoder(registry: registry, receiver: receiver)
            )
            let engine = HistoryEngine(storage: storage, undoLimit: storage.undoLimit)
            opened = (storage, engine, try engine.state(), try DurableHistory.records(engine))
            return .commit
        }
        guard let opened else { preconditionFailure("the opening transaction returned without reading") }
        storage = opened.storage
        engine = opened.engine
        cachedState = opened.state
        cachedRecords = opened.records
        // Written with the first change: opening writes nothing (a read-only library still opens).
        if keepsBranches { storage.startKeepingBranches() }
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

    /// The index, count, clean state, texts and macro depth, as committed now.
    ///
    /// Every read outside a call first checks for other connections' commits (one statement,
    /// `PRAGMA data_version`, reading no table) and, when there was one, rereads the state as
    /// ``refresh()`` does (and publishes a `reload` event): what a view shows is the state the next
    /// ``undo()`` starts from, with no ``refresh()`` needed. The texts are read from the entries next
    /// to the index on first use after a change, in one read transaction with the state they belong
    /// to, and kept. If that read fails (an I/O error, a damaged row), the text is empty; the next
    /// operation reaching that entry reports the problem. Inside a running call or an open macro
    /// (which holds the write lock: nothing else can commit), the state is the one in memory;
    /// inside a transaction of your own, it is that transaction's snapshot.
    ///
    /// Read ``state`` once rather than several of the properties below when a view shows them
    /// together: each property pays the check.
    public var state: UndoState { stateWithTexts() }
    /// Whether ``undo()`` would do something (`false` while a macro is open), as committed now.
    public var canUndo: Bool { committedState().canUndo }
    /// Whether ``redo()`` would do something (`false` while a macro is open), as committed now.
    public var canRedo: Bool { committedState().canRedo }
    /// The action text of the step the next undo reverts ("" when none), as committed now.
    public var undoText: String { stateWithTexts().undoText }
    /// The action text of the step the next redo applies ("" when none), as committed now.
    public var redoText: String { stateWithTexts().redoText }
    /// The number of entries done (`0...count`), as committed now.
    public var index: Int { committedState().index }
    /// The number of entries (a closed macro counts once; an open outermost macro counts too, as in
    /// `UndoStack` and Qt), as committed now.
    public var count: Int { committedState().count }
    /// The index marked clean, or `nil` when it can no longer be reached, as committed now.
    public var cleanIndex: Int? { committedState().cleanIndex }
    /// Whether the history is at its clean index (and no macro is open), as committed now.
    public var isClean: Bool { committedState().isClean }
    /// How many macros are open (this history's own: another process's macro is not seen until it
    /// commits).
    public var macroDepth: Int { cachedState.macroDepth }
    /// The maximum number of entries kept (0: no limit); stored with the history, changed with
    /// ``setUndoLimit(_:)``, as committed now.
    public var undoLimit: Int {
        _ = committedState()
        return storage.undoLimit
    }

    /// The record of the step the next undo reverts (its first entry), or `nil` when there is none.
    ///
    /// Read with ``undoText``, in the same transaction, as committed now (see ``state``). Keep the
    /// record a view shows and pass its ``HistoryRecord/id`` to ``undo(steps:expecting:)`` to undo
    /// this step only if it is still the last one.
    public var undoRecord: HistoryRecord? {
        _ = stateWithTexts()
        return cachedRecords.undo
    }

    /// The record of the step the next redo applies, or `nil` when there is none.
    ///
    /// Read with ``redoText``, in the same transaction, as committed now (see ``state``). Keep the
    /// record a view shows and pass its ``HistoryRecord/id`` to ``redo(steps:expecting:)`` to redo
    /// this step only if it is still the next one.
    public var redoRecord: HistoryRecord? {
        _ = stateWithTexts()
        return cachedRecords.redo
    }

    /// The text of the entry at a position, as stored with it.
    ///
    /// Reads the entry's row without its payload and decodes nothing, so it works for entries whose
    /// command kind this program does not know (their undo or redo reports that).
    ///
    /// - Parameter position: A position in `0..<count`.
    /// - Returns: The entry's ``PersistentCommand/text``, or the macro's text.
    /// - Throws: ``StoreError`` when the entry's row is missing or damaged, or a `DatabaseError`.
    /// - Complexity: O(1): one indexed row, its payload left unread.
    /// - Precondition: `position` is in `0..<count`.
    public func text(at position: Int) throws -> String {
        try textOfEntry(at: position)
    }

    /// The command at a position, decoded from its row: what `UndoStack.command(at:)` is for a stack.
    ///
    /// Unlike ``text(at:)`` and ``record(at:)``, this reads the entry's payload and runs its type's
    /// decoder (``PersistentCommand/decode(_:version:)``): use it to inspect a step, not to list the
    /// history. The command is a copy; changing it changes nothing stored. While a macro is open,
    /// position `count - 1` is the open macro with the children pushed so far.
    ///
    /// - Parameter position: A position in `0..<count`.
    /// - Returns: The command, or the macro with its decoded children.
    /// - Throws: ``StoreError`` as ``record(at:)``, and when the entry cannot be decoded
    ///   (``StoreError/Code/unknownCommandKind``, ``StoreError/Code/unsupportedCommandVersion``,
    ///   ``StoreError/Code/invalidCommandData``), or a `DatabaseError`.
    /// - Complexity: O(size of the entry): one indexed row, its payload decoded.
    public func command(at position: Int) throws -> DurableCommand<Receiver> {
        try decodedCommand(at: position)
    }

    /// The record of the entry at a position: its identity, texts and time, as stored with it.
    ///
    /// Positions are those of the last call or ``refresh()``. The row is read in a read
    /// transaction; if another process has changed the history since, the history rereads its state
    /// first, and a position that no longer exists is reported as an error rather than read.
    ///
    /// - Parameter position: A position in `0..<count`.
    /// - Returns: The entry's record.
    /// - Throws: ``StoreError`` with code ``StoreError/Code/historyChanged`` when another process
    ///   has shortened the history below `position`, ``StoreError/Code/corruptDatabase`` when the
    ///   entry's row is missing or damaged, or a `DatabaseError`.
    /// - Complexity: O(1): one indexed row, its payload left unread.
    public func record(at position: Int) throws -> HistoryRecord {
        try recordOfEntry(at: position)
    }

    /// Every entry's record, oldest first, with its node in the tree, and the index, read in one
    /// transaction.
    ///
    /// The history first rereads what other processes committed, so the records, their nodes and
    /// the index describe one committed state, and so does the revision read with them.
    /// - Returns: The records (`count` of them); `nodes[i]`, the node of `records[i]`: the number
    ///   ``jump(to:expecting:)`` takes and ``tree()`` shows (it differs from the position once a
    ///   branch was parked or early entries trimmed); the number of entries done; and the
    ///   ``revision`` of that state.
    /// - Throws: ``StoreError`` when an entry's row is missing or damaged, or a `DatabaseError`.
    /// - Complexity: O(count): each entry's row is read without its payload, the nodes from their index.
    public func records() throws -> (records: [HistoryRecord], nodes: [HistoryNode.ID], index: Int, revision: Int) {
        try readCommitted {
            let records = try (0..<storage.count).map { try storage.record(at: $0) }
            return (records, records.isEmpty ? [] : try storage.pathNodeIDs(), storage.index, storage.revision)
        }.value
    }

    /// The number of entries done, as committed now; inside an operation (the `makeCommand` of
    /// ``push(_:)-(()->Command)``), of the state that operation changes, where ``index`` is the last
    /// operation's.
    ///
    /// - Throws: A `DatabaseError` if the header cannot be read.
    public func committedIndex() throws -> Int {
        try readCommitted { storage.index }.value
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
        try readCommitted {
            for position in 0..<storage.count {
                var entry = try storage.entry(at: position)
                try entry.decode()
            }
        }
    }

    // MARK: - Observation

    /// The history's changes, as an asynchronous sequence of events.
    ///
    /// Each access returns a new stream, subscribed at once, that receives every change from then
    /// on (buffered without limit); it finishes when the history is deallocated. Take it before
    /// starting the task that reads it. Events follow `UndoStack`'s rules (see `UndoChange`), with
    /// one addition: ``reload()`` and ``refresh()`` deliver a `reload` event when what they read
    /// differs, and so does any read of the state that finds another process's commit. Changes
    /// another process commits are seen at the next call, the next read of the state,
    /// ``refresh()`` or ``watchExternalChanges(every:)``, not as they happen.
    ///
    /// ```swift
    /// let changes = history.changes  // subscribed now
    /// Task { @MainActor in
    ///     for await change in changes where change.undoTextChanged {
    ///         undoMenuItem.title = "Undo \(change.new.undoText)"
    ///     }
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

    /// Calls `handler` synchronously after every change, on the history's isolation domain: after
    /// each call that changed the state (its transaction is over: the handler may use the history),
    /// and after a ``refresh()`` or ``reload()`` that found another process's changes.
    ///
    /// Observing makes each call read the Undo/Redo texts too (one indexed row each).
    /// - Parameter handler: Receives each change.
    /// - Returns: The token that removes it.
    @discardableResult
    public func addChangeHandler(_ handler: @escaping (UndoChange) -> Void) -> UndoChangeHandlerToken {
        observation.addChangeHandler(handler)
    }

    /// Removes a change handler added with ``addChangeHandler(_:)``.
    public func removeChangeHandler(_ token: UndoChangeHandlerToken) {
        removeObservingHandler(token)
    }

    // MARK: - Operations

    /// Runs the command against the receiver and records it, in one transaction.
    ///
    /// The engine's rules apply: the redo tail is dropped, the command may merge into the entry
    /// below, the oldest entries beyond ``undoLimit`` are deleted. Inside a macro the command becomes
    /// one of its children (a failing child is rolled back alone, and the macro goes on).
    ///
    /// - Parameter command: The command; it must be registered in ``registry`` to be read back.
    /// - Returns: The command as it ran: what its `redo(on:)` recorded (a new row's id, the album
    ///   it deleted) is there.
    /// - Throws: What the command throws, or a `DatabaseError`; either way nothing is recorded and
    ///   the receiver's writes are rolled back.
    /// - Complexity: O(1) database statements, plus the size of a dropped redo tail.
    @discardableResult
    public func push<Command: PersistentCommand>(_ command: Command) throws -> Command
    where Command.Receiver == Receiver {
        try push { command }
    }

    /// Makes a command inside the write transaction, then runs and records it there.
    ///
    /// Use it when the command depends on the data: `makeCommand` runs after the transaction has
    /// begun, so it sees every commit of other processes and none can land before the push. Values
    /// read before the call (a count, a position) may be out of date by then.
    ///
    /// ```swift
    /// // Appends at the end of the library as committed now, not as it was when the count was read.
    /// let added = try history.push { AddAlbum(album, at: try library.count() + 1) }
    /// ```
    ///
    /// - Parameter makeCommand: Makes the command; it may read (and write) through ``database``.
    /// - Returns: The command as it ran.
    /// - Throws: What `makeCommand` or the command throws, or a `DatabaseError`; nothing is then
    ///   recorded and every write of the call is rolled back.
    @discardableResult
    public func push<Command: PersistentCommand>(_ makeCommand: () throws -> Command) throws -> Command
    where Command.Receiver == Receiver {
        try pushMaking(makeCommand)
    }

    /// Undoes one step (a significant entry and the insignificant ones after it), in one transaction.
    ///
    /// The step is the last one as committed when the transaction begins, whichever process
    /// recorded it. Does nothing at index 0 or while a macro is open.
    /// - Throws: What a command throws, or a `DatabaseError`; the whole step is then rolled back.
    public func undo() throws {
        try perform(.undo) { engine in try engine.undo() }
    }

    /// Redoes one step, in one transaction. Does nothing at the top or while a macro is open.
    ///
    /// - Throws: What a command throws, or a `DatabaseError`; the whole step is then rolled back.
    public func redo() throws {
        try perform(.redo) { engine in try engine.redo() }
    }

    /// Undoes exactly `steps` steps, counted from the committed history, in one transaction.
    ///
    /// The count starts at the index as committed when the write transaction begins, after every
    /// other process's commit, never at an index read before. With `expected`, the call acts only
    /// if the step it would undo first is still that one: a view passes the ``undoRecord`` it
    /// showed, so that a change made meanwhile by another process is refused rather than undone.
    ///
    /// ```swift
    /// let shown = history.undoRecord                 // on the Undo button
    /// let undone = try history.undo(steps: 1, expecting: shown?.id)
    /// print("Undid \(undone[0].actionText)")        // the step that was undone, read in its transaction
    /// ```
    ///
    /// - Parameters:
    ///   - steps: How many steps, at least 1.
    ///   - expected: The identity of the step the caller expects to undo first, or `nil` for
    ///     "the last step, whatever it is".
    /// - Returns: The records of the undone steps (each step's first entry), most recent first.
    /// - Throws: ``StoreError`` with code ``StoreError/Code/historyChanged`` when the last step is
    ///   not `expected` (its message names the step that is last now),
    ///   ``StoreError/Code/nothingToUndo`` when fewer than `steps` steps can be undone,
    ///   ``StoreError/Code/macroState`` while a macro is open; what a command throws; a
    ///   `DatabaseError`. In every case nothing is undone.
    /// - Complexity: O(k) for the k entries of the undone steps. A count above the index (more
    ///   steps than there are entries below it) is refused from the header before any command
    ///   runs; only the rows below the index are then read, to say how many steps there are.
    @discardableResult
    public func undo(steps: Int, expecting expected: HistoryRecord.ID? = nil) throws -> [HistoryRecord] {
        try undoSteps(steps, expecting: expected)
    }

    /// Redoes exactly `steps` steps, counted from the committed history, in one transaction.
    ///
    /// The counterpart of ``undo(steps:expecting:)``: with `expected`, the call acts only if the
    /// step it would redo first is still that one (the ``redoRecord`` a view showed).
    ///
    /// - Parameters:
    ///   - steps: How many steps, at least 1.
    ///   - expected: The identity of the step the caller expects to redo first, or `nil` for
    ///     "the next step, whatever it is".
    /// - Returns: The records of the redone steps (each step's first entry), oldest first.
    /// - Throws: ``StoreError`` with code ``StoreError/Code/historyChanged`` when the next step is
    ///   not `expected`, ``StoreError/Code/nothingToRedo`` when fewer than `steps` steps can be
    ///   redone, ``StoreError/Code/macroState`` while a macro is open; what a command throws; a
    ///   `DatabaseError`. In every case nothing is redone.
    /// - Complexity: O(k) for the k entries of the redone steps. A count above the entries a redo
    ///   could reach (those above the index, and the parked ones in a tree) is refused before any
    ///   command runs; only their rows are then read, to say how many steps there are.
    @discardableResult
    public func redo(steps: Int, expecting expected: HistoryRecord.ID? = nil) throws -> [HistoryRecord] {
        try redoSteps(steps, expecting: expected)
    }

    /// Undoes or redoes entry by entry to `index` (clamped to `0...count`), in one transaction.
    ///
    /// - Parameter index: The target index.
    /// - Throws: What a command throws, or a `DatabaseError`; the whole jump is then rolled back.
    /// - Complexity: O(|index − current index|) entries run.
    public func setIndex(_ index: Int) throws {
        try perform(.jump) { engine in try engine.setIndex(index) }
    }

    /// Opens a macro: the commands pushed until the matching ``endMacro()`` become one step.
    ///
    /// The outermost macro opens a transaction (a savepoint if you already hold one) that stays open
    /// until its ``endMacro()``: a crash before then loses the whole macro, never part of it.
    /// - Parameter text: The step's text.
    /// - Throws: A `DatabaseError` when the transaction cannot start.
    public func beginMacro(_ text: String) throws {
        switch activity {
        case .idle:
            let scope: MacroScope = database.isInsideTransaction ? .savepoint : .transaction
            try begin(scope)
            activity = .running
            do {
                storage.beginWrite()
                if try storage.reloadIfChangedElsewhere() { try followStoredUndoLimit() }
                try engine.beginMacro(text: text)
                // The redo tail is gone already: the header must say so before any child's savepoint.
                // The revision is taken by the endMacro() that commits.
                try storage.flushHeader(takingRevision: false)
                try setState(engine.state(), records: Self.records(engine))
                activity = .macro(scope)
            } catch {
                activity = .idle
                // The engine may have opened the macro before the failure: close it, empty, or
                // the next push would run its command and record it only in memory.
                if engine.macroDepth > 0 { _ = try? engine.endMacro(discardingEmpty: true) }
                try? rollback(scope)
                rereadStateAfterFailure()
                publish(.beginMacro)
                throw error
            }
            publish(.beginMacro)
        case .macro:
            try engine.beginMacro(text: text)
            try setState(engine.state(), records: Self.records(engine))
            publish(.beginMacro)
        case .running, .runningInMacro:
            throw reentrancyError("beginMacro")
        }
    }

    /// Closes the innermost macro; closing the outermost one records it and commits its transaction.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/macroState`` when no macro is open, or a
    ///   `DatabaseError` from the commit (the whole macro is then rolled back).
    public func endMacro() throws {
        switch activity {
        case .idle:
            throw StoreError(
                .macroState, "endMacro() without a matching beginMacro(_:)", path: database.path,
                undoErrorCode: .unbalancedGrouping)
        case .running, .runningInMacro:
            throw reentrancyError("endMacro")
        case .macro(let scope):
            guard engine.macroDepth == 1 else {
                try engine.endMacro()
                try setState(engine.state(), records: Self.records(engine))
                publish(.endMacro)
                return
            }
            activity = .running
            do {
                try engine.endMacro()
                try storage.flushHeader()
                let state = try engine.state()
                let records = try Self.records(engine)
                try commit(scope)
                if case .transaction = scope { storage.noteCommitted() }
                setState(state, records: records)
                activity = .idle
            } catch {
                activity = .idle
                try? rollback(scope)
                rereadStateAfterFailure()
                publish(.endMacro)
                throw error
            }
            publish(.endMacro)
        }
    }

    /// Marks the current index clean ("document saved"). Ignored while a macro is open.
    ///
    /// - Throws: A `DatabaseError`.
    public func setClean() throws {
        try perform(.setClean) { engine in try engine.setClean() }
    }

    /// Forgets the clean index: no state is clean any more.
    ///
    /// - Throws: A `DatabaseError`.
    public func resetClean() throws {
        try perform(.resetClean) { engine in try engine.resetClean() }
    }

    /// Sets the maximum number of entries (0: no limit), deleting the oldest done entries beyond it.
    ///
    /// The limit is stored with the history and restored at open.
    /// - Parameter limit: The new limit.
    /// - Throws: A `DatabaseError`.
    /// - Complexity: O(k) for k deleted entries.
    public func setUndoLimit(_ limit: Int) throws {
        try storeUndoLimit(limit)
    }

    /// Removes every entry without running them; the empty history is clean.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/macroState`` while a macro is open (its
    ///   transaction must end first), or a `DatabaseError`.
    public func clear() throws {
        try clearEntries()
    }

    /// Rereads the history from the database.
    ///
    /// Call it after rolling back a transaction of your own that enclosed history calls: the history
    /// then forgets what those calls did.
    /// - Throws: ``StoreError`` or `DatabaseError` as ``init(database:receiver:registry:keepsBranches:)``.
    public func reload() throws {
        switch activity {
        case .idle, .macro: break
        case .running, .runningInMacro: throw reentrancyError("reload")
        }
        try rereadState()
        publish(.reload)
    }

    /// Rereads the header, and the state, texts and records it names, in one read transaction (a
    /// savepoint inside an open one): read apart, another process's commit in between could make
    /// the texts name other steps than the state, or the entries it counts look lost.
    private func rereadState() throws {
        var reread: (state: UndoState, records: (undo: HistoryRecord?, redo: HistoryRecord?))?
        try database.inTransaction(.deferred) {
            try storage.reload()
            reread = (try engine.state(), try Self.records(engine))
            return .commit
        }
        if let reread { setState(reread.state, records: reread.records) }
    }

    /// After a failed call: rereads what the file says, as far as it can (the call's error is the
    /// one to report); the texts are left empty if they cannot be read.
    private func rereadStateAfterFailure() {
        try? database.inTransaction(.deferred) {
            try? storage.reload()
            if let state = try? engine.state() {
                setState(state, records: (try? Self.records(engine)) ?? (nil, nil))
            }
            return .commit
        }
    }

    /// Rereads the history if another connection or process has committed since the last call,
    /// and then tells the observers (a `reload` event when the state differs).
    ///
    /// Cheap enough to call often: when nothing changed it runs one statement and reads no table.
    /// ``watchExternalChanges(every:)`` calls it in a loop. While a macro is open the history holds
    /// the write lock, so nothing can have changed, and it returns `false`.
    ///
    /// - Returns: Whether the history reread its state.
    /// - Throws: ``StoreError`` or `DatabaseError` as ``init(database:receiver:registry:keepsBranches:)``, or
    ///   ``StoreError/Code/macroState`` when called from inside a running history call.
    /// - Complexity: O(1).
    @discardableResult
    public func refresh() throws -> Bool {
        switch activity {
        case .idle: break
        case .macro: return false
        case .running, .runningInMacro: throw reentrancyError("refresh")
        }
        // Outside a transaction the check runs alone: an idle view polling costs one statement.
        if !database.isInsideTransaction, !(try storage.changedElsewhere()) { return false }
        return try readCommitted { () }.reloaded
    }

    /// Calls ``refresh()`` every `interval` until the task is cancelled, so that the change stream
    /// and the observable model follow what other processes commit.
    ///
    /// It runs on the caller's actor, the history's isolation domain; start it from there:
    ///
    /// ```swift
    /// let changes = history.changes                      // subscribed now
    /// let watcher = Task { try await history.watchExternalChanges() }
    /// for await change in changes { toolbar.update(change.new) }
    /// watcher.cancel()
    /// ```
    ///
    /// Each poll runs one statement and reads no table when nothing changed (about 20 µs; an idle
    /// watcher costs well under 1% of a core at the default interval, BENCHMARKS.md).
    ///
    /// - Parameter interval: The time between checks; a change is seen within about this long.
    /// - Throws: What ``refresh()`` throws. Cancellation ends the loop without an error.
    public func watchExternalChanges(every interval: Duration = .milliseconds(100)) async throws {
        while !Task.isCancelled {
            try refresh()
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
        }
    }

    // MARK: - Reading the committed state

    /// Runs `body` on the committed state: in a read transaction that first rereads the history
    /// if another connection committed since the last call (and then tells the observers).
    ///
    /// Inside a running call, an open macro or the caller's own transaction, the state in memory
    /// is the transaction's, and `body` reads it as is.
    @discardableResult
    func readCommitted<T>(_ body: () throws -> T) throws -> (value: T, reloaded: Bool) {
        switch activity {
        case .idle: break
        case .macro, .running, .runningInMacro: return (try body(), false)
        }
        var result: (value: T, reloaded: Bool)?
        var reread: (state: UndoState, records: (undo: HistoryRecord?, redo: HistoryRecord?))?
        // The reread state is one snapshot's, whether or not `body` then succeeds: keep it.
        defer {
            if let reread {
                setState(reread.state, records: reread.records)
                publish(.reload)
            }
        }
        do {
            // Deferred: a read. The check's statement starts the snapshot that `body` then reads.
            try database.inTransaction(.deferred) {
                if try storage.changedElsewhere() {
                    try storage.reload()
                    reread = (try engine.state(), try Self.records(engine))
                }
                result = (try body(), reread != nil)
                return .commit
            }
        } catch {
            // A reread that failed half-way may have left the storage between two states.
            if reread == nil { try? storage.reload() }
            throw error
        }
        return result!
    }

    /// Takes the undo limit the header holds when another process changed it (``setUndoLimit(_:)``
    /// there): the engine kept the one read at open, and went on pushing past the stored limit.
    /// Called in the write transaction, right after a reread.
    private func followStoredUndoLimit() throws {
        guard engine.undoLimit != storage.undoLimit else { return }
        try engine.setUndoLimit(storage.undoLimit)
    }

    // MARK: - Transactions

    /// Runs one engine operation in its own transaction (a savepoint inside an open macro or inside
    /// the caller's transaction), then refreshes the state.
    package func perform<Result>(
        _ change: UndoChange.Operation,
        always: Bool = false,
        _ operation: (inout HistoryEngine<SQLiteHistoryStorage>) throws -> Result
    ) throws -> Result {
        let macroScope: MacroScope?
        switch activity {
        case .idle: macroScope = nil
        case .macro(let scope): macroScope = scope
        // Refused before anything is published: the call that is running publishes when it ends.
        case .running, .runningInMacro: throw reentrancyError("a history call")
        }
        var succeeded = false
        // Runs after `activity` is restored (the defer below runs first): observers may use the history.
        // A failed call changed nothing: what observers then see is what the reread found.
        defer { publish(succeeded ? change : .reload, always: always && succeeded) }
        activity = macroScope.map { .runningInMacro($0) } ?? .running
        defer { activity = macroScope.map { .macro($0) } ?? .idle }
        var result: Result?
        // Observed: the texts are read in the transaction that made them, so an event never shows
        // a text from another process's later commit.
        var observed: (state: UndoState, records: (undo: HistoryRecord?, redo: HistoryRecord?))?
        do {
            // Nested in a macro's (or the caller's) transaction, this is a savepoint: a failing
            // command is undone alone.
            try database.inTransaction {
                // Another process may have changed the history since we last read it; inside an
                // open macro we hold the write lock since beginMacro, which refreshed. The macro's
                // revision is taken when it ends.
                if macroScope == nil {
                    storage.beginWrite()
                    if try storage.reloadIfChangedElsewhere() { try followStoredUndoLimit() }
                }
                result = try operation(&engine)
                try storage.flushHeader(takingRevision: macroScope == nil)
                if observers != nil { observed = (try engine.state(), try Self.records(engine)) }
                return .commit
            }
            if macroScope == nil { storage.noteCommitted() }
            assert(engine.macroDepth == cachedState.macroDepth, "a history call opened or closed a macro")
            if let observed {
                setState(observed.state, records: observed.records)
            } else {
                cachedState = stateWithoutTexts()
                textsAreStale = true
            }
            succeeded = true
        } catch {
            rereadStateAfterFailure()
            throw error
        }
        return result!
    }

    /// The state after a call, but for the texts (left empty), read from the storage's header.
    ///
    /// `perform` never opens or closes a macro, so the macro depth is the one before the call; the
    /// flags follow the engine's definitions (`HistoryEngine.canUndo` and friends: a history with
    /// an open macro is disabled).
    private func stateWithoutTexts() -> UndoState {
        let macroDepth = cachedState.macroDepth
        let enabled = macroDepth == 0
        let index = storage.index
        // An open outermost macro counts, as the engine (and Qt) count it.
        let count = enabled ? storage.count : storage.count + 1
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
        // The state the call left (not rechecked: an event never shows another process's later commit).
        observers.publish(change, state: textsAreStale ? stateWithTexts() : cachedState, always: always)
    }

    /// Keeps a complete state (texts included) and the records of the next undo and redo.
    private func setState(_ state: UndoState, records: (undo: HistoryRecord?, redo: HistoryRecord?)) {
        cachedState = state
        cachedRecords = records
        textsAreStale = false
    }

    /// The state as committed now, its texts possibly stale: outside a call, one statement checks
    /// for other connections' commits (`PRAGMA data_version`, no table read; the application's own
    /// writes do not count), and the state is reread only after one (publishing a `reload`).
    ///
    /// Inside a running call or an open macro (which holds the write lock) it is the state in
    /// memory, as `readCommitted` reads it there; inside a transaction of the caller's, the check
    /// sees that transaction's snapshot.
    /// - Complexity: O(1): one statement when nothing changed elsewhere.
    package func committedState() -> UndoState {
        guard case .idle = activity else { return cachedState }
        // A failed check leaves the state as last read; the next operation reports the problem.
        if (try? storage.changedElsewhere()) == true { _ = try? readCommitted { () } }
        return cachedState
    }

    /// The state, with its texts read now if the last call left them stale.
    ///
    /// The texts are read in a read transaction together with a check for other connections'
    /// commits: if there was one, the whole state is reread first (``refresh()``), so the texts
    /// always belong to the state they are shown with. Reads through an engine made for the
    /// purpose over the same storage: `engine` may be held by a running call (a command reading
    /// the history), and the texts only need open macros, which are none whenever there is a text
    /// to show.
    private func stateWithTexts() -> UndoState {
        guard textsAreStale else { return committedState() }
        switch activity {
        case .running, .runningInMacro:
            // During a running call the storage may be half-way: read it as is, keep nothing.
            var state = cachedState
            let reader = HistoryEngine(storage: storage)
            state.undoText = state.canUndo ? ((try? reader.undoText()) ?? "") : ""
            state.redoText = state.canRedo ? ((try? reader.redoText()) ?? "") : ""
            return state
        case .idle, .macro:
            break
        }
        let reader = HistoryEngine(storage: storage)
        let read = try? readCommitted { () -> (UndoState, (undo: HistoryRecord?, redo: HistoryRecord?))? in
            // A reread (another process committed) has set the whole state already.
            guard textsAreStale else { return nil }
            var state = cachedState
            state.undoText = state.canUndo ? try reader.undoText() : ""
            state.redoText = state.canRedo ? try reader.redoText() : ""
            let records = try Self.records(reader)
            return (state, (state.canUndo ? records.undo : nil, state.canRedo ? records.redo : nil))
        }
        if let (state, records) = read?.value ?? nil {
            setState(state, records: records)
        } else if textsAreStale {
            // The read failed: show no texts rather than guess; the next operation reports the problem.
            setState(cachedState, records: (nil, nil))
        }
        return cachedState
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

    /// Whether an outermost macro is open and no call is running (``clear()`` is refused then).
    package var isBetweenCallsInMacro: Bool {
        if case .macro = activity { return true }
        return false
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

extension DurableHistory: UndoHistory {
    /// What ``command(at:)`` returns: a decoded command, or a macro of them.
    public typealias Command = DurableCommand<Receiver>
    /// What the history reports about a step (``undoRecord``, ``undo(steps:expecting:)``).
    public typealias Record = HistoryRecord
}

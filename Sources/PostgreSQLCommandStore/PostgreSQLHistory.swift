#if PostgreSQL
public import CommandKit
public import CommandStore
public import PostgreSQLDatabase

/// An undo history stored in PostgreSQL with the receiver's data, shared by clients on any
/// number of machines: CommandStore's `DurableHistory`, on a server.
///
/// It runs CommandKit's history engine (the rules of `UndoStack` and `DurableHistory`: redo-tail
/// truncation, merging, macros, clean state, undo limit, significance) over a PostgreSQL storage,
/// with CommandStore's commands (`PersistentCommand`, `CommandRegistry`) and payloads: a
/// command written for `DurableHistory` runs here unchanged, given a receiver that writes through
/// ``connection``.
///
/// Each ``push(_:)``, ``undo()``, ``redo()``, ``setIndex(_:)``, and each outermost macro from
/// ``beginMacro(_:)`` to ``endMacro()``, is one PostgreSQL transaction holding both the receiver's
/// writes and the history's: a command's `redo(on:)` and `undo(on:)` write through the same
/// connection, inside the transaction, so the data and its history record commit together or not
/// at all. See <doc:TransactionModel> for the isolation chosen and why.
///
/// Every decision (the step to undo, the expectation checks, the counts) is read inside the
/// transaction, after the history's header row is locked: the state committed then, by any
/// client. When the transaction must run again (a serialization failure or a deadlock), the
/// whole decision runs again; the receiver must therefore keep its state in the database, as
/// for `DurableHistory`.
///
/// A call costs few round trips: `BEGIN` is sent with the header's lock, and the history's writes
/// with `COMMIT` (libpq's pipeline mode), so a push, an undo or a redo whose command sends one
/// statement waits for the server three times (twice when the receiver sends its write with the
/// commit, as the album library does). A command must therefore not read the history's own
/// tables: its writes may reach the server after the command's statements (in the same
/// transaction).
///
/// Other clients' commits are seen lazily, as `DurableHistory` sees other processes': every read
/// of the state first compares the header's revision (one statement) and rereads on a change.
/// A view that must follow them live calls ``watchExternalChanges(every:)`` or
/// ``waitForChanges(upTo:)``, which listen on the history's NOTIFY channel.
///
/// With `keepsBranches`, it keeps branches (time travel) as `DurableHistory` does: a push after
/// an undo parks the redo steps, and ``jump(to:expecting:)`` reaches any state of the tree.
///
/// A `PostgreSQLHistory` is not `Sendable`: it lives in the isolation domain of its connection.
public final class PostgreSQLHistory<Receiver> {
    /// The connection the history and its receiver write through.
    public let connection: PostgreSQLConnection
    /// What the commands run against.
    public let receiver: Receiver
    /// The command types the history can decode.
    public let registry: CommandRegistry<Receiver>
    /// How each write transaction is isolated (see ``init(connection:receiver:registry:tablePrefix:isolation:keepsBranches:)``).
    public let isolation: PostgreSQLConnection.Isolation

    package var engine: HistoryEngine<PostgreSQLHistoryStorage>
    package let storage: PostgreSQLHistoryStorage
    /// The state as of the last call, texts included.
    private var cachedState: UndoState
    /// The records of the steps the next undo and redo apply, read with the state.
    private var cachedRecords: (undo: HistoryRecord?, redo: HistoryRecord?)
    private var activity = PostgreSQLHistoryActivity.idle
    /// Present once someone observes (``changes``, ``model``).
    package var observers: HistoryObservers?
    /// The server process the LISTEN was sent on: a reconnect starts a session that listens to nothing.
    var listeningProcess: Int32?

    /// How many write transactions this history began, attempts run again included (tests compare
    /// it with the calls made, to see the retries).
    var transactionAttempts = 0

    /// How many times a write transaction runs before a serialization failure is reported.
    static var attempts: Int { 64 }

    /// Opens the history whose tables begin with `tablePrefix`, creating or migrating them first.
    ///
    /// - Parameters:
    ///   - connection: The connection; the receiver must write through it too.
    ///   - receiver: What the commands run against.
    ///   - registry: The command types stored in this history.
    ///   - tablePrefix: The tables' prefix (`<prefix>_header`, `<prefix>_entry`, `<prefix>_branch`),
    ///     also the NOTIFY channel: several histories share one database under different prefixes. A lowercase
    ///     identifier: a-z, 0-9 and `_`.
    ///   - isolation: `PostgreSQLConnection/Isolation/readCommitted` (the default) or
    ///     `PostgreSQLConnection/Isolation/serializable`. Either way every write first locks the
    ///     header row, so history writers queue one behind the other; serializable also protects
    ///     the receiver's tables from writers outside the history, at the cost of retries.
    ///   - keepsBranches: `true` makes the history keep branches from now on (a push after an undo
    ///     parks the redo steps instead of removing them; see `CommandKit`'s "Time travel"). The
    ///     choice is stored with the next change: once on, the history keeps branches for every
    ///     client. `false` (the default) keeps what the database says.
    /// - Throws: `StoreError` for a malformed prefix or damaged tables, a `PostgreSQLError`
    ///   from the server (a schema version newer than this program's included).
    public init(
        connection: PostgreSQLConnection, receiver: Receiver, registry: CommandRegistry<Receiver>,
        tablePrefix: String = "commandstore_history", isolation: PostgreSQLConnection.Isolation = .readCommitted,
        keepsBranches: Bool = false
    ) throws {
        let statements = try HistoryStatements(prefix: tablePrefix)
        try connection.migrate(Self.schema(statements))
        self.connection = connection
        self.receiver = receiver
        self.registry = registry
        self.isolation = isolation
        let storage = PostgreSQLHistoryStorage(
            connection: connection, commands: BoundCommandDecoder(registry: registry, receiver: receiver),
            statements: statements)
        if keepsBranches { storage.startKeepingBranches() }
        let opened = try connection.inTransaction(.repeatableRead, readOnly: true) {
            storage.beginTransaction()
            try storage.reload(locking: false)
            let engine = HistoryEngine(storage: storage, undoLimit: storage.undoLimit)
            return (engine, try engine.state(), try Self.records(engine))
        }
        storage.noteCommitted()
        self.storage = storage
        engine = opened.0
        cachedState = opened.1
        cachedRecords = opened.2
    }

    deinit {
        observers?.finish()
        // An outermost macro still open: its changes were never committed; drop them.
        switch activity {
        case .macro, .runningInMacro: _ = try? connection.execute("ROLLBACK")
        case .idle, .running: break
        }
    }

    /// The schema of a history's tables (versioned in `commandkit_schema` under the prefix), for an
    /// application that migrates its schemas itself (`albums init`); the initializer migrates it too.
    ///
    /// - Parameter tablePrefix: The tables' prefix, as given to the initializer.
    /// - Throws: `StoreError` for a malformed prefix.
    public static func schema(tablePrefix: String = "commandstore_history") throws -> PostgreSQLSchema {
        schema(try HistoryStatements(prefix: tablePrefix))
    }

    static func schema(_ statements: HistoryStatements) -> PostgreSQLSchema {
        PostgreSQLSchema(identifier: statements.channel, migrations: statements.migrations)
    }

    /// The tables' prefix (and the NOTIFY channel).
    public var tablePrefix: String { storage.statements.channel }

    /// Who records the next entries: stored with each one (`HistoryRecord/author`); `nil` names nobody.
    public var author: String? {
        get { storage.author }
        set { storage.author = newValue }
    }

    // MARK: - State

    /// The index, count, clean state, texts and macro depth, as committed now.
    ///
    /// Outside a call, each read first compares the header's revision with the one last read (one
    /// statement) and rereads the state after another client's commit (publishing a `reload`).
    /// While a macro is open this history holds the header's lock: the state is the one in memory.
    public var state: UndoState { committedState() }
    /// Whether ``undo()`` would do something, as committed now.
    public var canUndo: Bool { committedState().canUndo }
    /// Whether ``redo()`` would do something, as committed now.
    public var canRedo: Bool { committedState().canRedo }
    /// The action text of the step the next undo reverts ("" when none), as committed now.
    public var undoText: String { committedState().undoText }
    /// The action text of the step the next redo applies ("" when none), as committed now.
    public var redoText: String { committedState().redoText }
    /// The number of entries done, as committed now.
    public var index: Int { committedState().index }
    /// The number of entries (an open outermost macro counts too), as committed now.
    public var count: Int { committedState().count }
    /// The index marked clean, or `nil`, as committed now.
    public var cleanIndex: Int? { committedState().cleanIndex }
    /// Whether the history is at its clean index (and no macro is open), as committed now.
    public var isClean: Bool { committedState().isClean }
    /// How many of this history's macros are open.
    public var macroDepth: Int { cachedState.macroDepth }
    /// The maximum number of entries kept (0: no limit), stored with the history, as committed now.
    public var undoLimit: Int {
        _ = committedState()
        return storage.undoLimit
    }
    /// The revision of the state this client last read or wrote: every committed change of the
    /// history raises it by one. Read right after a change, it is the revision that change took
    /// (another client's later commit is not reread here, as `DurableHistory.revision` does not:
    /// what a caller reports of its change is its own).
    public var revision: Int { Int(storage.revision) }

    /// The record of the step the next undo reverts, or `nil`, as committed now: pass its
    /// `HistoryRecord/id` to ``undo(steps:expecting:)`` to undo this step only if it is still last.
    public var undoRecord: HistoryRecord? {
        _ = committedState()
        return cachedRecords.undo
    }

    /// The record of the step the next redo applies, or `nil`, as committed now.
    public var redoRecord: HistoryRecord? {
        _ = committedState()
        return cachedRecords.redo
    }

    /// The text of the entry at a position (read from its row; nothing is decoded).
    ///
    /// - Throws: `StoreError` when the entry is gone or damaged, or a `PostgreSQLError`.
    public func text(at position: Int) throws -> String {
        try textOfEntry(at: position)
    }

    /// The command at a position, decoded from its row (a macro with its children).
    ///
    /// - Throws: `StoreError` when the entry is gone or does not decode, or a `PostgreSQLError`.
    public func command(at position: Int) throws -> DurableCommand<Receiver> {
        try decodedCommand(at: position)
    }

    /// The record of the entry at a position: its identity, texts, time and author.
    ///
    /// - Throws: `StoreError` with code `StoreError/Code/historyChanged` when another client
    ///   shortened the history below `position`; a damaged row, or a `PostgreSQLError`.
    public func record(at position: Int) throws -> HistoryRecord {
        try recordOfEntry(at: position)
    }

    /// Every entry's record, oldest first, with the node each entry's state is (for a tree's
    /// view), the index and the revision, read in one transaction.
    ///
    /// - Throws: `StoreError` for a damaged row, or a `PostgreSQLError`.
    public func records() throws -> (records: [HistoryRecord], nodes: [HistoryNode.ID], index: Int, revision: Int) {
        try readCommittedValue {
            try storage.loadAll()
            let positions = 0..<storage.count
            return (
                try positions.map { try storage.record(at: $0) }, try positions.map { try storage.nodeID(at: $0) },
                storage.index, Int(storage.revision)
            )
        }
    }

    /// The number of entries done, as committed now; inside an operation (the `makeCommand` of
    /// ``push(_:)-(()->Command)``), of the state that operation changes, where ``index`` is the last
    /// operation's.
    ///
    /// - Throws: A `PostgreSQLError` if the header cannot be read.
    public func committedIndex() throws -> Int {
        try readCommittedValue { storage.index }
    }

    // MARK: - Observation

    /// The history's changes from now on, as `DurableHistory.changes` delivers them: each call
    /// that changed the state, and a `reload` when a read finds another client's commit.
    public var changes: AsyncStream<UndoChange> { observation.makeStream() }

    /// An `@Observable` mirror of the history's state.
    public var model: UndoStackModel { observation.observableModel() }

    /// Calls `handler` synchronously after every change, on the history's isolation domain.
    ///
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
    /// - Returns: The command as it ran.
    /// - Throws: What the command throws, or a `PostgreSQLError`; nothing is then recorded and
    ///   the receiver's writes are rolled back.
    @discardableResult
    public func push<Command: PersistentCommand>(_ command: Command) throws -> Command
    where Command.Receiver == Receiver {
        try push { command }
    }

    /// Makes a command inside the write transaction (after the header is locked: it sees every
    /// other client's commit, and none lands before the push), then runs and records it there.
    ///
    /// `makeCommand` runs again when the transaction does (a serialization failure).
    /// - Returns: The command as it ran.
    /// - Throws: What `makeCommand` or the command throws, or a `PostgreSQLError`; nothing is
    ///   then recorded and every write of the call is rolled back.
    @discardableResult
    public func push<Command: PersistentCommand>(_ makeCommand: () throws -> Command) throws -> Command
    where Command.Receiver == Receiver {
        try pushMaking(makeCommand)
    }

    /// Undoes one step, the last one as committed when the transaction begins, in one transaction.
    ///
    /// - Throws: What a command throws, or a `PostgreSQLError`; the step is then rolled back.
    public func undo() throws {
        try perform(.undo) { engine in try engine.undo() }
    }

    /// Redoes one step, in one transaction.
    ///
    /// - Throws: What a command throws, or a `PostgreSQLError`; the step is then rolled back.
    public func redo() throws {
        try perform(.redo) { engine in try engine.redo() }
    }

    /// Undoes exactly `steps` steps, counted from the committed history, in one transaction.
    ///
    /// - Parameters:
    ///   - steps: How many steps, at least 1.
    ///   - expected: The step the caller expects to undo first (the ``undoRecord`` it showed), or `nil`.
    /// - Returns: The records of the undone steps, most recent first.
    /// - Throws: `StoreError` with code `StoreError/Code/historyChanged` when the last step is
    ///   not `expected`, `StoreError/Code/nothingToUndo` when fewer steps can be undone,
    ///   `StoreError/Code/macroState` while a macro is open; what a command throws; a
    ///   `PostgreSQLError`. In every case nothing is undone.
    @discardableResult
    public func undo(steps: Int, expecting expected: HistoryRecord.ID? = nil) throws -> [HistoryRecord] {
        try undoSteps(steps, expecting: expected)
    }

    /// Redoes exactly `steps` steps, counted from the committed history, in one transaction.
    ///
    /// - Parameters:
    ///   - steps: How many steps, at least 1.
    ///   - expected: The step the caller expects to redo first (the ``redoRecord`` it showed), or `nil`.
    /// - Returns: The records of the redone steps, oldest first.
    /// - Throws: As ``undo(steps:expecting:)``, with `StoreError/Code/nothingToRedo`.
    @discardableResult
    public func redo(steps: Int, expecting expected: HistoryRecord.ID? = nil) throws -> [HistoryRecord] {
        try redoSteps(steps, expecting: expected)
    }

    /// Undoes or redoes entry by entry to `index` (clamped to `0...count`), in one transaction.
    ///
    /// - Throws: What a command throws, or a `PostgreSQLError`; the whole move is rolled back.
    public func setIndex(_ index: Int) throws {
        try perform(.jump) { engine in try engine.setIndex(index) }
    }

    /// Marks the current index clean. Ignored while a macro is open.
    ///
    /// - Throws: A `PostgreSQLError`.
    public func setClean() throws {
        try perform(.setClean) { engine in try engine.setClean() }
    }

    /// Forgets the clean index.
    ///
    /// - Throws: A `PostgreSQLError`.
    public func resetClean() throws {
        try perform(.resetClean) { engine in try engine.resetClean() }
    }

    /// Sets the maximum number of entries (0: no limit), stored with the history for every client.
    ///
    /// - Throws: A `PostgreSQLError`.
    public func setUndoLimit(_ limit: Int) throws {
        try storeUndoLimit(limit)
    }

    /// Removes every entry without running them; the empty history is clean.
    ///
    /// - Throws: `StoreError` with code `StoreError/Code/macroState` while a macro is open, or
    ///   a `PostgreSQLError`.
    public func clear() throws {
        try clearEntries()
    }

    // MARK: - Macros

    /// Opens a macro: what is pushed until the matching ``endMacro()`` becomes one step.
    ///
    /// The outermost macro begins a transaction that stays open, holding the header's lock (other
    /// clients' history writes wait), until its ``endMacro()``: a crash or a lost connection before
    /// then loses the whole macro, never part of it.
    /// - Throws: A `PostgreSQLError` when the transaction cannot begin.
    public func beginMacro(_ text: String) throws {
        switch activity {
        case .idle:
            activity = .running
            do {
                try beginOutermostMacro(text)
                activity = .macro
            } catch {
                activity = .idle
                abandonMacro()
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

    /// Begins the macro's transaction (run again after a serialization failure, as a call is).
    private func beginOutermostMacro(_ text: String) throws {
        var attempt = 1
        while true {
            do {
                storage.beginTransaction()
                // BEGIN and the header's lock in one round trip (a failure leaves no transaction).
                let opened = try connection.pipeline([
                    PostgreSQLStatement(isolation.beginStatement),
                    PostgreSQLStatement(storage.statements.selectHeaderForUpdate, prepared: true),
                ])
                try storage.reload(header: opened[1])
                if engine.undoLimit != storage.undoLimit { try engine.setUndoLimit(storage.undoLimit) }
                try engine.beginMacro(text: text)
                // The redo tail is gone already: written before a child's savepoint (with it), so
                // the savepoint keeps it.
                storage.flush()
                try setState(engine.state(), records: Self.records(engine))
                return
            } catch let error as PostgreSQLError where error.code == .serializationFailure && attempt < Self.attempts {
                storage.dropPending()
                if connection.hasOpenTransaction { _ = try? connection.execute("ROLLBACK") }
                engine = HistoryEngine(storage: storage, undoLimit: storage.undoLimit)
                attempt += 1
            }
        }
    }

    /// Closes the innermost macro; closing the outermost one records it and commits its transaction.
    ///
    /// - Throws: `StoreError` with code `StoreError/Code/macroState` when no macro is open, or a
    ///   `PostgreSQLError` from the commit (the whole macro is then rolled back).
    public func endMacro() throws {
        switch activity {
        case .idle:
            throw StoreError(
                .macroState, "endMacro() without a matching beginMacro(_:)", undoErrorCode: .unbalancedGrouping)
        case .running, .runningInMacro:
            throw reentrancyError("endMacro")
        case .macro:
            guard engine.macroDepth == 1 else {
                try engine.endMacro()
                try setState(engine.state(), records: Self.records(engine))
                publish(.endMacro)
                return
            }
            activity = .running
            do {
                try engine.endMacro()
                storage.flush()
                let state = try engine.state()
                let records = try Self.records(engine)
                // The macro's last writes, the NOTIFY and the commit: one round trip.
                let closing = storage.takePending()
                let closed = try connection.commit(closing + [announcement], releasingLocks: .beforeFlush)
                storage.checkRevision(Array(closed.prefix(closing.count)))
                storage.noteCommitted()
                setState(state, records: records)
                activity = .idle
            } catch {
                activity = .idle
                abandonMacro()
                publish(.endMacro)
                throw error
            }
            publish(.endMacro)
        }
    }

    /// After a macro's transaction failed: rolls it back, drops the engine's open macros (a
    /// fresh engine has none) and rereads the committed state.
    private func abandonMacro() {
        storage.dropPending()
        if connection.hasOpenTransaction { _ = try? connection.execute("ROLLBACK") }
        engine = HistoryEngine(storage: storage, undoLimit: storage.undoLimit)
        rereadStateAfterFailure()
    }

    // MARK: - Transactions

    /// Runs one engine operation in its own transaction (a savepoint inside an open macro), then
    /// keeps the state it left.
    package func perform<Result>(
        _ change: UndoChange.Operation,
        always: Bool = false,
        _ operation: (inout HistoryEngine<PostgreSQLHistoryStorage>) throws -> Result
    ) throws -> Result {
        let inMacro: Bool
        switch activity {
        case .idle: inMacro = false
        case .macro: inMacro = true
        case .running, .runningInMacro: throw reentrancyError("a history call")
        }
        var succeeded = false
        defer { publish(succeeded ? change : .reload, always: always && succeeded) }
        activity = inMacro ? .runningInMacro : .running
        defer {
            if case .running = activity {
                activity = .idle
            } else if case .runningInMacro = activity {
                activity = .macro
            }
        }
        let outcome: (result: Result, state: UndoState, records: (undo: HistoryRecord?, redo: HistoryRecord?))
        if inMacro {
            outcome = try performInMacro(operation)
        } else {
            do {
                // Three round trips for a call whose command sends one statement: BEGIN with the
                // header's lock, the command's statement, and the history's writes with COMMIT.
                // An undo or a redo also reads the entries it reaches first with the lock: after
                // another client's commit it would wait for them once more.
                let nextEntries = [UndoChange.Operation.undo, .redo].contains(change)
                // Every change locks the header first: its lock goes before the flush, so the
                // changes queued behind it run while it is flushed, and their flushes overlap.
                let (value, closed) = try connection.inTransaction(
                    isolation, releasingLocks: .beforeFlush, attempts: Self.attempts,
                    opening: [PostgreSQLStatement(storage.statements.selectHeaderForUpdate, prepared: true)]
                        + (nextEntries
                            ? [
                                PostgreSQLStatement(
                                    storage.statements.selectEntriesNextTo(currentIndexBelow: change == .undo),
                                    prepared: true)
                            ] : [])
                ) { opened in
                    transactionAttempts += 1
                    storage.beginTransaction()
                    // A jump's steps send their writes one by one, so the one that fails is named.
                    storage.sendsEachStepsWrites = change == .jump
                    do {
                        try storage.reload(header: opened[0])
                        if nextEntries { try storage.cacheEntriesNextToIndex(opened[1]) }
                        // Another client may have changed the limit: follow what is stored.
                        if engine.undoLimit != storage.undoLimit { try engine.setUndoLimit(storage.undoLimit) }
                        let result = try operation(&engine)
                        storage.flush(notifying: true)
                        let value = (result, try engine.state(), try Self.records(engine))
                        return (value, storage.takePending())
                    } catch {
                        throw storage.firstFailure.flatMap { $0.mustEndTransaction ? $0 : nil } ?? error
                    }
                }
                storage.checkRevision(closed)
                outcome = value
            } catch {
                rereadStateAfterFailure()
                throw error
            }
            storage.noteCommitted()
        }
        setState(outcome.state, records: outcome.records)
        succeeded = true
        return outcome.result
    }

    /// One operation inside an open macro: a savepoint, so a failing child is undone alone.
    private func performInMacro<Result>(
        _ operation: (inout HistoryEngine<PostgreSQLHistoryStorage>) throws -> Result
    ) throws -> (result: Result, state: UndoState, records: (undo: HistoryRecord?, redo: HistoryRecord?)) {
        do {
            try storage.execute("SAVEPOINT commandstore_step", prepared: false)
            let result = try operation(&engine)
            // Written before the release (in its round trip): a later child's rollback to its
            // savepoint rereads the header.
            storage.flush()
            try storage.execute("RELEASE SAVEPOINT commandstore_step", prepared: false)
            return (result, try engine.state(), try Self.records(engine))
        } catch {
            // The step's unsent writes go with its savepoint.
            storage.dropPending()
            do {
                try connection.execute("ROLLBACK TO SAVEPOINT commandstore_step")
                try connection.execute("RELEASE SAVEPOINT commandstore_step")
                storage.beginTransaction()
                try storage.reload(locking: false)
                setState(try engine.state(), records: (try? Self.records(engine)) ?? (nil, nil))
            } catch {
                // The macro's transaction is gone (a lost connection): so is the macro.
                activity = .idle
                abandonMacro()
            }
            throw error
        }
    }

    /// Tells the listening clients (at commit) that the history changed: the revision on its channel.
    private var announcement: PostgreSQLStatement {
        PostgreSQLStatement(
            "SELECT pg_notify($1, $2)", [storage.statements.channel, String(storage.revision)], prepared: true)
    }

    // MARK: - Reading the committed state

    /// Runs `body` on the committed state: in a read transaction that first rereads the history
    /// when another client committed since the last read (and then tells the observers). Inside a
    /// call or an open macro, the state in memory is the transaction's, and `body` reads it as is.
    package func readCommittedValue<T>(_ body: () throws -> T) throws -> T {
        guard case .idle = activity else { return try body() }
        var reread: (state: UndoState, records: (undo: HistoryRecord?, redo: HistoryRecord?))?
        defer {
            if let reread {
                setState(reread.state, records: reread.records)
                publish(.reload)
            }
        }
        do {
            let value = try connection.inTransaction(.repeatableRead, readOnly: true) {
                storage.beginTransaction()
                if try !storage.cacheIsCommitted || storage.committedRevision() != storage.revision {
                    try storage.reload(locking: false)
                    reread = (try engine.state(), try Self.records(engine))
                }
                return try body()
            }
            storage.noteCommitted()
            return value
        } catch {
            if reread == nil { rereadStateAfterFailure() }
            throw error
        }
    }

    /// The state as committed now: one statement compares the revision, and the state is reread
    /// only after another client's commit. A failed check leaves the state as last read (the next
    /// operation reports the problem).
    package func committedState() -> UndoState {
        guard case .idle = activity else { return cachedState }
        if !storage.cacheIsCommitted {
            _ = try? readCommittedValue { () }
        } else if let revision = try? storage.committedRevision(), revision != storage.revision {
            _ = try? readCommittedValue { () }
        }
        return cachedState
    }

    /// After a failed call: rereads what the server says, as far as it can.
    private func rereadStateAfterFailure() {
        do {
            try connection.inTransaction(.repeatableRead, readOnly: true) {
                storage.beginTransaction()
                try storage.reload(locking: false)
                setState(try engine.state(), records: (try? Self.records(engine)) ?? (nil, nil))
            }
            // Read only, after a reload that dropped what the failed call cached.
            storage.noteCommitted()
        } catch {
            // Left marked uncommitted: the next read rereads everything.
        }
    }

    private func setState(_ state: UndoState, records: (undo: HistoryRecord?, redo: HistoryRecord?)) {
        cachedState = state
        cachedRecords = records
    }

    private func publish(_ change: UndoChange.Operation, always: Bool = false) {
        observers?.publish(change, state: cachedState, always: always)
    }

    // MARK: - Activity

    /// Whether the history is between calls (not running one, no macro open).
    var isIdle: Bool {
        if case .idle = activity { return true }
        return false
    }

    /// Whether an outermost macro is open and no call is running (``clear()`` is refused then).
    package var isBetweenCallsInMacro: Bool {
        if case .macro = activity { return true }
        return false
    }
}

/// What a ``PostgreSQLHistory`` has in progress.
private enum PostgreSQLHistoryActivity {
    case idle
    case running
    /// An outermost macro's transaction is open.
    case macro
    case runningInMacro
}

extension PostgreSQLError {
    /// Whether the transaction cannot go on after this error, whatever the code that saw it did
    /// with it: it must run again (a serialization failure) or is gone (a lost connection).
    var mustEndTransaction: Bool { code == .serializationFailure || code == .connectionLost }
}

extension PostgreSQLConnection.Isolation {
    /// `BEGIN` at this level (an outermost macro's transaction, which spans calls).
    var beginStatement: String {
        switch self {
        case .readCommitted: "BEGIN ISOLATION LEVEL READ COMMITTED"
        case .repeatableRead: "BEGIN ISOLATION LEVEL REPEATABLE READ"
        case .serializable: "BEGIN ISOLATION LEVEL SERIALIZABLE"
        }
    }
}

@available(*, unavailable, message: "A PostgreSQLHistory belongs to its connection's isolation domain.")
extension PostgreSQLHistory: Sendable {}

extension PostgreSQLHistory: UndoHistory {
    /// What ``command(at:)`` returns: a decoded command, or a macro of them.
    public typealias Command = DurableCommand<Receiver>
    /// What the history reports about a step.
    public typealias Record = HistoryRecord
}
#endif

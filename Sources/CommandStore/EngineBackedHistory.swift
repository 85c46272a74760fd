package import CommandKit

/// A durable history that runs CommandKit's `HistoryEngine` over a ``DurableHistoryStorage``:
/// ``DurableHistory`` on SQLite and PostgreSQLCommandStore's `PostgreSQLHistory`.
///
/// Each conformer keeps what differs, its transactions: ``perform(_:always:_:)`` runs one engine
/// operation in one (a savepoint inside an open macro) and ``readCommittedValue(_:)`` reads the
/// committed state in one, each rereading what other connections committed first. This protocol
/// holds, once, what the conformers' public API does on top of them: texts, records and commands
/// at a position, the observers, pushing, counted undo and redo with their refusals, the clean
/// index and the limit, and the tree (``EngineBackedHistory`` in `EngineBackedHistory+Branches`).
///
/// Swift lets a `package` protocol's extension give no more than `package` members, so each
/// conformer still declares its public members, each one line calling the member here: that keeps
/// them, with their documentation, on the conformer's own page.
package protocol EngineBackedHistory: UndoHistory
where Record == HistoryRecord, Command == DurableCommand<Receiver> {
    /// What the commands run against.
    associatedtype Receiver
    /// Where the engine keeps the entries.
    associatedtype Storage: DurableHistoryStorage

    /// What the commands run against.
    var receiver: Receiver { get }
    /// The engine, with the macros this history has open.
    var engine: HistoryEngine<Storage> { get }
    /// The engine's storage.
    var storage: Storage { get }
    /// The observers, once someone observes (``observation``).
    var observers: HistoryObservers? { get set }
    /// Whether an outermost macro is open and no call is running.
    var isBetweenCallsInMacro: Bool { get }
    /// Where the history is, for messages: a file's path, or a server's history.
    var place: String { get }
    /// Who else writes the history, for refusals: "another process", "another client".
    var otherWriter: String { get }

    /// Runs one engine operation in its own transaction, then keeps and publishes the state it left.
    func perform<Result>(
        _ change: UndoChange.Operation, always: Bool, _ operation: (inout HistoryEngine<Storage>) throws -> Result
    ) throws -> Result

    /// Runs `body` on the committed state (rereading other connections' commits first); inside a
    /// call or an open macro, on the state in memory.
    func readCommittedValue<T>(_ body: () throws -> T) throws -> T

    /// The state as committed now (rereading after another connection's commit).
    func committedState() -> UndoState

    /// A refusal or problem of this history (naming its file, where it has one).
    func storeError(_ code: StoreError.Code, _ message: String, undoErrorCode: UndoError.Code?) -> StoreError
}

// MARK: - Reading entries

extension EngineBackedHistory {
    /// The text of the entry at a position: the open macro's from memory, any other from its row.
    package func textOfEntry(at position: Int) throws -> String {
        if macroDepth > 0, position == storage.count, let text = try? engine.text(at: position) {
            return text
        }
        return try recordOfEntry(at: position).text
    }

    /// The command at a position, decoded from its row (the open macro from memory).
    package func decodedCommand(at position: Int) throws -> DurableCommand<Receiver> {
        if macroDepth > 0, position == storage.count, var open = engine.openMacroEntry() {
            try open.decode()
            return try DurableCommand(open)
        }
        return try readCommittedValue {
            try requirePosition(position)
            var entry = try storage.entry(at: position)
            try entry.decode()
            return try DurableCommand(entry)
        }
    }

    /// The record of the entry at a position, read in a read transaction.
    package func recordOfEntry(at position: Int) throws -> HistoryRecord {
        try readCommittedValue {
            try requirePosition(position)
            return try storage.record(at: position)
        }
    }

    /// Refuses a position another connection's commit took away.
    package func requirePosition(_ position: Int) throws {
        guard (0..<storage.count).contains(position) else {
            throw storeError(
                .historyChanged,
                "\(place): history entry \(position) is gone (the history has \(storage.count) entries now)",
                undoErrorCode: nil)
        }
    }

    /// The records of the steps the next undo and redo apply (read inside the caller's transaction).
    package static func records(
        _ engine: HistoryEngine<Storage>
    ) throws -> (undo: HistoryRecord?, redo: HistoryRecord?) {
        (
            engine.canUndo ? try engine.storage.record(at: engine.stepStart(below: engine.index)) : nil,
            engine.canRedo ? try engine.storage.record(at: engine.index) : nil
        )
    }
}

// MARK: - Observation

extension EngineBackedHistory {
    /// The observers, created on first use from the state as committed now.
    package var observation: HistoryObservers {
        if let observers { return observers }
        let created = HistoryObservers(state: state)
        observers = created
        return created
    }

    /// Removes a change handler, if anyone observes.
    package func removeObservingHandler(_ token: UndoChangeHandlerToken) {
        observers?.removeChangeHandler(token)
    }
}

// MARK: - Operations

extension EngineBackedHistory {
    /// Makes the command inside the write transaction, then runs and records it there.
    package func pushMaking<Command: PersistentCommand>(_ makeCommand: () throws -> Command) throws -> Command
    where Command.Receiver == Receiver {
        try perform(.push, always: macroDepth == 0) { engine in
            let bound = ReceiverBoundCommand(try makeCommand(), receiver: receiver)
            try engine.push(DurableEntry(content: .command(bound)))
            return bound.current
        }
    }

    /// Undoes exactly `steps` steps, all or nothing, the first one checked against `expected`.
    package func undoSteps(_ steps: Int, expecting expected: HistoryRecord.ID?) throws -> [HistoryRecord] {
        precondition(steps >= 1, "undo(steps:) needs at least one step")
        try requireNoMacro("undo(steps:)")
        return try perform(.undo, always: false) { engine in
            let first = engine.canUndo ? try storage.record(at: engine.stepStart(below: engine.index)) : nil
            try check(expected, against: first, direction: "undo")
            // Every step holds an entry below the index: more steps than that are refused before
            // any command runs, with the count of those there are (one read of the rows).
            if steps > engine.index {
                throw notEnough(.nothingToUndo, steps: steps, available: try storage.undoableSteps(), "undo")
            }
            var undone: [HistoryRecord] = []
            while undone.count < steps {
                guard engine.canUndo else {
                    throw notEnough(.nothingToUndo, steps: steps, available: undone.count, "undo")
                }
                undone.append(try storage.record(at: engine.stepStart(below: engine.index)))
                try engine.undo()
            }
            return undone
        }
    }

    /// Redoes exactly `steps` steps, all or nothing, the first one checked against `expected`.
    package func redoSteps(_ steps: Int, expecting expected: HistoryRecord.ID?) throws -> [HistoryRecord] {
        precondition(steps >= 1, "redo(steps:) needs at least one step")
        try requireNoMacro("redo(steps:)")
        return try perform(.redo, always: false) { engine in
            let first = engine.canRedo ? try storage.record(at: engine.index) : nil
            try check(expected, against: first, direction: "redo")
            // Every step takes an entry from the path above the index or from a parked branch.
            if steps > (try storage.redoableEntriesAtMost()) {
                throw notEnough(.nothingToRedo, steps: steps, available: try storage.redoableSteps(), "redo")
            }
            var redone: [HistoryRecord] = []
            while redone.count < steps {
                guard engine.canRedo else {
                    throw notEnough(.nothingToRedo, steps: steps, available: redone.count, "redo")
                }
                redone.append(try storage.record(at: engine.index))
                try engine.redo()
            }
            return redone
        }
    }

    /// Sets the undo limit and stores it with the history, for every connection.
    package func storeUndoLimit(_ limit: Int) throws {
        try perform(.setUndoLimit, always: false) { engine in
            try engine.setUndoLimit(limit)
            engine.storage.undoLimit = engine.undoLimit
        }
    }

    /// Removes every entry, refused while an outermost macro's transaction is open.
    package func clearEntries() throws {
        if isBetweenCallsInMacro {
            throw storeError(.macroState, "clear() while a macro is open: end it first", undoErrorCode: .macroOpen)
        }
        try perform(.clear, always: false) { engine in try engine.clear() }
    }
}

// MARK: - Refusals

extension EngineBackedHistory {
    /// Refuses a step-counted call while a macro is open (undo and redo are disabled then).
    package func requireNoMacro(_ call: String) throws {
        guard macroDepth == 0 else {
            throw storeError(.macroState, "\(call) while a macro is open: end it first", undoErrorCode: .macroOpen)
        }
    }

    /// The refusal of `steps` steps when only `available` can be undone or redone (`verb`).
    package func notEnough(_ code: StoreError.Code, steps: Int, available: Int, _ verb: String) -> StoreError {
        storeError(
            code,
            available == 0
                ? "nothing to \(verb)" : "cannot \(verb) \(steps) steps: only \(available) can be \(verb)ne",
            undoErrorCode: nil)
    }

    /// Throws when the caller expected a step other than the one the committed history has next.
    package func check(_ expected: HistoryRecord.ID?, against actual: HistoryRecord?, direction: String) throws {
        guard let expected, expected != actual?.id else { return }
        let now =
            actual.map { "the step to \(direction) is now “\($0.actionText)”" }
            ?? "there is nothing to \(direction) now"
        throw storeError(
            .historyChanged, "\(otherWriter) changed the history: \(now); nothing was done", undoErrorCode: nil)
    }

    /// The refusal of a call made from inside a running call (a command calling its own history).
    package func reentrancyError(_ call: String) -> StoreError {
        storeError(
            .macroState,
            "\(call) was made from inside a running history call (a command must not call its own history)",
            undoErrorCode: .reentrantCall)
    }
}

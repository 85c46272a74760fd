import CommandKit

/// An ``UndoHistory`` over the public ``HistoryEngine`` and a storage of its own, as a program
/// outside CommandKit (a PostgreSQL history, say) would write one: the engine owns the rules, the
/// storage keeps data, ``HistoryObservers`` publishes.
final class ArrayHistory: UndoHistory {
    typealias Command = any UndoCommand

    /// A step's identity and texts.
    struct Record: Identifiable, Hashable {
        var id: Int
        var text: String
        var actionText: String
    }

    private let storage = ArrayHistoryStorage()
    private var engine: HistoryEngine<ArrayHistoryStorage>
    private var observers: HistoryObservers?

    init() {
        engine = HistoryEngine(storage: storage)
    }

    deinit {
        observers?.finish()
    }

    /// Runs one engine operation and publishes what it did (also when it threw part of the way).
    private func perform<T>(
        _ operation: UndoChange.Operation,
        always: Bool = false,
        _ body: (inout HistoryEngine<ArrayHistoryStorage>) throws -> T
    ) rethrows -> T {
        var succeeded = false
        defer { observers?.publish(operation, state: engine.state(), always: always && succeeded) }
        let result = try body(&engine)
        succeeded = true
        return result
    }

    func push(_ command: any UndoCommand) throws {
        try perform(.push, always: !engine.isInMacro) { try $0.push(CommandEntry(command: command)) }
    }

    var state: UndoState { engine.state() }
    var index: Int { engine.index }
    var count: Int { engine.count }
    var cleanIndex: Int? { engine.cleanIndex }
    var isClean: Bool { engine.isClean }
    var canUndo: Bool { engine.canUndo }
    var canRedo: Bool { engine.canRedo }
    var undoText: String { engine.undoText() }
    var redoText: String { engine.redoText() }
    var macroDepth: Int { engine.macroDepth }
    var undoLimit: Int { engine.undoLimit }

    private func record(at position: Int) -> Record {
        let entry = storage.entry(at: position)
        return Record(id: storage.sequence(at: position), text: entry.text, actionText: entry.actionText)
    }

    var undoRecord: Record? { canUndo ? record(at: engine.stepStart(below: engine.index)) : nil }
    var redoRecord: Record? { canRedo ? record(at: engine.index) : nil }

    func undo() throws { try perform(.undo) { try $0.undo() } }
    func redo() throws { try perform(.redo) { try $0.redo() } }

    func undo(steps: Int, expecting expected: Int?) throws -> [Record] {
        try perform(.undo) { engine in
            var records: [Record] = []
            var end = engine.index
            while records.count < steps, end > 0 {
                end = engine.stepStart(below: end)
                records.append(record(at: end))
            }
            if let expected, expected != records.first?.id { throw UndoError(.historyChanged) }
            try engine.undo(steps: steps)
            return records
        }
    }

    func redo(steps: Int, expecting expected: Int?) throws -> [Record] {
        try perform(.redo) { engine in
            var records: [Record] = []
            var start = engine.index
            while records.count < steps, start < storage.count {
                records.append(record(at: start))
                start = engine.stepEnd(above: start)
            }
            if let expected, expected != records.first?.id { throw UndoError(.historyChanged) }
            try engine.redo(steps: steps)
            return records
        }
    }

    func setIndex(_ index: Int) throws { try perform(.jump) { try $0.setIndex(index) } }
    func beginMacro(_ text: String) { perform(.beginMacro) { $0.beginMacro(text: text) } }

    func endMacro() throws {
        guard perform(.endMacro, { $0.endMacro() }) else { throw UndoError(.unbalancedGrouping) }
    }

    func setClean() { perform(.setClean) { $0.setClean() } }
    func resetClean() { perform(.resetClean) { $0.resetClean() } }
    func setUndoLimit(_ limit: Int) { perform(.setUndoLimit) { $0.setUndoLimit(limit) } }
    func clear() { perform(.clear) { $0.clear() } }

    func text(at position: Int) -> String { engine.text(at: position) }

    func command(at position: Int) -> any UndoCommand {
        if position == storage.count, let open = engine.openMacroEntry() { return open.command }
        return storage.entry(at: position).command
    }

    private var observation: HistoryObservers {
        if let observers { return observers }
        let created = HistoryObservers(state: engine.state())
        observers = created
        return created
    }

    var changes: AsyncStream<UndoChange> { observation.makeStream() }
    var model: UndoStackModel { observation.observableModel() }

    func addChangeHandler(_ handler: @escaping (UndoChange) -> Void) -> UndoChangeHandlerToken {
        observation.addChangeHandler(handler)
    }

    func removeChangeHandler(_ token: UndoChangeHandlerToken) {
        observers?.removeChangeHandler(token)
    }
}

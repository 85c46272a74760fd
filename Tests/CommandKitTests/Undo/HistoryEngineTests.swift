import Testing

@testable import CommandKit

/// A storage like a database's: entries are read and written back whole (the protocol's default
/// `readEntry`/`modifyEntry`), every call is counted, and any call can be made to fail.
private final class SpyStorage: HistoryStorage {
    typealias Failure = any Error
    struct SpyFailure: Error, Equatable {}

    private var entries: [UndoEntry] = []
    private(set) var index = 0
    private(set) var cleanIndex: Int? = 0
    var count: Int { entries.count }

    private(set) var reads = 0
    private(set) var writes = 0
    var failOnAppend = false

    func resetCounters() {
        reads = 0
        writes = 0
    }

    func entry(at position: Int) throws(any Error) -> UndoEntry {
        reads += 1
        return entries[position]
    }

    func append(_ entry: UndoEntry) throws(any Error) {
        if failOnAppend { throw SpyFailure() }
        writes += 1
        entries.append(entry)
    }

    func replaceEntry(at position: Int, with entry: UndoEntry) throws(any Error) {
        writes += 1
        entries[position] = entry
    }

    func removeEntries(from position: Int) throws(any Error) {
        writes += 1
        entries.removeSubrange(position...)
    }

    func removeFirstEntries(_ k: Int) throws(any Error) {
        writes += 1
        entries.removeFirst(k)
    }

    func removeEntry(at position: Int) throws(any Error) {
        writes += 1
        entries.remove(at: position)
    }

    func setIndex(_ index: Int) throws(any Error) { self.index = index }
    func setCleanIndex(_ cleanIndex: Int?) throws(any Error) { self.cleanIndex = cleanIndex }
}

@Suite struct HistoryEngineTests {
    @Test func pushUndoRedoTouchAConstantNumberOfEntries() throws {
        let storage = SpyStorage()
        var engine = HistoryEngine(storage: storage)
        let doc = UndoTestDocument()
        for i in 0..<5_000 { try engine.push(UndoEntry(AppendLine(doc, "\(i)"))) }

        storage.resetCounters()
        try engine.push(UndoEntry(AppendLine(doc, "last")))
        try engine.undo()
        try engine.redo()
        _ = try engine.state()
        // A few reads and writes per operation, whatever the history's length.
        #expect(storage.reads <= 8)
        #expect(storage.writes <= 4)
        #expect(engine.count == 5_001 && engine.index == 5_001)
    }

    @Test func removingEntriesInsideOpenNestedMacrosKeepsEachChildInItsMacro() throws {
        var engine = HistoryEngine(storage: MemoryHistoryStorage<UndoEntry>())
        engine.beginMacro(text: "outer")
        for name in ["a1", "x1", "a2"] { try engine.push(UndoEntry(Named(name))) }
        engine.beginMacro(text: "inner")
        for name in ["a3", "y1"] { try engine.push(UndoEntry(Named(name))) }

        try engine.editAllEntries { entry in
            if var named = entry.command as? Named, named.name.hasPrefix("a") {
                named.isObsolete = true
                entry = UndoEntry(named)
            }
        }
        try engine.push(UndoEntry(Named("y2")))
        // The outermost macro's own children so far: the inner macro is still open.
        #expect(children(engine.openMacroEntry()) == ["x1"])
        engine.endMacro()
        #expect(children(engine.openMacroEntry()) == ["x1", "inner"])
        engine.endMacro()
        let inner = try #require((engine.entry(at: 0).command as? UndoMacro)?.children.last as? UndoMacro)
        #expect(inner.children.map(\.text) == ["y1", "y2"])
    }

    private func children(_ macro: UndoEntry?) -> [String]? {
        (macro?.command as? UndoMacro)?.children.map(\.text)
    }

    @Test func limitTrimmingRemovesOnlyTheOldest() throws {
        let storage = SpyStorage()
        var engine = HistoryEngine(storage: storage, undoLimit: 3)
        let doc = UndoTestDocument()
        for i in 0..<10 { try engine.push(UndoEntry(AppendLine(doc, "\(i)"))) }
        #expect(engine.count == 3 && engine.index == 3)
        #expect(try (0..<3).map { try engine.entry(at: $0).text } == ["Add 7", "Add 8", "Add 9"])
    }

    @Test func defaultModifyWritesBackWhatACommandCaptured() throws {
        struct Capture: UndoCommand {
            var runs = 0
            var text: String { "runs \(runs)" }
            mutating func redo() { runs += 1 }
            mutating func undo() {}
        }
        let storage = SpyStorage()
        var engine = HistoryEngine(storage: storage)
        try engine.push(UndoEntry(Capture()))
        try engine.undo()
        try engine.redo()
        #expect(try engine.entry(at: 0).text == "runs 2")
    }

    @Test func storageFailureStopsTheOperationAndIsRethrown() throws {
        let storage = SpyStorage()
        var engine = HistoryEngine(storage: storage)
        let doc = UndoTestDocument()
        try engine.push(UndoEntry(AppendLine(doc, "a")))
        storage.failOnAppend = true
        #expect(throws: SpyStorage.SpyFailure.self) { try engine.push(UndoEntry(AppendLine(doc, "b"))) }
        // The command ran (a durable owner rolls its transaction back); the history is unchanged.
        #expect(engine.count == 1 && engine.index == 1)
    }

    @Test func engineOnADatabaseLikeStorageBehavesLikeTheStack() throws {
        // Same scenario on both storages: identical states and texts.
        let doc1 = UndoTestDocument()
        let doc2 = UndoTestDocument()
        let stack = UndoStack(undoLimit: 4)
        var engine = HistoryEngine(storage: SpyStorage(), undoLimit: 4)
        func both(_ body: (UndoTestDocument, (any UndoCommand) throws -> Void) throws -> Void) throws {
            try body(doc1) { try stack.push($0) }
            try body(doc2) { try engine.push(UndoEntry($0)) }
        }
        try both { doc, push in
            try push(AppendLine(doc, "a"))
            try push(TypeText(document: doc, typed: "b"))
            try push(TypeText(document: doc, typed: "c"))
            try push(AppendLine(doc, "d", significant: false))
        }
        try stack.undo()
        try engine.undo()
        stack.setClean()
        try engine.setClean()
        try both { doc, push in
            for line in ["e", "f", "g", "h"] { try push(AppendLine(doc, line)) }
        }
        #expect(stack.state == (try engine.state()))
        #expect(doc1.lines == doc2.lines)
        #expect(texts(stack) == (try (0..<engine.count).map { try engine.entry(at: $0).text }))
    }
}

/// A command that does nothing, named by its text; the test marks it obsolete.
private struct Named: UndoCommand {
    let name: String
    var isObsolete = false
    var text: String { name }

    init(_ name: String) { self.name = name }

    func redo() {}
    func undo() {}
}

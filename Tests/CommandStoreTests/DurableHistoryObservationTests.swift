import CommandKit
import CommandStore
import Foundation
import Observation
import SQLiteDatabase
import Synchronization
import Testing

/// A durable history reports its changes as an `UndoStack` does: a stream of events and an
/// `@Observable` model.
@Suite struct DurableHistoryObservationTests {
    func open(_ path: String = ":memory:") throws -> (Database, NumberList, DurableHistory<NumberList>) {
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database.openStore(path: path, schemas: [NumberList.schema], configuration: configuration)
        let list = NumberList(database: db)
        return (db, list, try DurableHistory(database: db, receiver: list, registry: NumberList.registry))
    }

    /// The events a stream has buffered so far (the history is gone, so the stream has finished).
    func drain(_ stream: AsyncStream<UndoChange>) async -> [UndoChange] {
        var events: [UndoChange] = []
        for await change in stream { events.append(change) }
        return events
    }

    @Test func eachCallDeliversOneEventWithTheNewTexts() async throws {
        var stream: AsyncStream<UndoChange>?
        do {
            let (db, _, history) = try open()
            try history.push(Append(value: 1))
            stream = history.changes
            try history.push(Append(value: 2))
            try history.undo()
            try history.redo()
            try history.setIndex(0)
            try history.setClean()  // the clean index is 0 already: nothing changes
            try history.setIndex(2)
            try history.beginMacro("Both")
            try history.push(Add(amount: 5))
            try history.endMacro()
            try history.undo()
            try history.clear()
            db.close()
        }
        let events = await drain(try #require(stream))
        // No event for setClean (nothing changed) nor for the push inside the macro (it changes no
        // observable state: a history with an open macro is disabled), as with UndoStack.
        #expect(events.map(\.operation) == [.push, .undo, .redo, .jump, .jump, .beginMacro, .endMacro, .undo, .clear])
        guard events.count == 9 else { return }
        #expect(events[0].old.undoText == "Append" && events[0].new.count == 2)
        #expect(events[1].new.redoText == "Append" && events[1].new.index == 1)
        #expect(events[3].new.index == 0 && events[3].new.isClean)
        #expect(events[5].new.macroDepth == 1 && !events[5].new.canUndo)
        #expect(events[6].new.undoText == "Both" && events[6].new.count == 3)
        #expect(events[7].new.redoText == "Both")
        #expect(events[8].new == UndoState())
        // Consecutive events chain: each one's old state is the previous one's new state.
        for (previous, next) in zip(events, events.dropFirst()) { #expect(previous.new == next.old) }
    }

    @Test func aFailedCallDeliversNothing() async throws {
        var stream: AsyncStream<UndoChange>?
        do {
            let (db, _, history) = try open()
            try history.push(Append(value: 1))
            stream = history.changes
            #expect(throws: Failing.Failure.self) { try history.push(Failing()) }
            try history.undo()
            db.close()
        }
        #expect(await drain(try #require(stream)).map(\.operation) == [.undo])
    }

    @Test func aReentrantCallIsRefusedAndTheRunningCallPublishesOnce() async throws {
        var stream: AsyncStream<UndoChange>?
        var refusal: (any Error)?
        do {
            let (db, list, history) = try open()
            stream = history.changes
            list.hook = {
                do { try history.push(Append(value: 9)) } catch { refusal = error }
            }
            try history.push(Hooked())
            list.hook = nil
            #expect(try list.values().isEmpty && history.count == 1)
            db.close()
        }
        #expect((refusal as? StoreError)?.code == .macroState)
        let events = await drain(try #require(stream))
        #expect(events.map(\.operation) == [.push])
        #expect(events.first?.new.undoText == "Hooked")
    }

    @Test func theModelFollowsEveryCall() throws {
        let (db, _, history) = try open()
        defer { db.close() }
        let model = history.model
        #expect(model.count == 0 && !model.canUndo && model.undoText == "")
        try history.push(Append(value: 1))
        #expect(model.count == 1 && model.canUndo && model.undoText == "Append")
        let changed = LockedFlag()
        withObservationTracking {
            _ = model.redoText
        } onChange: {
            changed.set()
        }
        try history.undo()
        #expect(changed.value)
        #expect(model.index == 0 && model.canRedo && model.redoText == "Append" && model.isClean)
    }

    @Test func reloadReportsWhatAnotherConnectionChanged() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("observed.sqlite")
        var stream: AsyncStream<UndoChange>?
        do {
            let (db, _, history) = try open(path)
            try history.push(Append(value: 1))
            stream = history.changes
            let (otherDB, _, other) = try open(path)
            try other.push(Append(value: 2))
            otherDB.close()
            try history.reload()
            try history.reload()  // nothing new: no event
            db.close()
        }
        let events = await drain(try #require(stream))
        #expect(events.map(\.operation) == [.reload])
        #expect(events.first?.old.count == 1 && events.first?.new.count == 2)
    }

    /// Regression: a macro whose opening failed after the engine opened it stayed open in memory,
    /// and the next push ran its command and recorded it nowhere.
    @Test func aMacroThatFailsToOpenLeavesNoMacroOpen() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("macro.sqlite")
        do {
            let (db, list, history) = try open(path)
            try history.push(Append(value: 1))
            try history.push(Append(value: 2))
            try history.undo()  // a redo tail: opening a macro must rewrite the header
            try db.execute(
                """
                CREATE TEMP TRIGGER refuse_header BEFORE UPDATE ON commandstore_history_header
                BEGIN SELECT RAISE(ABORT, 'header refused'); END
                """)
            #expect(throws: DatabaseError.self) { try history.beginMacro("Never") }
            try db.execute("DROP TRIGGER refuse_header")
            #expect(history.macroDepth == 0 && history.count == 2 && history.index == 1)
            try history.push(Append(value: 3))
            #expect(try list.values() == [1, 3])
            #expect(history.count == 2 && history.undoText == "Append")
            db.close()
        }
        let (db, list, history) = try open(path)
        defer { db.close() }
        #expect(history.count == 2 && history.index == 2)
        try history.undo()
        #expect(try list.values() == [1])
    }
}

/// A flag set from an observation callback (which may run on any thread).
private final class LockedFlag: Sendable {
    private let storage = Atomic(false)
    var value: Bool { storage.load(ordering: .acquiring) }
    func set() { storage.store(true, ordering: .releasing) }
}

import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// The Undo/Redo texts are read on demand after a call: whatever the order of calls and reads,
/// the state must be the one a freshly opened history computes from the file.
@Suite struct LazyStateTests {
    func open() throws -> (db: Database, list: NumberList, history: DurableHistory<NumberList>) {
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database.openStore(path: ":memory:", schemas: [NumberList.schema], configuration: configuration)
        let list = NumberList(database: db)
        return (db, list, try DurableHistory(database: db, receiver: list, registry: NumberList.registry))
    }

    @Test(arguments: [UInt64(1), 42, 0xC0FFEE])
    func stateMatchesAFreshlyOpenedHistory(seed: UInt64) throws {
        let (db, list, history) = try open()
        var random = SplitMix64(seed: seed)
        for step in 0..<300 {
            switch random.next() % 9 {
            case 0, 1: try history.push(Append(value: step, significant: random.next() % 4 != 0))
            case 2: try history.push(Add(amount: Int(random.next() % 5) - 2))
            case 3, 4: try history.undo()
            case 5: try history.redo()
            case 6: try history.setIndex(Int(random.next() % UInt64(history.count + 1)))
            case 7: try history.setUndoLimit(Int(random.next() % 8))
            default:
                try history.beginMacro("Macro \(step)")
                try history.push(Append(value: step))
                try history.endMacro()
            }
            if random.next() % 3 == 0 { try history.setClean() }
            // Reading only now and then leaves the texts stale across several calls.
            guard random.next() % 2 == 0 else { continue }
            let fresh = try DurableHistory(database: db, receiver: list, registry: NumberList.registry)
            let matches = history.state == fresh.state
            #expect(matches, "seed \(seed), step \(step): \(history.state) != \(fresh.state)")
            if !matches { return }
        }
    }

    @Test func textsAfterPushesNobodyReadAreTheNewestOnes() throws {
        let (_, _, history) = try open()
        for value in 1...10 { try history.push(Append(value: value)) }
        try history.undo()
        try history.undo()
        #expect(history.undoText == "Append")
        #expect(history.redoText == "Append")
        #expect(try history.text(at: history.index) == "Append 9")
        try history.setIndex(0)
        #expect(history.undoText == "" && history.redoText == "Append")
        #expect(history.state.canRedo && !history.state.canUndo)
    }

    @Test func textsAreEmptyWhileAMacroIsOpen() throws {
        let (_, _, history) = try open()
        try history.push(Append(value: 1))
        try history.beginMacro("Two")
        try history.push(Append(value: 2))
        #expect(history.undoText == "" && history.redoText == "")
        #expect(history.macroDepth == 1 && !history.canUndo)
        try history.endMacro()
        #expect(history.undoText == "Two")
        #expect(history.count == 2)
    }

    @Test func commandReadingTheHistoryWhileItRunsSeesThePreviousCall() throws {
        let (_, list, history) = try open()
        try history.push(Append(value: 1))
        try history.push(Append(value: 2))
        var seen: (String, Int)?
        list.hook = { seen = (history.undoText, history.count) }
        defer { list.hook = nil }
        try history.push(Hooked())
        #expect(seen?.0 == "Append" && seen?.1 == 2)
        #expect(history.undoText == "Hooked" && history.count == 3)
    }

    @Test func failedCallLeavesTheStateOfTheFile() throws {
        let (_, _, history) = try open()
        try history.push(Append(value: 1))
        #expect(throws: Failing.Failure.self) { try history.push(Failing()) }
        #expect(history.count == 1 && history.undoText == "Append")
    }
}

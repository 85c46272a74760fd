import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

@Suite struct DurableHistoryTests {
    /// An open store, its receiver and its history.
    struct Fixture {
        let db: Database
        let list: NumberList
        let history: DurableHistory<NumberList>
    }

    func open(_ path: String, registry: CommandRegistry<NumberList> = NumberList.registry) throws -> Fixture {
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database.openStore(path: path, schemas: [NumberList.schema], configuration: configuration)
        let list = NumberList(database: db)
        let history = try DurableHistory(database: db, receiver: list, registry: registry)
        return Fixture(db: db, list: list, history: history)
    }

    @Test func pushUndoRedoSurviveReopening() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        do {
            let f = try open(path)
            for value in 1...5 { try f.history.push(Append(value: value)) }
            try f.history.undo()
            try f.history.undo()
            #expect(try f.list.values() == [1, 2, 3])
            #expect(f.history.undoText == "Append")
            #expect(try f.history.text(at: 3) == "Append 4")
            f.db.close()
        }
        let f = try open(path)
        #expect(f.history.index == 3)
        #expect(f.history.count == 5)
        #expect(f.history.canUndo && f.history.canRedo)
        #expect(f.history.undoText == "Append" && f.history.redoText == "Append")
        #expect(try (0..<5).map { try f.history.text(at: $0) } == (1...5).map { "Append \($0)" })
        try f.history.redo()
        #expect(try f.list.values() == [1, 2, 3, 4])
        while f.history.canUndo { try f.history.undo() }
        #expect(try f.list.values().isEmpty)
        #expect(f.history.index == 0)
    }

    @Test func pushDropsTheRedoTail() throws {
        let f = try open(":memory:")
        for value in 1...3 { try f.history.push(Append(value: value)) }
        try f.history.undo()
        try f.history.undo()
        try f.history.push(Append(value: 9))
        #expect(f.history.count == 2)
        #expect(!f.history.canRedo)
        #expect(try f.list.values() == [1, 9])
        #expect(try f.db.fetchOne("SELECT count(*) FROM commandstore_history_entry WHERE payload IS NOT NULL")?[0] == 2)
    }

    @Test func macroIsOneStepAndOneTransaction() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        do {
            let f = try open(path)
            try f.history.push(Append(value: 1))
            try f.history.beginMacro("Append three")
            #expect(f.db.isInsideTransaction)
            #expect(!f.history.canUndo)
            try f.history.push(Append(value: 2))
            try f.history.beginMacro("Inner")
            try f.history.push(Append(value: 3))
            try f.history.endMacro()
            try f.history.push(Append(value: 4))
            try f.history.endMacro()
            #expect(!f.db.isInsideTransaction)
            #expect(f.history.count == 2)
            #expect(f.history.undoText == "Append three")
            f.db.close()
        }
        let f = try open(path)
        #expect(f.history.count == 2 && f.history.index == 2)
        #expect(f.history.undoText == "Append three")
        try f.history.undo()
        #expect(try f.list.values() == [1])
        try f.history.redo()
        #expect(try f.list.values() == [1, 2, 3, 4])
    }

    @Test func unfinishedMacroLeavesNothingBehind() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        do {
            let f = try open(path)
            try f.history.push(Append(value: 1))
            try f.history.beginMacro("Never ends")
            try f.history.push(Append(value: 2))
            // The history goes away with its macro open (the process dies, say).
        }
        let f = try open(path)
        #expect(f.history.count == 1)
        #expect(try f.list.values() == [1])
    }

    @Test func failingCommandRecordsNothingAndRollsBackItsWrites() throws {
        let f = try open(":memory:")
        try f.history.push(Append(value: 1))
        #expect(throws: Failing.Failure()) { try f.history.push(Failing()) }
        #expect(try f.list.values() == [1])
        #expect(f.history.count == 1 && f.history.index == 1)
        #expect(!f.db.isInsideTransaction)
    }

    @Test func failingChildInsideMacroIsRolledBackAlone() throws {
        let f = try open(":memory:")
        try f.history.beginMacro("Mixed")
        try f.history.push(Append(value: 1))
        #expect(throws: Failing.Failure()) { try f.history.push(Failing()) }
        try f.history.push(Append(value: 2))
        try f.history.endMacro()
        #expect(try f.list.values() == [1, 2])
        try f.history.undo()
        #expect(try f.list.values().isEmpty)
    }

    @Test func mergedCommandsAreOneEntry() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        do {
            let f = try open(path)
            for amount in [1, 2, 3, 4] { try f.history.push(Add(amount: amount)) }
            #expect(f.history.count == 1)
            #expect(try f.history.text(at: 0) == "Add 10")
            f.db.close()
        }
        let f = try open(path)
        #expect(try f.list.total() == 10)
        #expect(f.history.undoText == "Add 10")
        try f.history.undo()
        #expect(try f.list.total() == 0)
    }

    @Test func mergeThatCancelsOutRemovesTheEntry() throws {
        let f = try open(":memory:")
        try f.history.push(Append(value: 1))
        try f.history.push(Add(amount: 5))
        try f.history.push(Add(amount: -5))
        #expect(f.history.count == 1)
        #expect(f.history.index == 1)
        #expect(try f.list.total() == 0)
    }

    @Test func cleanStateSurvivesReopening() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        do {
            let f = try open(path)
            #expect(f.history.isClean)
            try f.history.push(Append(value: 1))
            try f.history.push(Append(value: 2))
            #expect(!f.history.isClean)
            try f.history.setClean()
            try f.history.push(Append(value: 3))
            f.db.close()
        }
        let f = try open(path)
        #expect(f.history.cleanIndex == 2)
        #expect(!f.history.isClean)
        try f.history.undo()
        #expect(f.history.isClean)
        // Pushing from below the clean index drops it with the redo tail.
        try f.history.undo()
        try f.history.push(Append(value: 9))
        #expect(f.history.cleanIndex == nil)
    }

    @Test func undoLimitTrimsOldestWithoutRenumbering() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        do {
            let f = try open(path)
            try f.history.setUndoLimit(3)
            for value in 1...5 { try f.history.push(Append(value: value)) }
            #expect(f.history.count == 3)
            let sequences = try f.db.fetchAll(
                "SELECT sequence FROM commandstore_history_entry WHERE payload IS NOT NULL ORDER BY sequence"
            )
            .map { try $0.decode(Int.self, at: 0) }
            #expect(sequences == [2, 3, 4], "survivors keep their sequence numbers")
            f.db.close()
        }
        let f = try open(path)
        #expect(f.history.undoLimit == 3)
        #expect(try (0..<3).map { try f.history.text(at: $0) } == ["Append 3", "Append 4", "Append 5"])
        while f.history.canUndo { try f.history.undo() }
        #expect(try f.list.values() == [1, 2])
        try f.history.setIndex(3)
        #expect(try f.list.values() == [1, 2, 3, 4, 5])
    }

    @Test func insignificantEntriesRideAlong() throws {
        let f = try open(":memory:")
        try f.history.push(Append(value: 1))
        try f.history.push(Append(value: 2, significant: false))
        try f.history.push(Append(value: 3, significant: false))
        try f.history.undo()
        #expect(try f.list.values().isEmpty)
        try f.history.redo()
        #expect(try f.list.values() == [1, 2, 3])
    }

    @Test func setIndexJumpsInOneTransaction() throws {
        let f = try open(":memory:")
        for value in 1...6 { try f.history.push(Append(value: value)) }
        try f.history.setIndex(2)
        #expect(try f.list.values() == [1, 2])
        try f.history.setIndex(100)
        #expect(f.history.index == 6)
        #expect(try f.list.values() == [1, 2, 3, 4, 5, 6])
    }

    @Test func clearEmptiesTheHistoryButNotTheData() throws {
        let f = try open(":memory:")
        for value in 1...3 { try f.history.push(Append(value: value)) }
        try f.history.clear()
        #expect(f.history.count == 0 && f.history.isClean && !f.history.canUndo)
        #expect(try f.list.values() == [1, 2, 3])
    }

    @Test func unbalancedEndMacroIsAnError() throws {
        let f = try open(":memory:")
        #expect { try f.history.endMacro() } throws: { ($0 as? StoreError)?.code == .macroState }
        try f.history.beginMacro("open")
        #expect { try f.history.clear() } throws: { ($0 as? StoreError)?.code == .macroState }
        try f.history.endMacro()
    }

    @Test func unknownKindIsReportedByTheUndoThatNeedsIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        do {
            let f = try open(path)
            try f.history.push(Add(amount: 2))
            for value in 1...3 { try f.history.push(Append(value: value)) }
            f.db.close()
        }
        var partial = CommandRegistry<NumberList>()
        partial.register(Append.self)
        // Opening reads the header and stored texts only: an unregistered kind does not stop it.
        let f = try open(path, registry: partial)
        #expect(try f.history.text(at: 0) == "Add 2")
        for _ in 0..<3 { try f.history.undo() }
        #expect(f.history.undoText == "Add 2")
        do {
            try f.history.undo()
            Issue.record("undid an entry whose kind is not registered")
        } catch let error as StoreError {
            #expect(error.code == .unknownCommandKind)
            #expect(error.message.contains("test.add"))
            #expect(error.message.contains("history entry 0"))
            #expect(error.message.contains(path))
            #expect(error.path == path)
        }
        // Nothing was skipped: the entry is still there, still next to undo, and the data untouched.
        #expect(f.history.index == 1 && f.history.count == 4)
        #expect(try f.list.total() == 2)
        #expect(!f.db.isInsideTransaction)
    }

    @Test func verifyEntriesFindsUnknownKindsAnywhere() throws {
        let f = try open(":memory:")
        try f.history.push(Add(amount: 2))
        try f.history.beginMacro("m")
        try f.history.push(Append(value: 1))
        try f.history.endMacro()
        try f.history.push(Append(value: 2))
        try f.history.verifyEntries()
        var partial = CommandRegistry<NumberList>()
        partial.register(Add.self)
        let other = try DurableHistory(database: f.db, receiver: f.list, registry: partial)
        #expect { try other.verifyEntries() } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .unknownCommandKind && error.message.contains("history entry 1, child 0")
        }
    }

    @Test func newerCommandVersionIsRefused() throws {
        let f = try open(":memory:")
        try f.history.push(Append(value: 1))
        try f.db.execute("UPDATE commandstore_history_entry SET version = 7 WHERE sequence = 0")
        try f.history.reload()
        #expect { try f.history.undo() } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .unsupportedCommandVersion && error.message.contains("version 7")
        }
    }

    @Test func damagedCommandDataIsReported() throws {
        let f = try open(":memory:")
        try f.history.push(Append(value: 1))
        try f.db.execute(
            "UPDATE commandstore_history_entry SET payload = ? WHERE sequence = 0", [Data("{\"nope\":1}".utf8)])
        try f.history.reload()
        #expect { try f.history.undo() } throws: { ($0 as? StoreError)?.code == .invalidCommandData }
        #expect(try f.list.values() == [1])
    }

    @Test func commandCallingItsOwnHistoryIsRefused() throws {
        let f = try open(":memory:")
        f.list.hook = { try f.history.push(Append(value: 5)) }
        defer { f.list.hook = nil }
        #expect { try f.history.push(Hooked()) } throws: { ($0 as? StoreError)?.code == .macroState }
        #expect(f.history.count == 0)
        #expect(try f.list.values().isEmpty)
        // The history still works afterwards.
        try f.history.push(Append(value: 1))
        #expect(f.history.count == 1)
    }

    @Test func historyNeedsAStoreDatabase() throws {
        let db = try Database.inMemory()
        #expect {
            try DurableHistory(database: db, receiver: NumberList(database: db), registry: NumberList.registry)
        } throws: { ($0 as? StoreError)?.code == .foreignDatabase }
    }

    @Test func historyCallsInsideTheCallersTransactionCommitWithIt() throws {
        let f = try open(":memory:")
        try f.db.inTransaction {
            try f.history.push(Append(value: 1))
            try f.history.beginMacro("macro")
            try f.history.push(Append(value: 2))
            try f.history.endMacro()
            return .rollback
        }
        try f.history.reload()
        #expect(f.history.count == 0)
        #expect(try f.list.values().isEmpty)
    }
}

import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// Appends a number and carries a large filler: its payload spans hundreds of overflow pages.
struct Big: PersistentCommand {
    static let kind = "test.big"
    var value: Int
    var filler: String

    var text: String { "Big \(value)" }
    var actionText: String { "Big" }

    func redo(on list: NumberList) throws { try list.append(value) }
    func undo(on list: NumberList) throws { try list.removeLast() }
}

/// Appends a number and counts its runs: its payload changes each time it runs.
struct Counted: PersistentCommand {
    static let kind = "test.counted"
    var value: Int
    var runs = 0

    var text: String { "Counted \(value)" }

    mutating func redo(on list: NumberList) throws {
        try list.append(value)
        runs += 1
    }

    mutating func undo(on list: NumberList) throws {
        try list.removeLast()
        runs += 1
    }
}

/// Reading texts after reopening reads each row without its payload; running an entry reads it.
@Suite struct TextsWithoutPayloadTests {
    struct Fixture {
        let db: Database
        let list: NumberList
        let history: DurableHistory<NumberList>
    }

    static var registry: CommandRegistry<NumberList> {
        var registry = NumberList.registry
        registry.register(Big.self)
        registry.register(Counted.self)
        return registry
    }

    /// One mebibyte of a byte found nowhere else in the file.
    static let filler = String(repeating: "x", count: 1 << 20)

    func open(_ path: String) throws -> Fixture {
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database.openStore(path: path, schemas: [NumberList.schema], configuration: configuration)
        let list = NumberList(database: db)
        let history = try DurableHistory(database: db, receiver: list, registry: Self.registry)
        return Fixture(db: db, list: list, history: history)
    }

    /// Pushes Big 1...3 (1 MiB payload each) and undoes one, then closes the file.
    func writeBigHistory(_ path: String) throws {
        let f = try open(path)
        for value in 1...3 { try f.history.push(Big(value: value, filler: Self.filler)) }
        try f.history.undo()
        f.db.close()
    }

    /// Zeroes every page of the file that holds nothing but the filler (after its 4-byte
    /// overflow-page link): any read of those payloads then fails. Returns how many it zeroed.
    func zeroFillerPages(_ path: String) throws -> Int {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let field = Int(bytes[16]) << 8 | Int(bytes[17])
        let pageSize = field == 1 ? 65536 : field
        let x = UInt8(ascii: "x")
        var zeroed = 0
        // Page 1 (the file header) never holds payload bytes.
        for start in stride(from: pageSize, to: bytes.count, by: pageSize) {
            let end = min(start + pageSize, bytes.count)
            guard end - start == pageSize, bytes[(start + 4)..<end].allSatisfy({ $0 == x }) else { continue }
            for offset in start..<end { bytes[offset] = 0 }
            zeroed += 1
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return zeroed
    }

    @Test func textsAfterReopeningNeverTouchThePayloadPages() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        try writeBigHistory(path)
        // Closed and released: the log is checkpointed, every page is in the main file.
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let zeroed = try zeroFillerPages(path)
        // Three payloads of 1 MiB: hundreds of pages each, whatever the page size.
        #expect(zeroed >= 3 * ((1 << 20) / 65536))

        let f = try open(path)
        #expect(f.history.count == 3 && f.history.index == 2)
        #expect(f.history.undoText == "Big")
        #expect(f.history.redoText == "Big")
        #expect(try (0..<3).map { try f.history.text(at: $0) } == ["Big 1", "Big 2", "Big 3"])
        #expect(try f.list.values() == [1, 2])
        // The nodes come from their index: a row's node column lies beyond its payload.
        #expect(try f.history.records().nodes.map(\.rawValue) == [1, 2, 3])

        // Running an entry reads its payload: the damage shows, and nothing changes.
        #expect(throws: (any Error).self) { try f.history.undo() }
        #expect(throws: (any Error).self) { try f.history.verifyEntries() }
        #expect(f.history.index == 2)
        #expect(try f.list.values() == [1, 2])
        #expect(try (0..<3).map { try f.history.text(at: $0) } == ["Big 1", "Big 2", "Big 3"])
    }

    @Test func undoAndRedoAfterReopeningReadThePayload() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        try writeBigHistory(path)
        let f = try open(path)
        // Texts first (the cache then holds rows read without payload), then run each entry.
        #expect(try (0..<3).map { try f.history.text(at: $0) } == ["Big 1", "Big 2", "Big 3"])
        #expect(f.history.undoText == "Big" && f.history.redoText == "Big")
        try f.history.verifyEntries()
        try f.history.redo()
        #expect(try f.list.values() == [1, 2, 3])
        while f.history.canUndo { try f.history.undo() }
        #expect(try f.list.values().isEmpty)
        while f.history.canRedo { try f.history.redo() }
        #expect(try f.list.values() == [1, 2, 3])
        // Run entries were rewritten only if they changed (they did not): the payload is intact.
        let payloads = try f.db.fetchAll(
            "SELECT length(payload) FROM commandstore_history_entry WHERE payload IS NOT NULL ORDER BY sequence")
        #expect(try payloads.map { try $0.decode(Int.self, at: 0) }.allSatisfy { $0 > 1 << 20 })
        #expect(payloads.count == 3)
    }

    @Test func textsOfRowsWithoutPayloadReadFineAndRunningThemReportsTheDamage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        do {
            let f = try open(path)
            for value in 1...3 { try f.history.push(Append(value: value)) }
            try f.history.undo()
            f.db.close()
        }
        let f = try open(path)
        try f.db.execute("UPDATE commandstore_history_entry SET payload = NULL WHERE kind IS NOT NULL")
        try f.history.reload()
        #expect(f.history.undoText == "Append" && f.history.redoText == "Append")
        #expect(try (0..<3).map { try f.history.text(at: $0) } == ["Append 1", "Append 2", "Append 3"])

        let isMissingData = { (error: any Error, position: Int) -> Bool in
            guard let error = error as? StoreError else { return false }
            return error.code == .corruptDatabase && error.path == path
                && error.message.contains("entry \(position) ") && error.message.contains("without its data")
        }
        #expect { try f.history.undo() } throws: { isMissingData($0, 1) }
        #expect { try f.history.redo() } throws: { isMissingData($0, 2) }
        #expect { try f.history.verifyEntries() } throws: { isMissingData($0, 0) }
        #expect(f.history.index == 2)
        #expect(try f.list.values() == [1, 2])
        // Text where a blob belongs: damage as well.
        try f.db.execute("UPDATE commandstore_history_entry SET payload = '{}' WHERE kind IS NOT NULL")
        try f.history.reload()
        #expect(try f.history.text(at: 1) == "Append 2")
        #expect { try f.history.undo() } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .corruptDatabase
                && error.message.contains("entry 1 (sequence 1) whose data is not a blob")
        }
    }

    @Test func textsOfRowsWithDamagedPayloadReadFineAndUndoReportsIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        let f = try open(path)
        for value in 1...2 { try f.history.push(Append(value: value)) }
        try f.db.execute(
            "UPDATE commandstore_history_entry SET payload = ? WHERE kind IS NOT NULL", [Data([0xFF, 0x00, 0x7B])])
        try f.history.reload()
        #expect(f.history.undoText == "Append")
        #expect(try (0..<2).map { try f.history.text(at: $0) } == ["Append 1", "Append 2"])
        #expect { try f.history.undo() } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .invalidCommandData && error.message.contains("history entry 1")
        }
        #expect(try f.list.values() == [1, 2])
    }

    @Test func unchangedEntriesAreNotRewrittenAfterReadingTheirTexts() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        do {
            let f = try open(path)
            try f.history.push(Append(value: 1))
            try f.history.push(Counted(value: 2))
            try f.history.push(Append(value: 3))
            f.db.close()
        }
        let f = try open(path)
        // Counts the UPDATEs of entry rows (not of the header row, at the smallest key).
        try f.db.execute("CREATE TEMP TABLE entry_update (sequence INTEGER NOT NULL)")
        try f.db.execute(
            """
            CREATE TEMP TRIGGER count_entry_update AFTER UPDATE ON commandstore_history_entry
            WHEN old.sequence > -9223372036854775808
            BEGIN INSERT INTO entry_update VALUES (old.sequence); END
            """)
        func updatedSequences() throws -> [Int] {
            try f.db.fetchAll("SELECT sequence FROM entry_update ORDER BY rowid").map { try $0.decode(Int.self, at: 0) }
        }
        #expect(try (0..<3).map { try f.history.text(at: $0) } == ["Append 1", "Counted 2", "Append 3"])
        try f.history.undo()
        #expect(try updatedSequences().isEmpty)
        // Counted changes when it runs: its row is rewritten each time (and only its row).
        try f.history.undo()
        try f.history.undo()
        #expect(try updatedSequences() == [1])
        try f.history.redo()
        try f.history.redo()
        try f.history.redo()
        #expect(try updatedSequences() == [1, 1])
        #expect(try f.list.values() == [1, 2, 3])
        // The rewritten row is whole: it decodes and runs after reopening.
        try f.history.setIndex(1)
        #expect(try f.list.values() == [1])
        #expect(try f.db.fetchOne("SELECT payload IS NULL FROM commandstore_history_entry WHERE sequence = 1")?[0] == 0)
    }

    @Test func mergingIntoAnEntryReadForItsTextsReadsItsPayload() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        do {
            let f = try open(path)
            try f.history.push(Append(value: 1))
            try f.history.push(Add(amount: 5))
            f.db.close()
        }
        let f = try open(path)
        #expect(f.history.undoText == "Add 5")
        try f.history.push(Add(amount: 2))
        #expect(f.history.count == 2)
        #expect(try f.history.text(at: 1) == "Add 7")
        #expect(try f.list.total() == 7)
        // Merging to nothing makes the entry obsolete: it is removed, positions shift.
        try f.history.push(Add(amount: -7))
        #expect(f.history.count == 1 && f.history.index == 1)
        #expect(f.history.undoText == "Append")
        #expect(try f.list.total() == 0)
        try f.history.undo()
        #expect(try f.list.values().isEmpty)
    }

    @Test func aMacroOfManyChildrenShowsItsTextWithoutItsChildren() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        do {
            let f = try open(path)
            try f.history.beginMacro("Import")
            for value in 1...1000 { try f.history.push(Append(value: value)) }
            try f.history.endMacro()
            f.db.close()
        }
        do {
            let f = try open(path)
            #expect(f.history.undoText == "Import")
            try f.history.undo()
            #expect(try f.list.values().isEmpty)
            #expect(f.history.redoText == "Import")
            try f.history.redo()
            #expect(try f.list.values() == Array(1...1000))
            f.db.close()
        }
        let f = try open(path)
        try f.db.execute("UPDATE commandstore_history_entry SET payload = NULL WHERE kind IS NULL AND text = 'Import'")
        try f.history.reload()
        #expect(f.history.undoText == "Import")
        #expect(try f.history.text(at: 0) == "Import")
        #expect { try f.history.undo() } throws: { error in
            (error as? StoreError)?.code == .corruptDatabase
                && (error as? StoreError)?.message.contains("entry 0 ") == true
        }
        #expect(try f.list.values().count == 1000)
    }

    @Test func aRolledBackCallForgetsRowsReadForTheirTexts() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        do {
            let f = try open(path)
            for value in 1...3 { try f.history.push(Append(value: value)) }
            try f.history.undo()
            f.db.close()
        }
        let f = try open(path)
        #expect(f.history.undoText == "Append" && f.history.redoText == "Append")
        // The push drops the redo tail (entry 2), then fails: all of it is rolled back.
        #expect(throws: Failing.Failure.self) { try f.history.push(Failing()) }
        #expect(f.history.count == 3 && f.history.index == 2)
        #expect(try (0..<3).map { try f.history.text(at: $0) } == ["Append 1", "Append 2", "Append 3"])
        try f.history.redo()
        #expect(try f.list.values() == [1, 2, 3])
        try f.history.undo()
        try f.history.undo()
        #expect(try f.list.values() == [1])
    }
}

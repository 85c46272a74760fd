import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// The header row stores count and index only away from the top; at the top they follow from the
/// entry rows, and a push leaves the header alone. Since format 4 the header has a table of its own.
@Suite struct HistoryHeaderTests {
    static let header = "SELECT base, count, current_index, clean_index FROM commandstore_history_header"

    /// Rewrites a file of today's format in the layout of format 3: the header as the entries
    /// table's row at the smallest key, no identity columns.
    static func rewriteAsFormat3(_ db: Database) throws {
        try db.execute(
            """
            CREATE TABLE format3 (
                sequence INTEGER PRIMARY KEY, kind TEXT, version INTEGER, text TEXT, action_text TEXT,
                merge_id INTEGER, significant INTEGER, payload BLOB, base INTEGER, count INTEGER,
                current_index INTEGER, clean_index INTEGER, undo_limit INTEGER
            );
            INSERT INTO format3 (sequence, kind, version, text, action_text, merge_id, significant, payload)
                SELECT sequence, kind, version, text, action_text, merge_id, significant, payload
                FROM commandstore_history_entry;
            INSERT INTO format3 (sequence, base, count, current_index, clean_index, undo_limit)
                SELECT -9223372036854775807 - 1, base, count, current_index, clean_index, undo_limit
                FROM commandstore_history_header;
            DROP TABLE commandstore_history_entry;
            DROP TABLE commandstore_history_header;
            DROP TABLE commandstore_history_branch;
            ALTER TABLE format3 RENAME TO commandstore_history_entry;
            UPDATE commandstore_schema SET version = 3 WHERE identifier = 'commandstore';
            """)
    }

    func open(_ path: String) throws -> (db: Database, list: NumberList, history: DurableHistory<NumberList>) {
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database.openStore(path: path, schemas: [NumberList.schema], configuration: configuration)
        let list = NumberList(database: db)
        return (db, list, try DurableHistory(database: db, receiver: list, registry: NumberList.registry))
    }

    @Test func pushesAtTheTopLeaveTheHeaderAloneAndUndoWritesIt() throws {
        let (db, _, history) = try open(":memory:")
        try history.push(Append(value: 1))
        #expect(try db.fetchOne(Self.header)?.values == [0, nil, nil, 0])
        let changes = try db.fetchOne("SELECT total_changes()")?.decode(Int.self, at: 0) ?? 0
        try history.push(Append(value: 2))
        // The receiver's row and the entry's row: nothing else.
        #expect(try db.fetchOne("SELECT total_changes()")?.decode(Int.self, at: 0) == changes + 2)
        try history.undo()
        #expect(try db.fetchOne(Self.header)?.values == [0, 2, 1, 0])
        try history.push(Append(value: 3))
        #expect(try db.fetchOne(Self.header)?.values == [0, nil, nil, 0])
        #expect(history.count == 2 && history.index == 2)
    }

    @Test func reopeningCountsTheRowsAtTheTop() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        do {
            let (db, _, history) = try open(path)
            try history.setUndoLimit(3)
            for value in 1...5 { try history.push(Append(value: value)) }
            try history.push(Add(amount: 2))
            // Trimmed to Append 4, Append 5, Add 2; then the merge cancels out and the entry goes.
            try history.push(Add(amount: -2))
            db.close()
        }
        let (_, list, history) = try open(path)
        try #require(history.count == 2 && history.index == 2)
        #expect(try (0..<2).map { try history.text(at: $0) } == ["Append 4", "Append 5"])
        while history.canUndo { try history.undo() }
        #expect(try list.values() == [1, 2, 3])
        try history.clear()
        let (_, _, reopened) = try open(path)
        #expect(reopened.count == 0 && reopened.index == 0)
    }

    @Test func versionOneFileIsMigratedAndKeepsItsState() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("v1.sqlite")
        do {
            let (db, _, history) = try open(path)
            for value in 1...4 { try history.push(Append(value: value)) }
            try Self.rewriteAsFormat3(db)
            // Written as version 1 did: the header at the largest key, explicit count and index.
            try db.execute(
                """
                UPDATE commandstore_history_entry SET sequence = 9223372036854775807, count = 4, current_index = 4
                WHERE sequence = -9223372036854775807 - 1
                """)
            try db.execute("UPDATE commandstore_schema SET version = 1 WHERE identifier = 'commandstore'")
            db.close()
        }
        let (db, _, history) = try open(path)
        #expect(try db.schemaVersion(of: "commandstore") == 7)
        #expect(try db.fetchOne(Self.header)?.values == [0, nil, nil, 0])
        #expect(history.count == 4 && history.index == 4 && history.undoText == "Append")
    }

    @Test func versionTwoFileIsMigratedAndKeepsItsState() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("v2.sqlite")
        do {
            let (db, _, history) = try open(path)
            for value in 1...5 { try history.push(Append(value: value)) }
            try history.undo()
            try history.setClean()
            try Self.rewriteAsFormat3(db)
            // Written as version 2 did: the header at the largest key.
            try db.execute(
                "UPDATE commandstore_history_entry SET sequence = 9223372036854775807 WHERE sequence = -9223372036854775807 - 1"
            )
            try db.execute("UPDATE commandstore_schema SET version = 2 WHERE identifier = 'commandstore'")
            db.close()
        }
        let (db, list, history) = try open(path)
        #expect(try db.schemaVersion(of: "commandstore") == 7)
        #expect(try db.fetchOne(Self.header)?.values == [0, 5, 4, 4])
        #expect(
            try db.fetchOne("SELECT typeof(sequence) FROM commandstore_history_entry ORDER BY sequence LIMIT 1")?.values
                == ["integer"])
        #expect(try db.fetchOne("SELECT count(*) FROM commandstore_history_entry WHERE sequence > 5")?.values == [0])
        #expect(history.count == 5 && history.index == 4 && history.isClean && history.redoText == "Append")
        try history.redo()
        try history.push(Append(value: 6))
        #expect(try list.values() == [1, 2, 3, 4, 5, 6])
        #expect(history.count == 6)
        while history.canUndo { try history.undo() }
        #expect(try list.values().isEmpty)
    }

    @Test func versionThreeFileIsMigratedAndKeepsItsState() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("v3.sqlite")
        do {
            let (db, _, history) = try open(path)
            for value in 1...3 { try history.push(Append(value: value)) }
            try history.undo()
            try Self.rewriteAsFormat3(db)
            db.close()
        }
        let (db, list, history) = try open(path)
        #expect(try db.schemaVersion(of: "commandstore") == 7)
        #expect(try db.fetchOne(Self.header)?.values == [0, 3, 2, 0])
        #expect(history.count == 3 && history.index == 2 && history.redoText == "Append")
        // Migrated entries have no token or time: named by their sequence, dated nil.
        let migrated = try history.record(at: 0)
        #expect(migrated.date == nil && migrated.text == "Append 1")
        try history.redo()
        try history.push(Append(value: 4))
        let fresh = try history.record(at: 3)
        #expect(fresh.date != nil && fresh.id != migrated.id)
        #expect(try list.values() == [1, 2, 3, 4])
    }

    @Test func pushesAppendAndTheHeaderLivesInItsOwnTable() throws {
        let (db, _, history) = try open(":memory:")
        for value in 1...3 { try history.push(Append(value: value)) }
        let keys = try db.fetchAll("SELECT sequence FROM commandstore_history_entry ORDER BY sequence").map {
            try $0.decode(Int64.self, at: 0)
        }
        #expect(keys == [0, 1, 2])
        // Trimming and removing entries never touches the header.
        try history.setUndoLimit(2)
        try history.undo()
        try history.push(Append(value: 9))
        let after = try db.fetchAll("SELECT sequence FROM commandstore_history_entry ORDER BY sequence").map {
            try $0.decode(Int64.self, at: 0)
        }
        #expect(after == [1, 2])
        #expect(try db.fetchOne(Self.header)?.values == [1, nil, nil, nil])
    }

    @Test func entriesBeforeTheBaseAreReportedAsDamage() throws {
        let (db, list, history) = try open(":memory:")
        for value in 1...3 { try history.push(Append(value: value)) }
        try db.execute("UPDATE commandstore_history_header SET base = 10")
        #expect {
            try DurableHistory(database: db, receiver: list, registry: NumberList.registry)
        } throws: { ($0 as? StoreError)?.code == .corruptDatabase }
    }
}

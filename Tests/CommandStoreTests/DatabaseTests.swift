import CommandStore
import Foundation
import SQLiteDatabase
import Testing

@Suite struct DatabaseTests {
    func makeDatabase() throws -> Database {
        let db = try Database.inMemory()
        try db.execute(
            "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, score REAL, payload BLOB)")
        return db
    }

    @Test func bindsAndReadsEveryStorageClass() throws {
        let db = try makeDatabase()
        let payload = Data([0, 1, 2, 255])
        try db.execute(
            "INSERT INTO item (name, score, payload) VALUES (?, ?, ?)", ["a'; DROP TABLE item; --", 1.5, payload])
        try db.execute("INSERT INTO item (name, score, payload) VALUES (?, ?, ?)", ["", DatabaseValue.null, Data()])
        let rows = try db.fetchAll("SELECT id, name, score, payload FROM item ORDER BY id")
        #expect(rows.count == 2)
        #expect(try rows[0].decode(Int.self, at: 0) == 1)
        #expect(try rows[0].decode(String.self, column: "name") == "a'; DROP TABLE item; --")
        #expect(try rows[0].decode(Double.self, column: "SCORE") == 1.5)
        #expect(try rows[0].decode(Data.self, column: "payload") == payload)
        #expect(try rows[1].decode(String.self, column: "name") == "")
        #expect(try rows[1].decode(Double?.self, column: "score") == nil)
        #expect(try rows[1].decode(Data.self, column: "payload") == Data())
        #expect(rows[1]["missing"] == nil)
    }

    @Test func decodingTheWrongTypeThrowsMismatch() throws {
        let db = try makeDatabase()
        try db.execute("INSERT INTO item (name) VALUES (?)", ["x"])
        let row = try #require(try db.fetchOne("SELECT name, score FROM item"))
        #expect(throws: DatabaseError.self) { try row.decode(Int.self, at: 0) }
        do {
            _ = try row.decode(Double.self, column: "score")
            Issue.record("NULL decoded as a non-optional Double")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .mismatch)
        }
        #expect(throws: DatabaseError.self) { try row.decode(Int.self, at: 9) }
        #expect(throws: DatabaseError.self) { try row.decode(Int.self, column: "nope") }
    }

    @Test func constraintErrorsCarryCodeMessageAndSQL() throws {
        let db = try makeDatabase()
        let sql = "INSERT INTO item (name) VALUES (?)"
        try db.execute(sql, ["x"])
        do {
            try db.execute(sql, ["x"])
            Issue.record("duplicate insert succeeded")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .constraintUnique)
            #expect(error.resultCode.primaryResultCode == .constraint)
            #expect(DatabaseError.ResultCode.constraint ~= error)
            #expect(!(DatabaseError.ResultCode.constraintNotNull ~= error))
            #expect(error.message.contains("UNIQUE"))
            #expect(error.sql == sql)
            #expect(error.description.contains("SQLITE_CONSTRAINT_UNIQUE"))
        }
    }

    @Test func catchesByResultCodePattern() throws {
        let db = try makeDatabase()
        var caught = false
        do {
            try db.execute("INSERT INTO item (name) VALUES (?)", [DatabaseValue.null])
        } catch DatabaseError.ResultCode.constraint {
            caught = true
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(caught)
    }

    @Test func wrongArgumentCountIsARangeError() throws {
        let db = try makeDatabase()
        #expect {
            try db.execute("INSERT INTO item (name, score) VALUES (?, ?)", ["only one"])
        } throws: { ($0 as? DatabaseError)?.resultCode == .range }
    }

    @Test func syntaxErrorNamesTheFailingStatement() throws {
        let db = try makeDatabase()
        do {
            try db.execute("CREATE TABLE ok (x); CREATE TABLOID broken (y)")
            Issue.record("syntax error accepted")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .error)
            #expect(error.sql == "CREATE TABLOID broken (y)")
        }
        // The first statement ran: statements before the failing one are not undone.
        #expect(try db.fetchOne("SELECT count(*) FROM sqlite_master WHERE name = 'ok'")?[0] == 1)
    }

    @Test func preparingTwoStatementsAtOnceIsRefused() throws {
        let db = try makeDatabase()
        #expect(throws: DatabaseError.self) { try db.prepare("SELECT 1; SELECT 2") }
        _ = try db.prepare("SELECT 1;  ")
    }

    @Test func statementsFailCleanlyAfterFinalizeAndClose() throws {
        let db = try makeDatabase()
        let statement = try db.prepare("SELECT count(*) FROM item")
        #expect(try statement.fetchOne()?[0] == 0)
        statement.finalize()
        #expect { try statement.fetchOne() } throws: { ($0 as? DatabaseError)?.resultCode == .misuse }
        let other = try db.prepare("SELECT 1")
        db.close()
        #expect(db.isClosed)
        #expect { try other.fetchOne() } throws: { ($0 as? DatabaseError)?.resultCode == .misuse }
        #expect { try db.execute("SELECT 1") } throws: { ($0 as? DatabaseError)?.resultCode == .misuse }
    }

    @Test func forEachRowStreamsAndStopsOnThrow() throws {
        let db = try makeDatabase()
        for index in 0..<5 { try db.execute("INSERT INTO item (name) VALUES (?)", ["n\(index)"]) }
        let statement = try db.prepare("SELECT name FROM item ORDER BY id")
        var names: [String] = []
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try statement.forEachRow { row in
                names.append(try row.decode(String.self, at: 0))
                if names.count == 3 { throw Stop() }
            }
        }
        #expect(names == ["n0", "n1", "n2"])
        // The statement was reset: it runs again from the start.
        #expect(try statement.fetchAll().count == 5)
    }

    @Test func readEachRowReadsColumnsInPlaceAndRefusesOtherTypes() throws {
        let db = try makeDatabase()
        try db.execute("INSERT INTO item (id, name, score) VALUES (?, ?, ?)", [7, "Café ☕︎", 2.5])
        try db.execute("INSERT INTO item (id, name) VALUES (?, ?)", [8, "b"])
        let statement = try db.prepare("SELECT id, name, score FROM item ORDER BY id")
        var read: [(Int64, String, [UInt8], Bool, DatabaseValue)] = []
        try statement.readEachRow { columns in
            #expect(columns.count == 3)
            read.append(
                (
                    try columns.integer(at: 0), try columns.text(at: 1), try columns.withUTF8(at: 1) { Array($0) },
                    columns.isNull(at: 2), columns[2]
                ))
        }
        #expect(read.map(\.0) == [7, 8])
        #expect(read.map(\.1) == ["Café ☕︎", "b"])
        #expect(read[0].2 == Array("Café ☕︎".utf8))
        #expect(read.map(\.3) == [false, true])
        #expect(read.map(\.4) == [.real(2.5), .null])

        // No conversion: a number is not text, text is not a number, NULL is neither.
        let mismatch: (any Error) -> Bool = { ($0 as? DatabaseError)?.resultCode == .mismatch }
        #expect(performing: { try statement.readEachRow { try _ = $0.text(at: 0) } }, throws: mismatch)
        #expect(performing: { try statement.readEachRow { try _ = $0.integer(at: 1) } }, throws: mismatch)
        #expect(performing: { try statement.readEachRow { try _ = $0.withUTF8(at: 2) { $0.count } } }, throws: mismatch)
        // Stopped by a throw, the statement was reset: it runs again from the start.
        var ids: [Int64] = []
        try statement.readEachRow { ids.append(try $0.integer(at: 0)) }
        #expect(ids == [7, 8])
    }

    @Test func cachedStatementsAreReused() throws {
        let db = try makeDatabase()
        let first = try db.cachedStatement("SELECT 1")
        let second = try db.cachedStatement("SELECT 1")
        #expect(first === second)
        #expect(try db.prepare("SELECT 1") !== first)
    }

    @Test func lastInsertedRowIDAndChangedRowCount() throws {
        let db = try makeDatabase()
        try db.execute("INSERT INTO item (name) VALUES (?)", ["a"])
        try db.execute("INSERT INTO item (name) VALUES (?)", ["b"])
        #expect(db.lastInsertedRowID == 2)
        try db.execute("UPDATE item SET score = 1")
        #expect(db.changedRowCount == 2)
    }
}

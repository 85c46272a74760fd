import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// Each step records who made it (``DurableHistory/author``): across reopening, merges, branches
/// and the migration from format 6.
@Suite struct AuthorTests {
    func open(_ path: String, keepsBranches: Bool = false) throws -> (Database, NumberList, DurableHistory<NumberList>)
    {
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database.openStore(path: path, schemas: [NumberList.schema], configuration: configuration)
        let list = NumberList(database: db)
        return (
            db, list,
            try DurableHistory(
                database: db, receiver: list, registry: NumberList.registry, keepsBranches: keepsBranches)
        )
    }

    @Test func eachStepKeepsTheAuthorOfTheHistoryThatPushedIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        do {
            let (dbA, _, a) = try open(path)
            let (dbB, _, b) = try open(path)
            a.author = "ada@studio"
            b.author = "grace@lab"
            try a.push(Append(value: 1))
            try b.push(Append(value: 2))
            a.author = nil
            try a.push(Append(value: 3))
            #expect(a.undoRecord?.author == nil)
            dbA.close()
            dbB.close()
        }
        let (_, _, history) = try open(path)
        #expect(history.author == nil)
        #expect(try history.records().records.map(\.author) == ["ada@studio", "grace@lab", nil])
        try history.undo()
        #expect(history.undoRecord?.author == "grace@lab" && history.redoRecord?.author == nil)
    }

    @Test func aMergeKeepsTheAuthorOfTheStepMergedInto() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (_, list, history) = try open(directory.file("h.sqlite"))
        history.author = "ada"
        try history.push(Add(amount: 2))
        history.author = "grace"
        try history.push(Add(amount: 3))
        #expect(try history.count == 1 && list.total() == 5)
        #expect(history.undoRecord?.author == "ada")
    }

    @Test func parkedBranchesKeepTheirAuthors() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (_, _, history) = try open(directory.file("h.sqlite"), keepsBranches: true)
        history.author = "ada"
        try history.push(Append(value: 1))
        try history.push(Append(value: 2))
        try history.undo()
        history.author = "grace"
        try history.push(Append(value: 3))
        let authors = Dictionary(uniqueKeysWithValues: try history.nodes().map { ($0.id.rawValue, $0.author) })
        #expect(authors == [1: "ada", 2: "ada", 3: "grace"])
        try history.jump(to: HistoryNode.ID(2))
        #expect(history.undoRecord?.author == "ada")
        #expect(try history.nodes().first { $0.id == HistoryNode.ID(3) }?.author == "grace")
    }

    /// Steps recorded before format 7 have no author; the migration keeps each of them.
    @Test func theMigrationFromFormat6KeepsEveryStep() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("h.sqlite")
        do {
            let (db, _, history) = try open(path, keepsBranches: true)
            for value in 1...3 { try history.push(Append(value: value)) }
            try history.undo()
            try history.push(Append(value: 4))
            try db.execute(FormatDowngrade.toFormat6)
            db.close()
        }
        let (db, list, history) = try open(path)
        #expect(try db.schemaVersion(of: "commandstore") == 7)
        #expect(try list.values() == [1, 2, 4])
        #expect(try history.nodes().map(\.id.rawValue) == [1, 2, 3, 4])
        #expect(try history.records().records.allSatisfy { $0.author == nil })
        history.author = "ada"
        try history.jump(to: HistoryNode.ID(3))
        #expect(try list.values() == [1, 2, 3])
        try history.push(Append(value: 5))
        #expect(history.undoRecord?.author == "ada" && history.undoRecord?.text == "Append 5")
    }
}

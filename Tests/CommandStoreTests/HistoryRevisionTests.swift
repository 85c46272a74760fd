import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// The history's revision: every committed write transaction that changes the history raises it by
/// one, whichever connection commits it, so the commits of several processes fall in one order.
@Suite struct HistoryRevisionTests {
    typealias Opened = (db: Database, list: NumberList, history: DurableHistory<NumberList>)

    static func open(_ path: String) throws -> Opened {
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database.openStore(path: path, schemas: [NumberList.schema], configuration: configuration)
        let list = NumberList(database: db)
        return (db, list, try DurableHistory(database: db, receiver: list, registry: NumberList.registry))
    }

    @Test func twoConnectionsOperationsGetStrictlyIncreasingRevisions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("shared.sqlite")
        let a = try Self.open(path)
        let b = try Self.open(path)
        defer {
            a.db.close()
            b.db.close()
        }
        #expect(a.history.revision == 0 && b.history.revision == 0)
        // Each operation, on either connection, of every kind that writes the history.
        let operations: [(name: String, run: (DurableHistory<NumberList>) throws -> Void)] = [
            ("push", { try $0.push(Append(value: 1)) }),
            ("push", { try $0.push(Append(value: 2)) }),
            ("undo", { try $0.undo() }),
            ("redo", { try $0.redo() }),
            ("undo 2", { _ = try $0.undo(steps: 2) }),
            ("redo 1", { _ = try $0.redo(steps: 1) }),
            ("push dropping the tail", { try $0.push(Append(value: 3)) }),
            ("merging push", { try $0.push(Add(amount: 4)) }),
            ("merging push", { try $0.push(Add(amount: 5)) }),
            ("set index", { try $0.setIndex(0) }),
            ("set index", { try $0.setIndex(3) }),
            ("set clean", { try $0.setClean() }),
            ("reset clean", { try $0.resetClean() }),
            ("undo limit", { try $0.setUndoLimit(2) }),
            (
                "macro",
                {
                    try $0.beginMacro("Two")
                    try $0.push(Append(value: 6))
                    try $0.push(Append(value: 7))
                    try $0.endMacro()
                }
            ),
            ("clear", { try $0.clear() }),
            ("push on the empty history", { try $0.push(Append(value: 8)) }),
        ]
        var last = 0
        for (number, operation) in operations.enumerated() {
            let (one, other) = number % 3 == 1 ? (b, a) : (a, b)
            try operation.run(one.history)
            // One commit, one revision: the next after every commit of either connection.
            #expect(one.history.revision == last + 1, "\(operation.name) (operation \(number))")
            last = one.history.revision
            try other.history.refresh()
            #expect(other.history.revision == last, "\(operation.name) seen by the other connection")
        }
        // The file says the same to a third connection.
        let c = try Self.open(path)
        defer { c.db.close() }
        #expect(c.history.revision == last)
    }

    @Test func aCallThatChangesNothingTakesNoRevision() throws {
        let (db, list, history) = try Self.open(":memory:")
        defer { db.close() }
        try history.undo()  // nothing to undo
        try history.redo()
        try history.setClean()  // clean already
        try history.setUndoLimit(0)  // no limit already
        #expect(history.revision == 0)
        #expect(throws: Failing.Failure.self) { try history.push(Failing()) }
        #expect(history.revision == 0)
        try history.push(Append(value: 1))
        #expect(
            throws: StoreError.self,
            performing: { try history.undo(steps: 2) })
        #expect(history.revision == 1)
        #expect(try list.values() == [1])
        // A macro is one commit, whatever its children: one revision, taken when it ends.
        try history.beginMacro("Two")
        try history.push(Append(value: 2))
        try history.push(Append(value: 3))
        #expect(history.revision == 1)
        try history.endMacro()
        #expect(history.revision == 2)
    }

    @Test func aPushAtTheTopRaisesTheRevisionWithoutWritingTheHeader() throws {
        let (db, _, history) = try Self.open(":memory:")
        defer { db.close() }
        try history.push(Append(value: 1))
        let header = "SELECT revision, revision_sequence FROM commandstore_history_header"
        let before = try db.fetchOne(header)?.values
        let changes = try db.fetchOne("SELECT total_changes()")?.decode(Int.self, at: 0) ?? 0
        for value in 2...4 { try history.push(Append(value: value)) }
        #expect(history.revision == 4)
        // The receiver's row and the entry's row per push: nothing else, the header as it was.
        #expect(try db.fetchOne("SELECT total_changes()")?.decode(Int.self, at: 0) == changes + 6)
        #expect(try db.fetchOne(header)?.values == before)
        try history.undo()
        #expect(history.revision == 5)
        #expect(try db.fetchOne(header)?.values == [5, 4])
    }

    @Test func aRolledBackTransactionOfTheCallersTakesItsRevisionsBack() throws {
        let (db, _, history) = try Self.open(":memory:")
        defer { db.close() }
        try history.push(Append(value: 1))
        try db.inTransaction {
            try history.push(Append(value: 2))
            try history.undo()
            #expect(history.revision == 3)
            return .rollback
        }
        try history.reload()
        #expect(history.revision == 1)
        try history.push(Append(value: 3))
        #expect(history.revision == 2)
    }

    /// Files of format 4 have no revision: it starts at 0, every step and the state kept.
    @Test func aFormat4FileMigratesAtRevisionZeroKeepingItsSteps() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("v4.sqlite")
        do {
            let (db, _, history) = try Self.open(path)
            for value in 1...4 { try history.push(Append(value: value)) }
            try history.undo()
            try db.execute(FormatDowngrade.toFormat5)
            try db.execute(
                """
                ALTER TABLE commandstore_history_header DROP COLUMN revision;
                ALTER TABLE commandstore_history_header DROP COLUMN revision_sequence;
                UPDATE commandstore_schema SET version = 4 WHERE identifier = 'commandstore';
                """)
            db.close()
        }
        let (db, list, history) = try Self.open(path)
        defer { db.close() }
        #expect(try db.schemaVersion(of: "commandstore") == 7)
        #expect(history.revision == 0)
        #expect(history.count == 4 && history.index == 3)
        #expect(try (0..<4).map { try history.text(at: $0) } == ["Append 1", "Append 2", "Append 3", "Append 4"])
        try history.redo()
        #expect(history.revision == 1)
        try history.push(Append(value: 5))
        #expect(history.revision == 2)
        #expect(try list.values() == [1, 2, 3, 4, 5])
    }

    @Test func aDamagedRevisionIsReportedAsDamage() throws {
        let (db, list, history) = try Self.open(":memory:")
        defer { db.close() }
        try history.push(Append(value: 1))
        try db.execute("UPDATE commandstore_history_header SET revision = 9223372036854775807, revision_sequence = -5")
        #expect {
            try DurableHistory(database: db, receiver: list, registry: NumberList.registry)
        } throws: { ($0 as? StoreError)?.code == .corruptDatabase }
    }
}

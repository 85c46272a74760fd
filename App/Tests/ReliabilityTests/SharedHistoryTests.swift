import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// Two connections (as two processes would have) on one durable history.
///
/// Regression tests: each `DurableHistory` read the header once and appended at the position it
/// remembered, so after another connection's push the next push failed with "UNIQUE constraint
/// failed: commandstore_history_entry.sequence" (ConcurrentWritersTests found it: 18 of 180
/// concurrent `albums add` refused). Each operation now rereads the header inside its write
/// transaction when another connection has committed.
@Suite struct SharedHistoryTests {
    static func open(_ path: String) throws -> (Database, DurableHistory<Shelf>) {
        let db = try Database.openStore(path: path, schemas: [Shelf.schema])
        return (db, try DurableHistory(database: db, receiver: Shelf(database: db), registry: Shelf.registry))
    }

    @Test func pushesFromTwoConnectionsInterleave() throws {
        let folder = try ChildProcess.makeFolder("shared-history")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.path + "/library.db"
        try Shelf.makeStore(at: path, count: 0)
        let (dbA, a) = try Self.open(path)
        let (dbB, b) = try Self.open(path)
        defer {
            dbA.close()
            dbB.close()
        }
        for number in 0..<10 {
            try a.push(AddItem(id: 2 * number + 1, name: "a\(number)", body: ""))
            try b.push(AddItem(id: 2 * number + 2, name: "b\(number)", body: ""))
        }
        // Each read is of the committed state (issue 25): `a` sees b's final push without a call.
        #expect(a.count == 20 && b.count == 20)
        let (dbC, c) = try Self.open(path)
        defer { dbC.close() }
        #expect(c.count == 20 && c.index == 20)
        #expect(try Shelf(database: dbC).all().count == 20)
        try c.verifyEntries()
    }

    @Test func undoFromAnotherConnectionUndoesTheLatestStep() throws {
        let folder = try ChildProcess.makeFolder("shared-undo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.path + "/library.db"
        try Shelf.makeStore(at: path, count: 0)
        let (dbA, a) = try Self.open(path)
        let (dbB, b) = try Self.open(path)
        defer {
            dbA.close()
            dbB.close()
        }
        try a.push(AddItem(id: 1, name: "first", body: ""))
        try b.push(AddItem(id: 2, name: "second", body: ""))
        try a.undo()  // undoes "second", b's push: the file's latest step
        #expect(try Shelf(database: dbA).all() == ["first="])
        #expect(a.index == 1 && a.count == 2 && a.redoText == "Add second")
        try b.push(AddItem(id: 3, name: "third", body: ""))  // drops the redo tail a left
        let (dbC, c) = try Self.open(path)
        defer { dbC.close() }
        #expect(c.count == 2 && c.index == 2)
        #expect(try Shelf(database: dbC).all() == ["first=", "third="])
    }
}

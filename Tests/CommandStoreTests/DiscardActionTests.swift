import CommandStore
import Foundation
import SQLiteDatabase
import Synchronization
import Testing

/// `CommandRegistry.register(_:whenDiscarded:)`: a command that keeps something outside the history
/// for a later redo (here, rows in a side table, as an import stages its albums) releases it when
/// its entry leaves the history, in the transaction that removes it, and at no other time.
@Suite struct DiscardActionTests {
    /// Appends its value; undo moves it to the `kept` table, where a redo finds it again.
    struct Keep: PersistentCommand {
        static let kind = "test.keep"
        var value: Int
        var text: String { "Keep \(value)" }

        func redo(on list: NumberList) throws {
            try list.database.execute("DELETE FROM kept WHERE value = ?", [value])
            try list.append(value)
        }

        func undo(on list: NumberList) throws {
            try list.removeLast()
            try list.database.execute("INSERT INTO kept (value) VALUES (?)", [value])
        }
    }

    /// Makes the discard action fail when set (to check the rollback).
    final class Switch: Sendable {
        let refuse = Atomic<Bool>(false)
    }

    struct Refused: Error {}

    static func open(
        refusing: Switch = Switch(), keepsBranches: Bool = false
    ) throws -> (Database, NumberList, DurableHistory<NumberList>) {
        let db = try Database.openStore(path: ":memory:", schemas: [NumberList.schema])
        try db.execute("CREATE TABLE kept (value INTEGER NOT NULL)")
        var registry = NumberList.registry
        registry.register(Keep.self) { command, list in
            if refusing.refuse.load(ordering: .relaxed) { throw Refused() }
            try list.database.execute("DELETE FROM kept WHERE value = ?", [command.value])
        }
        let list = NumberList(database: db)
        return (
            db, list, try DurableHistory(database: db, receiver: list, registry: registry, keepsBranches: keepsBranches)
        )
    }

    /// In a tree, a redo tail is parked, not dropped: kept. It is discarded when its branch is pruned
    /// by the undo limit, or the history is cleared.
    @Test func aParkedBranchIsDiscardedOnlyWhenPrunedOrCleared() throws {
        let (db, _, history) = try Self.open(keepsBranches: true)
        try history.push(Keep(value: 1))
        try history.push(Keep(value: 2))
        try history.undo()
        try history.push(Append(value: 9))  // Keep 2 parked, still kept
        #expect(try Self.kept(db) == [2])
        try history.setUndoLimit(2)  // three nodes: the parked branch goes first
        #expect(try Self.kept(db).isEmpty)
        try history.setUndoLimit(0)
        try history.push(Keep(value: 3))
        try history.undo()
        try history.push(Append(value: 8))  // Keep 3 parked
        #expect(try Self.kept(db) == [3])
        try history.clear()
        #expect(try Self.kept(db).isEmpty)
    }

    static func kept(_ db: Database) throws -> [Int] {
        try db.fetchAll("SELECT value FROM kept ORDER BY value").map { try $0.decode(Int.self, at: 0) }
    }

    @Test func aDroppedRedoTailIsDiscardedAndNothingElse() throws {
        let (db, list, history) = try Self.open()
        for value in 1...3 { try history.push(Keep(value: value)) }
        try history.undo(steps: 2)
        #expect(try Self.kept(db) == [2, 3])
        try history.redo()  // 2 is back in the list, 3 still kept for its redo
        #expect(try Self.kept(db) == [3])
        try history.push(Append(value: 9))  // drops the tail: Keep 3
        #expect(try Self.kept(db).isEmpty)
        #expect(try list.values() == [1, 2, 9])
    }

    @Test func macrosAreSearchedForDiscardedChildren() throws {
        let (db, _, history) = try Self.open()
        try history.beginMacro("Both")
        try history.push(Keep(value: 1))
        try history.beginMacro("Inner")
        try history.push(Keep(value: 2))
        try history.endMacro()
        try history.endMacro()
        try history.undo()
        #expect(try Self.kept(db) == [1, 2])
        try history.clear()
        #expect(try Self.kept(db).isEmpty)
    }

    @Test func trimmingByTheUndoLimitDiscards() throws {
        let (db, _, history) = try Self.open()
        try history.push(Keep(value: 1))
        try history.undo()
        try history.redo()
        try db.execute("INSERT INTO kept (value) VALUES (1)")  // as if 1 kept something still
        try history.setUndoLimit(1)
        try history.push(Keep(value: 2))  // trims Keep 1
        #expect(try Self.kept(db).isEmpty)
        #expect(history.count == 1)
    }

    @Test func aFailingDiscardRollsTheWholeOperationBack() throws {
        let refusing = Switch()
        let (db, list, history) = try Self.open(refusing: refusing)
        try history.push(Keep(value: 1))
        try history.undo()
        refusing.refuse.store(true, ordering: .relaxed)
        #expect(throws: Refused.self) { try history.push(Append(value: 5)) }
        #expect(try list.values().isEmpty && Self.kept(db) == [1])
        #expect(history.count == 1 && history.index == 0 && history.redoText == "Keep 1")
        refusing.refuse.store(false, ordering: .relaxed)
        try history.redo()
        #expect(try list.values() == [1])
    }
}

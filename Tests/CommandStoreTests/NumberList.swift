import CommandStore
import Foundation
import SQLiteDatabase

/// A tiny receiver for history tests: a list of integers and a running total, kept in SQLite.
final class NumberList {
    static let schema = Schema(
        identifier: "numbers",
        migrations: [
            Migration(
                version: 1, name: "numbers",
                sql: """
                    CREATE TABLE number (position INTEGER PRIMARY KEY, value INTEGER NOT NULL);
                    CREATE TABLE total (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL);
                    INSERT INTO total VALUES (1, 0)
                    """)
        ])

    static var registry: CommandRegistry<NumberList> {
        var registry = CommandRegistry<NumberList>()
        registry.register(Append.self)
        registry.register(Add.self)
        registry.register(Failing.self)
        registry.register(Hooked.self)
        return registry
    }

    let database: Database
    /// Called by ``Hooked`` commands while they run.
    var hook: (() throws -> Void)?

    init(database: Database) {
        self.database = database
    }

    func values() throws -> [Int] {
        try database.fetchAll("SELECT value FROM number ORDER BY position").map { try $0.decode(Int.self, at: 0) }
    }

    func append(_ value: Int) throws {
        try database.execute("INSERT INTO number (value) VALUES (?)", [value])
    }

    func removeLast() throws {
        try database.execute("DELETE FROM number WHERE position = (SELECT max(position) FROM number)")
    }

    func total() throws -> Int {
        try database.fetchOne("SELECT value FROM total")!.decode(Int.self, at: 0)
    }

    func add(_ amount: Int) throws {
        try database.execute("UPDATE total SET value = value + ?", [amount])
    }
}

/// Appends a number; undo removes it.
struct Append: PersistentCommand {
    static let kind = "test.append"
    var value: Int
    var significant = true

    var text: String { "Append \(value)" }
    var actionText: String { "Append" }
    var isSignificant: Bool { significant }

    func redo(on list: NumberList) throws { try list.append(value) }
    func undo(on list: NumberList) throws { try list.removeLast() }
}

/// Adds to the total; consecutive adds merge into one entry (typing-style).
struct Add: PersistentCommand {
    static let kind = "test.add"
    var amount: Int

    var text: String { "Add \(amount)" }
    var mergeID: Int? { 1 }
    var isObsolete: Bool { amount == 0 }

    func redo(on list: NumberList) throws { try list.add(amount) }
    func undo(on list: NumberList) throws { try list.add(-amount) }

    mutating func merge(with other: Add) -> Bool {
        amount += other.amount
        return true
    }
}

/// Writes, then fails: its write must be rolled back.
struct Failing: PersistentCommand {
    static let kind = "test.fail"
    struct Failure: Error, Equatable {}

    var text: String { "Fail" }

    func redo(on list: NumberList) throws {
        try list.append(666)
        throw Failure()
    }

    func undo(on list: NumberList) throws {}
}

/// Runs the receiver's hook: lets a test act from inside a running command.
struct Hooked: PersistentCommand {
    static let kind = "test.hooked"

    var text: String { "Hooked" }

    func redo(on list: NumberList) throws { try list.hook?() }
    func undo(on list: NumberList) throws {}
}

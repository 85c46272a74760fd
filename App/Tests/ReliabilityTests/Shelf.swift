import CommandStore
import Foundation
import SQLiteDatabase

/// A small receiver for store-level tests: named items with a text body, and their commands.
final class Shelf {
    static let schema = Schema(
        identifier: "shelf",
        migrations: [
            Migration(
                version: 1, name: "items",
                sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, body TEXT NOT NULL)")
        ])

    static var registry: CommandRegistry<Shelf> {
        var registry = CommandRegistry<Shelf>()
        registry.register(AddItem.self)
        return registry
    }

    let database: Database

    init(database: Database) {
        self.database = database
    }

    func all() throws -> [String] {
        try database.fetchAll("SELECT name, body FROM item ORDER BY id").map { row in
            try row.decode(String.self, at: 0) + "=" + row.decode(String.self, at: 1)
        }
    }

    /// Builds a real store at `path`: `count` items pushed through a durable history, then closed.
    static func makeStore(at path: String, count: Int, bodySize: Int = 300) throws {
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database.openStore(path: path, schemas: [schema], configuration: configuration)
        defer { db.close() }
        let history = try DurableHistory(database: db, receiver: Shelf(database: db), registry: registry)
        for number in 0..<count {
            try history.push(
                AddItem(
                    id: number + 1, name: "item \(number)", body: String(repeating: "abcdefghij", count: bodySize / 10))
            )
        }
        if count > 2 { try history.undo() }
    }
}

struct AddItem: PersistentCommand {
    static let kind = "shelf.add"
    var id: Int
    var name: String
    var body: String

    var text: String { "Add \(name)" }

    func redo(on shelf: Shelf) throws {
        try shelf.database.execute("INSERT INTO item (id, name, body) VALUES (?, ?, ?)", [id, name, body])
    }

    func undo(on shelf: Shelf) throws {
        try shelf.database.execute("DELETE FROM item WHERE id = ?", [id])
    }
}

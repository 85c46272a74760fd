// One history shared by several processes: the examples of "Sharing a History Between Processes"
// (CommandStore.docc/Articles/SharingAHistory.md). Two connections stand in for two processes.
import CommandStore
import Foundation
import SQLiteDatabase

final class Shelf {
    static let schema = Schema(
        identifier: "shelf",
        migrations: [
            Migration(version: 1, name: "books", sql: "CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
        ])

    let database: Database
    init(database: Database) { self.database = database }

    func count() throws -> Int {
        try database.fetchOne("SELECT count(*) FROM book")?.decode(Int.self, at: 0) ?? 0
    }

    func insert(_ title: String) throws -> Int64 {
        try database.execute("INSERT INTO book (title) VALUES (?)", [title])
        return database.lastInsertedRowID
    }

    func delete(_ id: Int64) throws {
        try database.execute("DELETE FROM book WHERE id = ?", [id])
    }
}

struct AddBook: PersistentCommand {
    static let kind = "shelf.add"
    let title: String
    var position: Int
    var id: Int64?  // the new row's id, captured when the command runs

    var text: String { "Add “\(title)”" }
    var actionText: String { "Add Book" }
    mutating func redo(on shelf: Shelf) throws { id = try shelf.insert(title) }
    mutating func undo(on shelf: Shelf) throws { if let id { try shelf.delete(id) } }
}

func open(_ path: String) throws -> DurableHistory<Shelf> {
    var configuration = Database.Configuration()
    configuration.createIfMissing = true
    let database = try Database.openStore(path: path, schemas: [Shelf.schema], configuration: configuration)
    var registry = CommandRegistry<Shelf>()
    registry.register(AddBook.self)
    return try DurableHistory(database: database, receiver: Shelf(database: database), registry: registry)
}

let path = NSTemporaryDirectory() + "sharing-a-history-\(getpid()).sqlite"
defer { try? FileManager.default.removeItem(atPath: path) }
let history = try open(path)
let elsewhere = try open(path)  // another process, as far as SQLite can tell

// MARK: Deciding inside the transaction

let library = history.receiver
// Appended at the end of the shelf as committed when the transaction runs, not when it was counted.
let added = try history.push { AddBook(title: "Dune", position: try library.count() + 1) }
print(added.position, added.id ?? -1)  // the command as it ran: the id its redo captured

// MARK: Undoing the step a view showed

let shown = history.undoRecord  // the step on the Undo button: "Add Book"
try elsewhere.push(AddBook(title: "Emma", position: 2))  // meanwhile, another process
do {
    try history.undo(steps: 1, expecting: shown?.id)
} catch StoreError.Code.historyChanged {
    print("not undone: the last step is now \(history.undoText)")  // refreshed: "Add Book" (Emma)
}
let undone = try history.undo(steps: 1)  // the last step, whatever it is, named in its transaction
print("Undid \(undone[0].text)")  // Undid Add “Emma”

// MARK: Following other processes

// An idle view calls refresh() now and then (one statement when nothing changed)...
try elsewhere.redo()
if try history.refresh() {
    print("another process redid a step; now: Undo \(history.undoText)")  // Undo Add Book
}

// ...or runs a watcher on its own actor, which publishes to `changes` and `model`.
@MainActor
func follow(_ path: String) async throws {
    let history = try open(path)
    let changes = history.changes  // subscribed now: no change is missed
    let watcher = Task { try await history.watchExternalChanges(every: .milliseconds(100)) }
    defer { watcher.cancel() }
    try open(path).push(AddBook(title: "Ulysses", position: 1))  // another process
    for await change in changes where change.operation == .reload {
        print("Undo \(change.new.undoText)")  // Undo Add Book
        break
    }
}
try await follow(path)

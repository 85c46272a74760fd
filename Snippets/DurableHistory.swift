// A command history that survives the process: the examples of "Durable History"
// (CommandStore.docc/Articles/PersistingCommands.md).
import CommandStore
import Foundation
import SQLiteDatabase

// MARK: A receiver that keeps its state in the database

struct MissingAlbum: Error {}

final class Library {
    static let schema = Schema(
        identifier: "library",
        migrations: [
            Migration(
                version: 1, name: "albums", sql: "CREATE TABLE album (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
        ])

    let database: Database
    init(database: Database) { self.database = database }

    func insert(id: Int64, title: String) throws {
        try database.execute("INSERT INTO album (id, title) VALUES (?, ?)", [id, title])
    }

    func removeAlbum(id: Int64) throws -> String {
        guard let row = try database.fetchOne("SELECT title FROM album WHERE id = ?", [id]) else {
            throw MissingAlbum()
        }
        try database.execute("DELETE FROM album WHERE id = ?", [id])
        return try row.decode(String.self, at: 0)
    }

    func titles() throws -> [String] {
        try database.fetchAll("SELECT title FROM album ORDER BY id").map { try $0.decode(String.self, at: 0) }
    }
}

// MARK: Persistent commands

struct AddAlbum: PersistentCommand {
    static let kind = "library.add"
    let id: Int64
    let title: String

    var text: String { "Add Album" }
    mutating func redo(on library: Library) throws { try library.insert(id: id, title: title) }
    mutating func undo(on library: Library) throws { _ = try library.removeAlbum(id: id) }
}

struct DeleteAlbum: PersistentCommand {
    static let kind = "library.delete"  // stored with every entry: never change it
    static let version = 2  // version 1 stored the album's ID under "id"
    let albumID: Int64
    var deleted: String?  // captured by redo, so undo can put the album back

    var text: String { "Delete Album" }

    mutating func redo(on library: Library) throws {
        deleted = try library.removeAlbum(id: albumID)
    }

    mutating func undo(on library: Library) throws {
        if let deleted { try library.insert(id: albumID, title: deleted) }
    }

    static func decode(_ data: Data, version: Int) throws -> DeleteAlbum {
        if version == 1 {
            struct Version1: Decodable {
                let id: Int64
                let deleted: String?
            }
            let old = try JSONDecoder().decode(Version1.self, from: data)
            return DeleteAlbum(albumID: old.id, deleted: old.deleted)
        }
        return try JSONDecoder().decode(DeleteAlbum.self, from: data)
    }
}

struct ImportedAlbum: Codable {
    let id: Int64
    let title: String
}

struct ImportAlbums: PersistentCommand {
    static let kind = "library.import"
    let albums: [ImportedAlbum]

    var text: String { "Import \(albums.count) Albums" }

    mutating func redo(on library: Library) throws {
        for album in albums { try library.insert(id: album.id, title: album.title) }
    }

    mutating func undo(on library: Library) throws {
        for album in albums.reversed() { _ = try library.removeAlbum(id: album.id) }
    }
}

// MARK: Opening a history

func openHistory(at path: String) throws -> DurableHistory<Library> {
    var configuration = Database.Configuration()
    configuration.createIfMissing = true
    let database = try Database.openStore(path: path, schemas: [Library.schema], configuration: configuration)

    var registry = CommandRegistry<Library>()
    registry.register(AddAlbum.self)
    registry.register(DeleteAlbum.self)
    registry.register(ImportAlbums.self)
    return try DurableHistory(database: database, receiver: Library(database: database), registry: registry)
}

let folder = FileManager.default.temporaryDirectory.appending(path: "durable-history-\(UUID().uuidString)")
let path = folder.appending(path: "library.sqlite").path
defer { try? FileManager.default.removeItem(at: folder) }

// MARK: The first process

do {
    let history = try openHistory(at: path)
    try history.push(AddAlbum(id: 1, title: "Blue"))
    try history.push(AddAlbum(id: 2, title: "Hejira"))
    try history.push(DeleteAlbum(albumID: 1))  // deletes and records, in one transaction
    try history.setClean()  // "saved": survives the process too
    print(try history.receiver.titles(), history.undoText)  // ["Hejira"] Delete Album
    history.database.close()
}

// MARK: The next process

do {
    let history = try openHistory(at: path)
    print(history.canUndo, history.undoText, history.isClean)  // true Delete Album true
    try history.undo()  // the album is back
    print(try history.receiver.titles())  // ["Blue", "Hejira"]

    // A command that fails part-way leaves nothing: its writes roll back with the history's.
    let clash = ImportAlbums(albums: [
        ImportedAlbum(id: 3, title: "Court and Spark"),
        ImportedAlbum(id: 2, title: "Hejira, again"),  // the ID is taken: the insert throws
    ])
    do {
        try history.push(clash)
    } catch {
        print(try history.receiver.titles(), history.count)  // ["Blue", "Hejira"] 3
    }

    // A macro is one step and one transaction, however many commands it holds.
    try history.beginMacro("Import and Tidy")
    try history.push(ImportAlbums(albums: [ImportedAlbum(id: 4, title: "Mingus")]))
    try history.push(DeleteAlbum(albumID: 2))
    try history.endMacro()
    print(history.undoText, try history.receiver.titles())  // Import and Tidy ["Blue", "Mingus"]
    history.database.close()
}

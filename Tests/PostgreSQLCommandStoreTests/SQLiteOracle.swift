#if PostgreSQL
import CommandStore
import Foundation

/// The oracle of the model test: the same lines and commands on `DurableHistory` (SQLite), the
/// history every rule of the engine is already proved on.
final class SQLiteLines {
    static let schema = Schema(
        identifier: "lines",
        migrations: [
            Migration(
                version: 1, name: "lines",
                sql: "CREATE TABLE line (position INTEGER PRIMARY KEY, value TEXT NOT NULL)")
        ])

    static var registry: CommandRegistry<SQLiteLines> {
        var registry = CommandRegistry<SQLiteLines>()
        registry.register(SQLiteLine.self)
        return registry
    }

    let database: Database
    var failCountdown = 0

    init(database: Database) { self.database = database }

    func lines() throws -> [String] {
        try database.fetchAll("SELECT value FROM line ORDER BY position").map { try $0.decode(String.self, at: 0) }
    }

    func tick() throws {
        guard failCountdown > 0 else { return }
        failCountdown -= 1
        if failCountdown == 0 { throw LineFailure() }
    }
}

struct SQLiteLine: PersistentCommand {
    static let kind = "test.line"
    var line: String
    var significant = true

    var text: String { "Add \(line)" }
    var actionText: String { "Add Line" }
    var isSignificant: Bool { significant }

    func redo(on lines: SQLiteLines) throws {
        try lines.database.execute("INSERT INTO line (value) VALUES (?)", [line])
        try lines.tick()
    }

    func undo(on lines: SQLiteLines) throws {
        try lines.database.execute("DELETE FROM line WHERE position = (SELECT max(position) FROM line)")
        try lines.tick()
    }
}

/// A `DurableHistory` on a file of its own in a temporary folder.
struct SQLiteClient {
    let folder: String
    let lines: SQLiteLines
    let history: DurableHistory<SQLiteLines>

    init() throws {
        folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("pg-oracle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let database = try Database.openStore(
            path: (folder as NSString).appendingPathComponent("lines.sqlite"), schemas: [SQLiteLines.schema],
            configuration: configuration)
        lines = SQLiteLines(database: database)
        history = try DurableHistory(database: database, receiver: lines, registry: SQLiteLines.registry)
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }
}
#endif

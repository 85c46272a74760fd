import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

#if PostgreSQL
import PostgreSQLTestSupport
#endif

/// A document of lines and a history that edits it, the same on every ``UndoHistory`` conformer:
/// what the shared suite needs to push (pushing is not a protocol requirement, each history takes
/// its own kind of command).
protocol HistoryFixture {
    associatedtype History: UndoHistory
    var history: History { get }
    /// Appends a line through the history ("Add <line>", action text "Add Line").
    func push(_ line: String, significant: Bool) throws
    /// The lines now.
    func lines() throws -> [String]
    /// Makes the `n`-th undo of a line from now throw (1: the next one).
    func failUndo(after n: Int)
    /// The text of the command `command(at:)` returned.
    func text(of command: History.Command) -> String
    /// Makes the entry of `line` obsolete as the history keeps it (a command that finds itself
    /// useless once recorded): in memory through the command's document, in a store through its
    /// stored payload, written by another connection.
    func retire(_ line: String) throws
}

extension HistoryFixture {
    func push(_ line: String) throws { try push(line, significant: true) }
}

/// The conformers the suite runs on.
enum Conformer: String, CaseIterable, CustomTestStringConvertible {
    case undoStack
    case durableHistory
    /// The same histories keeping branches (time travel): every rule of a linear history holds.
    case branchingUndoStack
    case branchingDurableHistory
    #if PostgreSQL
    case postgreSQLHistory
    case branchingPostgreSQLHistory
    #endif

    /// The conformers the suite runs on here: PostgreSQL's when a server is named (and in CI,
    /// where its absence then fails the suite).
    static var available: [Conformer] {
        #if PostgreSQL
        allCases.filter {
            ($0 != .postgreSQLHistory && $0 != .branchingPostgreSQLHistory) || PostgreSQLTestServer.isEnabled
        }
        #else
        allCases
        #endif
    }

    var testDescription: String { rawValue }

    /// Runs `body` on a new, empty fixture of this conformer.
    func withFixture(_ body: (any HistoryFixture) throws -> Void) throws {
        switch self {
        case .undoStack, .branchingUndoStack:
            try body(MemoryFixture(keepsBranches: keepsBranches))
        case .durableHistory, .branchingDurableHistory:
            let fixture = try DurableFixture(keepsBranches: keepsBranches)
            defer { fixture.remove() }
            try body(fixture)
        #if PostgreSQL
        case .postgreSQLHistory, .branchingPostgreSQLHistory:
            let fixture = try PostgreSQLFixture(keepsBranches: keepsBranches)
            defer { fixture.remove() }
            try body(fixture)
        #endif
        }
    }

    /// Whether this conformer's history keeps branches.
    var keepsBranches: Bool {
        switch self {
        case .branchingUndoStack, .branchingDurableHistory: true
        #if PostgreSQL
        case .branchingPostgreSQLHistory: true
        #endif
        default: false
        }
    }
}

/// The refusal's code, whichever history raised it (`UndoError` or `StoreError`): one code for
/// generic code over `some UndoHistory`, no switch over the error types.
func code(of error: any Error) -> UndoError.Code? {
    (error as? any UndoHistoryError)?.undoErrorCode
}

// MARK: - In memory

final class LineDocument {
    var lines: [String] = []
    /// Lines whose commands are obsolete.
    var retired: Set<String> = []
    var failUndoCountdown = 0

    func undoTick() throws {
        guard failUndoCountdown > 0 else { return }
        failUndoCountdown -= 1
        if failUndoCountdown == 0 { throw LineFailure() }
    }
}

struct LineFailure: Error {}

struct AddLine: UndoCommand {
    let document: LineDocument
    let line: String
    var isSignificant: Bool
    var text: String { "Add \(line)" }
    var actionText: String { "Add Line" }
    var isObsolete: Bool { document.retired.contains(line) }

    mutating func redo() throws { document.lines.append(line) }

    mutating func undo() throws {
        try document.undoTick()
        document.lines.removeLast()
    }
}

struct MemoryFixture: HistoryFixture {
    let history: UndoStack
    let document = LineDocument()

    init(keepsBranches: Bool = false) {
        history = UndoStack(keepsBranches: keepsBranches)
    }

    func push(_ line: String, significant: Bool) throws {
        try history.push(AddLine(document: document, line: line, isSignificant: significant))
    }

    func lines() -> [String] { document.lines }
    func failUndo(after n: Int) { document.failUndoCountdown = n }
    func text(of command: any UndoCommand) -> String { command.text }
    func retire(_ line: String) { document.retired.insert(line) }
}

// MARK: - Durable

/// The durable receiver: lines in SQLite (and a failure switch in memory, for tests only).
final class LineStore {
    static let schema = Schema(
        identifier: "lines",
        migrations: [
            Migration(
                version: 1, name: "lines",
                sql: "CREATE TABLE line (position INTEGER PRIMARY KEY, value TEXT NOT NULL)")
        ])

    static var registry: CommandRegistry<LineStore> {
        var registry = CommandRegistry<LineStore>()
        registry.register(StoredLine.self)
        return registry
    }

    let database: Database
    var failUndoCountdown = 0
    /// `k > 0`: the k-th command call from now (redo or undo) throws after its write.
    var failCountdown = 0

    init(database: Database) {
        self.database = database
    }

    func lines() throws -> [String] {
        try database.fetchAll("SELECT value FROM line ORDER BY position").map { try $0.decode(String.self, at: 0) }
    }

    func tick() throws {
        guard failCountdown > 0 else { return }
        failCountdown -= 1
        if failCountdown == 0 { throw LineFailure() }
    }
}

struct StoredLine: PersistentCommand {
    static let kind = "test.line"
    var line: String
    var significant = true
    /// Set only in a stored payload (``DurableFixture/retire(_:)``): the command is obsolete then.
    var retired: Bool?

    var text: String { "Add \(line)" }
    var actionText: String { "Add Line" }
    var isSignificant: Bool { significant }
    var isObsolete: Bool { retired == true }

    func redo(on store: LineStore) throws {
        try store.database.execute("INSERT INTO line (value) VALUES (?)", [line])
        try store.tick()
    }

    func undo(on store: LineStore) throws {
        if store.failUndoCountdown > 0 {
            store.failUndoCountdown -= 1
            if store.failUndoCountdown == 0 { throw LineFailure() }
        }
        try store.database.execute("DELETE FROM line WHERE position = (SELECT max(position) FROM line)")
        try store.tick()
    }
}

struct DurableFixture: HistoryFixture {
    let folder: String
    let store: LineStore
    let history: DurableHistory<LineStore>

    init(keepsBranches: Bool = false) throws {
        folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("undohistory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let database = try Database.openStore(
            path: (folder as NSString).appendingPathComponent("lines.sqlite"), schemas: [LineStore.schema],
            configuration: configuration)
        store = LineStore(database: database)
        history = try DurableHistory(
            database: database, receiver: store, registry: LineStore.registry, keepsBranches: keepsBranches)
    }

    var path: String { (folder as NSString).appendingPathComponent("lines.sqlite") }

    /// A second connection to the same file (another process, as far as SQLite is concerned).
    func openAnother() throws -> DurableHistory<LineStore> {
        let database = try Database.openStore(path: path, schemas: [LineStore.schema])
        return try DurableHistory(
            database: database, receiver: LineStore(database: database), registry: LineStore.registry)
    }

    func push(_ line: String, significant: Bool) throws {
        try history.push(StoredLine(line: line, significant: significant))
    }

    func lines() throws -> [String] { try store.lines() }
    func failUndo(after n: Int) { store.failUndoCountdown = n }

    func text(of command: DurableCommand<LineStore>) -> String { command.text }

    func retire(_ line: String) throws {
        let other = try Database.openStore(path: path, schemas: [LineStore.schema])
        defer { other.close() }
        let payload = try JSONEncoder().encode(StoredLine(line: line, retired: true))
        try other.execute(
            "UPDATE commandstore_history_entry SET payload = ? WHERE text = ?", [payload, "Add \(line)"])
        #expect(other.changedRowCount == 1)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }
}

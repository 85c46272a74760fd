import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// CommandStore on damaged files, in process: every damaged copy is either opened and works
/// (integrity check passes, the history decodes, a push commits) or refused with a `StoreError` or
/// `DatabaseError` naming the file, and a refused file's bytes are unchanged.
@Suite struct DamagedStoreTests {
    static let seed: UInt64 = 0x5EED_DA3A_6E00_0007

    /// The files in `folder`, by name, with their bytes (folders as a marker). SQLite's `-shm` index
    /// holds no data and is left out.
    static func contents(of folder: String) throws -> [String: Data] {
        var contents: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where !name.hasSuffix("-shm") {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder)
            contents[name] =
                isFolder.boolValue
                ? Data("<folder>".utf8) : try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return contents
    }

    enum Outcome {
        case worked
        case refused(String)
    }

    /// Reads everything without writing; then, if that worked, writes.
    static func exercise(path: String, phase: inout String) -> Outcome {
        do {
            phase = "open"
            // As an app opens its library: created when missing.
            var configuration = Database.Configuration()
            configuration.createIfMissing = true
            let db = try Database.openStore(path: path, schemas: [Shelf.schema], configuration: configuration)
            defer { db.close() }
            phase = "read"
            let shelf = Shelf(database: db)
            let history = try DurableHistory(database: db, receiver: shelf, registry: Shelf.registry)
            try db.checkIntegrity()
            try history.verifyEntries()
            _ = try shelf.all()
            for position in 0..<history.count { _ = try history.text(at: position) }
            phase = "write"
            if history.canUndo { try history.undo() }
            if history.canRedo { try history.redo() }
            try history.push(AddItem(id: 10_000, name: "after damage", body: "x"))
            try db.checkIntegrity()
            return .worked
        } catch let error as StoreError {
            return .refused(error.message)
        } catch let error as DatabaseError {
            return .refused(String(describing: error))
        } catch {
            return .refused("UNEXPECTED ERROR TYPE \(type(of: error)): \(error)")
        }
    }

    static func makeGenerator(in folder: String) throws -> DamageGenerator {
        let original = folder + "/original.db"
        try Shelf.makeStore(at: original, count: 40)
        // A WAL with committed frames: copied while its connection is still open.
        let other = folder + "/other.db"
        try Shelf.makeStore(at: other, count: 1)
        let db = try Database.openStore(path: other, schemas: [Shelf.schema])
        let history = try DurableHistory(database: db, receiver: Shelf(database: db), registry: Shelf.registry)
        for number in 0..<5 { try history.push(AddItem(id: 100 + number, name: "wal \(number)", body: "in the log")) }
        let wal = try Data(contentsOf: URL(fileURLWithPath: other + "-wal"))
        db.close()
        let foreignPath = folder + "/foreign.db"
        let foreign = try Database(
            path: foreignPath,
            configuration: {
                var configuration = Database.Configuration()
                configuration.createIfMissing = true
                return configuration
            }())
        try foreign.execute("CREATE TABLE photo (id INTEGER PRIMARY KEY, caption TEXT)")
        try foreign.execute("INSERT INTO photo (caption) VALUES (?)", ["a photo"])
        foreign.close()
        return DamageGenerator(
            original: try Data(contentsOf: URL(fileURLWithPath: original)),
            wal: wal,
            foreign: try Data(contentsOf: URL(fileURLWithPath: foreignPath))
        )
    }

    @Test func everyDamagedCopyWorksOrIsRefusedClearlyAndUnchanged() throws {
        let work = try ChildProcess.makeFolder("damage-store")
        defer { try? FileManager.default.removeItem(at: work) }
        let generator = try Self.makeGenerator(in: work.path)
        let damages = generator.damages(bitFlips: DamagedLibraryTests.isLong ? 3000 : 150, seed: Self.seed)
        #expect(damages.count >= 200)
        var worked = 0
        var refused = 0
        for damage in damages {
            let folder = work.path + "/" + damage.name
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            let path = folder + "/library.db"
            try damage.write(at: path)
            let before = try Self.contents(of: folder)
            var phase = ""
            switch Self.exercise(path: path, phase: &phase) {
            case .worked:
                worked += 1
            case .refused(let message):
                refused += 1
                #expect(
                    message.contains("library.db"),
                    "seed \(Self.seed), \(damage.name), \(phase): message does not name the file: \(message)")
                #expect(!message.contains("UNEXPECTED"), "seed \(Self.seed), \(damage.name), \(phase): \(message)")
                if phase != "write" {
                    let after = try Self.contents(of: folder)
                    #expect(
                        after == before,
                        "seed \(Self.seed), \(damage.name): refused in \(phase) (\(message)) but the files changed: \(before.keys.sorted()) → \(after.keys.sorted())"
                    )
                }
            }
            try FileManager.default.removeItem(atPath: folder)
        }
        print(
            "DamagedStoreTests: \(damages.count) damaged copies (seed \(Self.seed)): \(worked) worked, \(refused) refused"
        )
        #expect(refused > 0 && worked > 0)
    }
}

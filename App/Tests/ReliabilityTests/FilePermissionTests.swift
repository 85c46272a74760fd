import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// A store is readable by its user only: the file (and its `-wal`/`-shm`) 0600, created folders 0700.
@Suite struct FilePermissionTests {
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func storeAndCreatedFoldersAreUserOnly() throws {
        let work = try ChildProcess.makeFolder("modes")
        defer { try? FileManager.default.removeItem(at: work) }
        let folder = work.path + "/a/b"
        let path = folder + "/library.db"
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database.openStore(path: path, schemas: [Shelf.schema], configuration: configuration)
        defer { db.close() }
        let history = try DurableHistory(database: db, receiver: Shelf(database: db), registry: Shelf.registry)
        try history.push(AddItem(id: 1, name: "one", body: "b"))
        #expect(try Self.mode(path) == 0o600)
        #expect(try Self.mode(work.path + "/a") == 0o700)
        #expect(try Self.mode(folder) == 0o700)
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            #expect(try Self.mode(path + suffix) == 0o600, "\(suffix)")
        }
        // No temporary left behind by the create-then-link dance.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { $0.hasPrefix("library.db") })
    }
}

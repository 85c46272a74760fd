import CommandStore
import Foundation
import SQLiteDatabase
import Testing

@Suite struct DatabaseFileTests {
    @Test func createsFileAndFoldersWithPrivateModes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("a/b/store.sqlite")
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database(path: path, configuration: configuration)
        try db.execute("CREATE TABLE t (x)")
        let manager = FileManager.default
        let fileMode = try manager.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        let folderMode = try manager.attributesOfItem(atPath: directory.file("a/b"))[.posixPermissions] as? Int
        let outerMode = try manager.attributesOfItem(atPath: directory.file("a"))[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
        #expect(folderMode == 0o700)
        #expect(outerMode == 0o700)
        #expect(try db.fetchOne("PRAGMA journal_mode")?[0] == "wal")
        #expect(try db.fetchOne("PRAGMA foreign_keys")?[0] == 1)
        #expect(try db.fetchOne("PRAGMA synchronous")?[0] == 2)
    }

    @Test(arguments: Database.Configuration.Synchronous.allCases)
    func appliesSynchronousSetting(_ level: Database.Configuration.Synchronous) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        configuration.synchronous = level
        let db = try Database(path: directory.file("s.sqlite"), configuration: configuration)
        let expected: DatabaseValue = level == .full ? 2 : 1
        #expect(try db.fetchOne("PRAGMA synchronous")?[0] == expected)
    }

    @Test func missingFileIsNotCreatedUnlessAsked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("absent.sqlite")
        #expect { try Database(path: path) } throws: { error in
            guard let error = error as? DatabaseError else { return false }
            return error.resultCode.primaryResultCode == .cantOpen && error.path == path
                && error.message.contains(path)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func openingANonDatabaseFailsAndClosesTheHandle() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("text.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect { try Database(path: path) } throws: { ($0 as? DatabaseError)?.resultCode == .notADatabase }
    }
}

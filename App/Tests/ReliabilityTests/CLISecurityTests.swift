import Foundation
import Testing

/// The CLI creates libraries readable by their user only, and import and export touch only the
/// paths the user names.
@Suite struct CLISecurityTests {
    /// Every path under `folder` with its bytes (folders and links marked), to see what a command touched.
    static func tree(_ folder: String) throws -> [String: String] {
        var tree: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return tree }
        for case let name as String in walker {
            let path = folder + "/" + name
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                tree[name] = "link → \(target)"
                continue
            }
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            tree[name] =
                isFolder.boolValue
                ? "folder"
                : String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data(), as: UTF8.self)
        }
        return tree
    }

    @Test func newLibraryAndItsFoldersAreUserOnly() async throws {
        let work = try ChildProcess.makeFolder("cli-modes")
        defer { try? FileManager.default.removeItem(at: work) }
        let path = work.path + "/new/library.db"
        let cli = AlbumsCLI(database: path)
        #expect(try await cli("add", "--title", "T", "--artist", "A").status == 0)
        #expect(try FilePermissionTests.mode(work.path + "/new") == 0o700)
        #expect(try FilePermissionTests.mode(path) == 0o600)
        // Only the file's own folder is made: a folder above it that does not exist is refused.
        let deeper = try await AlbumsCLI(database: work.path + "/absent/nested/library.db")("list")
        #expect(deeper.status == 1 && deeper.error.contains("albums creates no folder above it"), "\(deeper)")
        #expect(!FileManager.default.fileExists(atPath: work.path + "/absent"))
        let export = work.path + "/export.json"
        #expect(try await cli("export", export).status == 0)
        #expect(FileManager.default.fileExists(atPath: export))
    }

    @Test func exportWritesOnlyTheNamedFile() async throws {
        let work = try ChildProcess.makeFolder("cli-export")
        defer { try? FileManager.default.removeItem(at: work) }
        let cli = AlbumsCLI(database: work.path + "/lib/library.db")
        #expect(try await cli("list").status == 0)
        let outside = work.path + "/out"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: false)
        try Data("precious".utf8).write(to: URL(fileURLWithPath: outside + "/victim.txt"))
        let before = try Self.tree(outside)
        #expect(try await cli("export", outside + "/albums.json").status == 0)
        var after = try Self.tree(outside)
        #expect(after.removeValue(forKey: "albums.json")?.contains("\"title\"") == true)
        #expect(after == before, "export touched other files: \(Set(after.keys).symmetricDifference(before.keys))")
    }

    @Test func exportOverASymlinkNeverWritesItsTarget() async throws {
        let work = try ChildProcess.makeFolder("cli-symlink")
        defer { try? FileManager.default.removeItem(at: work) }
        let cli = AlbumsCLI(database: work.path + "/lib/library.db")
        #expect(try await cli("list").status == 0)
        let victim = work.path + "/victim.txt"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        let link = work.path + "/albums.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        let result = try await cli("export", link)
        AlbumsCLI.expectNoCrash(result, "export over a symlink")
        #expect(
            try String(contentsOfFile: victim, encoding: .utf8) == "precious",
            "export followed a link the user did not name")
        if result.status != 0 { AlbumsCLI.expectClearFailure(result, "export over a symlink") }
    }

    @Test func exportToAMissingFolderCreatesNothing() async throws {
        let work = try ChildProcess.makeFolder("cli-missing")
        defer { try? FileManager.default.removeItem(at: work) }
        let cli = AlbumsCLI(database: work.path + "/lib/library.db")
        #expect(try await cli("list").status == 0)
        let result = try await cli("export", work.path + "/no/such/folder/albums.json")
        AlbumsCLI.expectClearFailure(result, "export to a missing folder")
        #expect(!FileManager.default.fileExists(atPath: work.path + "/no"))
    }

    @Test(arguments: ["/dev/zero", "/", "/nonexistent/albums.json"])
    func importOfAnUnreadableSourceFailsClearlyWithoutWaiting(source: String) async throws {
        let work = try ChildProcess.makeFolder("cli-import")
        defer { try? FileManager.default.removeItem(at: work) }
        let cli = AlbumsCLI(database: work.path + "/library.db")
        #expect(try await cli("list").status == 0)
        let before = try await cli("export").output
        let result = try await cli("import", source)
        AlbumsCLI.expectNoCrash(result, "import \(source)")
        AlbumsCLI.expectClearFailure(result, "import \(source)")
        #expect(try await cli("export").output == before)
    }
}

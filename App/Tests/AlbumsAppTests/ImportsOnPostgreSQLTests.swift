#if PostgreSQL
import AlbumLibrary
import Foundation
import TestSupport
import Testing

/// `albums import`, `import --replace`, `cover` and `stats` on a library on a PostgreSQL server
/// (`COMMANDKIT_POSTGRES_URL`, a schema per test), through the built binary, with undo and redo;
/// `history --repair` after psql changed the library sets the step that no longer applies aside.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["COMMANDKIT_POSTGRES_URL"] != nil
            || ProcessInfo.processInfo.environment["CI"] == "true"))
struct ImportsOnPostgreSQLTests {
    /// `albums --db URL …`, every command as given (`AlbumsProcess` would `init` a library that
    /// is no file before a reading command).
    private struct ServerAlbums {
        let url: String

        func callAsFunction(_ arguments: String...) async throws -> AlbumsProcess.Result {
            try await AlbumsProcess(database: url).run(["--db", url] + arguments)
        }
    }

    /// A library of its own on the server (the five default albums), and a folder for files.
    private func withServerLibrary(_ body: (ServerAlbums, URL) async throws -> Void) async throws {
        let base = try #require(ProcessInfo.processInfo.environment["COMMANDKIT_POSTGRES_URL"])
        let schema = try PostgreSQLTestSchema(base: base)
        defer { schema.drop() }
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let created = try await AlbumsProcess(database: schema.url).run(["init", schema.url])
        try #require(created.status == 0, "\(created)")
        try await body(ServerAlbums(url: schema.url), folder)
    }

    @Test func importReplaceAndUndoOnAServer() async throws {
        try await withServerLibrary { albums, folder in
            let backup = folder.appendingPathComponent("backup.json")
            #expect(try await albums("export", backup.path).status == 0)
            let exported = try await albums("export").output

            // More albums than one staging statement holds (1,024), one of them a duplicate.
            let many =
                [Album(title: "BEST OF BOWIE", artist: "david bowie", year: 1992)]
                + (1...1500).map { Album(title: "Album \($0)", artist: "Artist", year: 2000) }
            let file = folder.appendingPathComponent("many.json")
            try AlbumFile.encode(many).write(to: file)
            let preview = try await albums("import", "--dry-run", file.path)
            #expect(preview.output.hasPrefix("Would import 1500 albums (positions 6–1505); would skip 1 duplicate"))
            let imported = try await albums("import", file.path)
            #expect(
                imported.output == "Imported 1500 albums (positions 6–1505); skipped 1 duplicate "
                    + "(--allow-duplicates imports them)\n", "\(imported)")
            #expect(try await albums("show", "1505").output.contains("Album 1500"))
            #expect(try await albums("undo").output == "Undid Import 1500 albums\n")
            #expect(try await albums("export").output == exported)
            #expect(try await albums("redo").status == 0)
            #expect(try await albums("show", "6").output.contains("Album 1"))

            let replaced = try await albums("import", "--replace", backup.path)
            #expect(replaced.output == "Replaced the library's 1505 albums with 5 albums\n", "\(replaced)")
            #expect(try await albums("export").output == exported)
            let again = try await albums("import", "--replace", backup.path)
            #expect(again.status == 1 && again.error.contains("nothing to replace"), "\(again)")
            #expect(try await albums("undo").output == "Undid Replace the library with 5 albums\n")
            #expect(try await albums("show", "1505").output.contains("Album 1500"))
        }
    }

    @Test func coversStatsAndRepairOnAServer() async throws {
        try await withServerLibrary { albums, folder in
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<4000).map { UInt8($0 % 256) })
            let image = folder.appendingPathComponent("cover.png")
            try png.write(to: image)
            let set = try await albums("cover", "set", "Best of Bowie", image.path)
            #expect(set.status == 0 && set.output.hasPrefix("Set the cover of “Best of Bowie” (position 1)"), "\(set)")
            #expect(try await albums("show", "1").output.contains("Image:    image/png, 3.9 KiB"))
            let copy = folder.appendingPathComponent("copy.png")
            #expect(try await albums("cover", "export", "1", copy.path).status == 0)
            #expect(try Data(contentsOf: copy) == png)

            // A delete keeps the image for its undo; a replacement keeps it for its own.
            #expect(try await albums("delete", "1").status == 0)
            #expect(try await albums("undo").status == 0)
            #expect(try await albums("show", "1").output.contains("Image:    image/png"))
            let backup = folder.appendingPathComponent("backup.json")
            #expect(try await albums("export", backup.path).status == 0)
            #expect(try await albums("edit", "2", "--year", "1999").status == 0)
            #expect(try await albums("import", "--replace", backup.path).status == 0)
            #expect(try await albums("show", "1").output.contains("Image:    -"))
            #expect(try await albums("undo").status == 0)
            #expect(try await albums("show", "1").output.contains("Image:    image/png"))
            let removed = try await albums("cover", "remove", "1")
            #expect(removed.output == "Removed the cover of “Best of Bowie” (position 1)\n", "\(removed)")
            #expect(try await albums("undo").output == "Undid Remove the cover of “Best of Bowie”\n")

            let stats = try await albums("stats")
            #expect(stats.status == 0 && stats.output.hasPrefix("Albums:   5\n"), "\(stats)")
            #expect(stats.output.contains("History:  3 steps"), "\(stats)")

            // Nothing to repair yet: one line, nothing written.
            let nothing = try await albums("history", "--repair")
            #expect(nothing.status == 1 && nothing.error.split(separator: "\n").count == 1, "\(nothing)")
            #expect(nothing.error.contains("nothing to repair"), "\(nothing)")
            // The first album deleted with psql: the edit of the second (now first) no longer applies.
            try PostgreSQLTestSchema.run(albums.url, "DELETE FROM album WHERE title = 'Best of Bowie'")
            let refused = try await albums("undo")
            #expect(refused.status == 1 && refused.error.split(separator: "\n").count == 1, "\(refused)")
            #expect(
                refused.error.hasPrefix("albums: cannot undo step 3 “Edit “It's My Life””: ")
                    && refused.error.contains("`albums history --repair`"), "\(refused)")
            let repair = try await albums("history", "--repair")
            #expect(
                repair.output
                    == "Set aside step 3, “Edit “It's My Life””: its undo no longer applied (cannot undo Edit: the "
                    + "library no longer matches its history); undo and redo now pass over it\n", "\(repair)")
            // Undo passes over the step set aside, and the history shows it skipped.
            #expect(try await albums("undo").status == 0)
            let history = try await albums("history")
            #expect(history.output.contains("Edit “It's My Life” (skipped: it no longer applied)"), "\(history)")
            #expect(try await albums("redo").status == 0)
        }
    }
}
#endif

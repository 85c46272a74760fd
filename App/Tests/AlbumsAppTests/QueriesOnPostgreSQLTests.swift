#if PostgreSQL
import Foundation
import TestSupport
import Testing

/// `albums list QUERY… --sort KEYS` and bulk changes (`delete`, `edit`, `move --to` on a query)
/// on a library on a PostgreSQL server (`COMMANDKIT_POSTGRES_URL`, a schema of its own) print what
/// they print on a library file, and undo and redo take them back and forth.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["COMMANDKIT_POSTGRES_URL"] != nil
            || ProcessInfo.processInfo.environment["CI"] == "true"))
struct QueriesOnPostgreSQLTests {
    /// The same run on a library file and on a server, each seeded with the default albums.
    private struct Twins {
        let file: AlbumsProcess
        let server: AlbumsProcess

        /// Runs `words` on both: the outputs and statuses must be equal; returns the server's.
        @discardableResult
        func run(
            _ words: String..., sourceLocation: SourceLocation = #_sourceLocation
        ) async throws
            -> AlbumsProcess.Result
        {
            try await run(words, sourceLocation: sourceLocation)
        }

        /// Runs `words` on both, as the variadic `run` does.
        @discardableResult
        func run(
            _ words: [String], sourceLocation: SourceLocation = #_sourceLocation
        ) async throws
            -> AlbumsProcess.Result
        {
            let onFile = try await file.run(["--db", file.database] + words)
            let onServer = try await server.run(["--db", server.database] + words)
            #expect(
                onServer.status == onFile.status, "\(words): \(onFile) ≠ \(onServer)", sourceLocation: sourceLocation)
            #expect(
                Self.withoutIDs(onServer.output) == Self.withoutIDs(onFile.output),
                "\(words): \(onFile) ≠ \(onServer)", sourceLocation: sourceLocation)
            return onServer
        }

        /// The text with every id (each library's albums have their own) replaced by `ID`.
        private static func withoutIDs(_ text: String) -> String {
            text.replacingOccurrences(
                of: "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}", with: "ID",
                options: .regularExpression)
        }
    }

    private func withTwins(_ body: (Twins) async throws -> Void) async throws {
        let base = try #require(ProcessInfo.processInfo.environment["COMMANDKIT_POSTGRES_URL"])
        let schema = try PostgreSQLTestSchema(base: base)
        defer { schema.drop() }
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let twins = Twins(
            file: AlbumsProcess(database: folder.appendingPathComponent("library.sqlite").path),
            server: AlbumsProcess(database: schema.url))
        for albums in [twins.file, twins.server] {
            let created = try await albums.run(["--db", albums.database, "init"])
            #expect(created.status == 0, "\(created)")
            let added = try await albums.run([
                "--db", albums.database, "add", "-t", "Homogenic", "-a", "Björk", "-g", "Électronique", "-y", "1997",
            ])
            #expect(added.status == 0, "\(added)")
        }
        try await body(twins)
    }

    @Test func queriesAndSortedListingsPrintWhatALibraryFilePrints() async throws {
        try await withTwins { twins in
            let bowie = try await twins.run("list", "artist:bowie")
            #expect(
                bowie.output.contains("Best of Bowie") && bowie.output.split(separator: "\n").count == 1, "\(bowie)")
            for words in [
                ["list", "--sort", "year"],
                ["list", "--sort", "year-,title"],
                ["list", "--sort", "artist-"],
                ["--json", "list", "--sort", "title"],
                ["list", "year:1990..1999", "--sort", "title-"],
                ["list", "year:2000..", "^artist:madonna"],
                ["list", "sun", ",", "artist:bjork", "--sort", "year"],
                ["list", "title::^[A-I]", "--sort", "artist"],
                ["list", "--", "-pop"],
                ["list", "artist:nobody"],
                ["list", "-s", "sun", "year:2000"],
                ["--json", "list", "bjork"],
            ] {
                try await twins.run(words)
            }
        }
    }

    @Test func bulkChangesOnAQueryUndoAndRedoAsOnALibraryFile() async throws {
        try await withTwins { twins in
            let edited = try await twins.run("edit", "genre:pop", "--genre", "Jazz", "--yes")
            #expect(edited.status == 0 && edited.output.hasPrefix("Edited "), "\(edited)")
            try await twins.run("list", "--sort", "title")
            let moved = try await twins.run("move", "title:sun", "--to", "1", "--yes")
            #expect(moved.status == 0, "\(moved)")
            try await twins.run("list")
            let deleted = try await twins.run("delete", "year:..1995", "--yes")
            #expect(deleted.status == 0 && deleted.output.hasPrefix("Deleted "), "\(deleted)")
            try await twins.run("list")
            // Nothing matches any more: refused in one line, nothing changed.
            let none = try await twins.run("delete", "year:..1995", "--yes")
            #expect(none.status != 0 && none.error.split(separator: "\n").count == 1, "\(none)")
            // Back step by step, then forward again.
            for _ in 0..<3 {
                try await twins.run("undo")
                try await twins.run("--json", "list")
            }
            let original = try await twins.run("list")
            #expect(original.output.split(separator: "\n").count == 6, "\(original)")
            try await twins.run("redo", "3")
            let redone = try await twins.run("list")
            #expect(!redone.output.contains("Best of Bowie"), "\(redone)")
            // Several references at once, and their undo.
            try await twins.run("delete", "1", "2", "--yes")
            try await twins.run("list")
            try await twins.run("undo")
            try await twins.run("list")
        }
    }
}
#endif

import Foundation
import Testing

/// The built binary: `albums list QUERY…`, the query language on the command line.
@Suite struct ListQueryCLITests {
    private func withLibrary(_ body: (AlbumsProcess) async throws -> Void) async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(AlbumsProcess(database: folder.appendingPathComponent("library.sqlite").path))
    }

    private func titles(_ result: AlbumsProcess.Result) throws -> [String] {
        let rows = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]] ?? []
        return rows.compactMap { $0["title"] as? String }
    }

    @Test func fieldsRangesNegationAndAlternativesFromTheCommandLine() async throws {
        try await withLibrary { albums in
            _ = try await albums("add", "-t", "Homogenic", "-a", "Björk", "-g", "Électronique", "-y", "1997")
            for (words, expected) in [
                (["artist:bowie"], ["Best of Bowie"]),
                (["year:1990..1999"], ["Best of Bowie", "Nothing Like The Sun", "Homogenic"]),
                (["year:2000..", "^artist:madonna"], ["It's My Life", "Staring at the Sun"]),
                (["sun", ",", "artist:bjork"], ["Nothing Like The Sun", "Staring at the Sun", "Homogenic"]),
                (["--", "-pop"], ["Homogenic"]),
                (["staring at"], ["Staring at the Sun"]),
                (["title::^[A-I]"], ["Best of Bowie", "It's My Life", "American Pie", "Homogenic"]),
            ] {
                let result = try await albums.run(["--db", albums.database, "--json", "list"] + words)
                #expect(result.status == 0, "\(words): \(result)")
                #expect(try titles(result) == expected, "\(words)")
            }
            // --search and a query: both must match; the table keeps the library's positions.
            let both = try await albums("list", "-s", "sun", "year:2000")
            #expect(both.output.hasPrefix("  4  Staring at the Sun"), "\(both)")
            let none = try await albums("list", "artist:nobody")
            #expect(none.output == "No albums match “artist:nobody”.\n", "\(none)")
        }
    }

    @Test(arguments: [
        (["foo:bar"], "unknown field ‘foo’"),
        (["\"unbalanced"], "unbalanced quote"),
        (["year:1999..1990"], "1999 is after 1990"),
        (["title::("], "bad regular expression"),
        (["OR", "sun"], "needs a term before it"),
        (["--srot", "year"], "unknown option '--srot'"),
    ])
    func badQueriesAreUsageErrorsInOneLine(words: [String], message: String) async throws {
        try await withLibrary { albums in
            let result = try await albums.run(["--db", albums.database, "list"] + words)
            #expect(result.status == 2, "\(result)")
            #expect(result.error.contains(message), "\(result)")
            #expect(result.error.split(separator: "\n").count == 1, "\(result)")
            #expect(result.output.isEmpty)
        }
    }
}

import Foundation
import Testing

/// The built binary: `list --sort` with several keys, `list --format`, and `stats`.
@Suite struct ListFormatAndStatsCLITests {
    private func withLibrary(_ body: (AlbumsProcess) async throws -> Void) async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(AlbumsProcess(database: folder.appendingPathComponent("library.sqlite").path))
    }

    @Test func aTemplatePrintsALinePerAlbumInTheSortAsked() async throws {
        try await withLibrary { albums in
            _ = try await albums("add", "-t", "Untitled", "-a", "Nobody")
            let result = try await albums(
                "list", "year:1999..", ",", "nobody", "--sort", "year-,title+", "--format",
                "$position. $artist – $title (${year}) $$")
            #expect(result.status == 0, "\(result)")
            #expect(
                result.output == """
                    2. No Doubt – It's My Life (2003) $
                    5. Madonna – American Pie (2000) $
                    4. U2 – Staring at the Sun (2000) $
                    3. Sting – Nothing Like The Sun (1999) $
                    6. Nobody – Untitled () $

                    """, "\(result)")
        }
    }

    @Test(arguments: [
        (["--format", "$colour"], "unknown field '$colour'"),
        (["--format", "cost: $5"], "a '$' must name a field"),
        (["--format", "${title"], "without its '}'"),
        (["--sort", "year,,title"], "an empty sort key"),
        (["--sort", "year-,year"], "given twice"),
        (["--json", "--format", "$title"], "--format and --json do not go together"),
    ])
    func badTemplatesAndSortsAreUsageErrors(words: [String], message: String) async throws {
        try await withLibrary { albums in
            let result = try await albums.run(["--db", albums.database, "list"] + words)
            #expect(result.status == 2, "\(result)")
            #expect(result.error.contains(message), "\(result)")
            #expect(result.output.isEmpty)
        }
    }

    @Test func statsCountTheLibraryAsTextAndJSON() async throws {
        try await withLibrary { albums in
            _ = try await albums("add", "-t", "Untitled", "-a", "David Bowie", "-g", "Rock")
            let text = try await albums("stats")
            #expect(text.status == 0, "\(text)")
            for line in [
                "Albums:   6", "Artists:  5", "Genres:   2", "Years:    1992–2003 (1 album without a year)",
                "History:  1 step",
            ] {
                #expect(text.output.contains(line + "\n"), "\(text)")
            }
            let json = try await albums("--json", "stats")
            let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
            #expect(object?["albums"] as? Int == 6)
            #expect(object?["firstYear"] as? Int == 1992 && object?["lastYear"] as? Int == 2003)
            #expect((object?["bytesOnDisk"] as? Int ?? 0) > 0)
        }
    }
}

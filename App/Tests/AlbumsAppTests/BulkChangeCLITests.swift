import Foundation
import Testing

/// The built binary: `delete`, `edit` and `move --to` on several albums as one step.
@Suite struct BulkChangeCLITests {
    private func withLibrary(_ body: (AlbumsProcess) async throws -> Void) async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(AlbumsProcess(database: folder.appendingPathComponent("library.sqlite").path))
    }

    private func titles(_ albums: AlbumsProcess) async throws -> [String] {
        let result = try await albums("--json", "list")
        let rows = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]] ?? []
        return rows.compactMap { $0["title"] as? String }
    }

    static let seed = ["Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun", "American Pie"]

    @Test func withoutATerminalSeveralAlbumsNeedYesAndADryRunChangesNothing() async throws {
        try await withLibrary { albums in
            _ = try await albums("list")
            let refused = try await albums("delete", "2", "4")
            #expect(refused.status == 1, "\(refused)")
            #expect(
                refused.error
                    == "albums: this would delete 2 albums: add --yes to do it without a terminal to ask on (nothing changed)\n"
            )
            let dry = try await albums("delete", "year:2000", "--dry-run")
            #expect(dry.status == 0, "\(dry)")
            #expect(
                dry.output
                    == "Would delete 2 albums (nothing changed):\n  4  Staring at the Sun — U2\n  5  American Pie — Madonna\n"
            )
            #expect(try await titles(albums) == Self.seed)
            // One album needs no question.
            let one = try await albums("--json", "edit", "artist:sting", "--genre", "Jazz")
            #expect(one.status == 0 && one.output.contains("\"step\" : \"Edit 1 album\""), "\(one)")
        }
    }

    @Test func oneStepForTheWholeChangeUndoneExactly() async throws {
        try await withLibrary { albums in
            _ = try await albums("list")
            let deleted = try await albums("delete", "2", "4", "--yes")
            #expect(deleted.output == "Deleted 2 albums\n", "\(deleted)")
            #expect(try await titles(albums) == ["Best of Bowie", "Nothing Like The Sun", "American Pie"])
            let moved = try await albums("move", "^artist:bowie", "--to", "1", "--yes")
            #expect(moved.output == "Moved 2 albums to position 1\n", "\(moved)")
            #expect(try await titles(albums) == ["Nothing Like The Sun", "American Pie", "Best of Bowie"])
            let history = try await albums("history", "--limit", "2")
            #expect(
                history.output.contains("Delete 2 albums") && history.output.contains("Move 2 albums to position 1"))
            let undone = try await albums("undo", "2")
            #expect(undone.output == "Undid Move 2 albums to position 1\nUndid Delete 2 albums\n", "\(undone)")
            #expect(try await titles(albums) == Self.seed)
        }
    }

    @Test(arguments: [
        (["delete", "title:zzz", "--yes"], 1, "no album matches ‘title:zzz’"),
        (["delete", "1", "1", "--yes"], 1, "is named twice"),
        (["delete", "year:1999..1990"], 2, "1999 is after 1990"),
        (["move", "genre:pop", "3"], 2, "a query moves its albums with --to N"),
        (["move", "genre:pop", "--to", "2", "--yes"], 1, "position 2 is out of range for 5 albums (1...1)"),
        (
            ["edit", "genre:pop", "--genre", "Pop", "--yes"], 1,
            "the 5 albums already have those values: nothing to edit"
        ),
    ])
    func refusalsChangeNothing(words: [String], status: Int32, message: String) async throws {
        try await withLibrary { albums in
            _ = try await albums("list")
            let result = try await albums.run(["--db", albums.database] + words)
            #expect(result.status == status, "\(result)")
            #expect(result.error.contains(message), "\(result)")
            #expect(try await titles(albums) == Self.seed)
            #expect(try await albums("history").output.contains("Start"))
        }
    }
}

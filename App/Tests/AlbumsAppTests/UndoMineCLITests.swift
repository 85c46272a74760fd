import Foundation
import Testing

/// `albums undo --mine` and `redo --mine`: two authors in two processes, each undoing their own
/// change, or told clearly why not.
@Suite struct UndoMineCLITests {
    @Test func eachAuthorUndoesTheirOwnChangeOrIsToldWhoChangedItSince() async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = AlbumsProcess(database: folder.appendingPathComponent("library.sqlite").path)
        var ada = library
        ada.environment["ALBUMS_AUTHOR"] = "ada"
        var grace = library
        grace.environment["ALBUMS_AUTHOR"] = "grace"
        #expect(try await ada("list").status == 0)

        #expect(try await ada("delete", "3").status == 0)
        #expect(try await grace("add", "-t", "Blue Train", "-a", "John Coltrane", "--at", "1").status == 0)
        let undone = try await ada("undo", "--mine")
        #expect(
            undone.status == 0
                && undone.output == "Undid your Delete “Nothing Like The Sun” (step 1), keeping the later changes\n",
            "\(undone)")
        let list = try await ada("list").output
        #expect(list.hasPrefix("  1  Blue Train"), "\(list)")
        #expect(list.contains("  4  Nothing Like The Sun"), "\(list)")

        #expect(try await ada("edit", "2", "--year", "1990").status == 0)
        #expect(try await grace("edit", "2", "--year", "1991").status == 0)
        let history = try await ada("--json", "history").output
        let refused = try await ada("undo", "--mine")
        #expect(refused.status == 1, "\(refused)")
        #expect(
            refused.error == "albums: grace changed the year of “Best of Bowie” after your edit (step 5)\n",
            "\(refused)")
        #expect(try await ada("--json", "history").output == history)

        // Grace's own latest change is the last step: a plain undo.
        let plain = try await grace("--json", "undo", "--mine")
        let object = try JSONSerialization.jsonObject(with: Data(plain.output.utf8)) as? [String: Any]
        #expect(object?["author"] as? String == "grace" && object?["step"] as? String == "Edit “Best of Bowie”")
        #expect(try await grace("redo").status == 0)
        #expect(try await library("--author", "bob", "undo", "--mine").error == "albums: bob has no change to undo\n")
        #expect(try await ada("undo", "--mine", "2").status == 2)
    }
}

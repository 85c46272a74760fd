import AlbumLibrary
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Black-box tests of `albums cover set|remove|export`: the image is stored in the library as one
/// undoable step, checked by its bytes; bad input is one line and exit 2 (usage) or 1 (refusal),
/// with nothing written.
@Suite struct CoverCLITests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("a tiny image".utf8))

    private func withLibrary(_ body: (AlbumsProcess, URL) async throws -> Void) async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let albums = AlbumsProcess(database: folder.appendingPathComponent("library.sqlite").path)
        #expect(try await albums("init").status == 0)
        try await body(albums, folder)
    }

    private func object(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    @Test func setExportRemoveAndUndo() async throws {
        try await withLibrary { albums, folder in
            let image = folder.appendingPathComponent("cover.png")
            try Self.png.write(to: image)
            let set = try await albums("--json", "cover", "set", "Best of Bowie", image.path)
            #expect(set.status == 0, "\(set)")
            let result = try object(set.output)
            #expect(
                result["command"] as? String == "cover"
                    && result["step"] as? String == "Set the cover of “Best of Bowie”")
            #expect(result["revision"] as? Int != nil && result["position"] as? Int == 1)

            let shown = try await albums("show", "1")
            #expect(shown.output.contains("Image:    image/png, 20 bytes (sha256 "), "\(shown)")
            let listed = try JSONSerialization.jsonObject(with: Data(try await albums("--json", "list").output.utf8))
            let flags = (listed as? [[String: Any]] ?? []).map { $0["hasStoredCover"] as? Bool }
            #expect(flags == [true, false, false, false, false])
            let detail = try object(try await albums("--json", "show", "1").output)
            #expect((detail["storedCover"] as? [String: Any])?["mediaType"] as? String == "image/png")

            let exported = folder.appendingPathComponent("exported.png")
            let export = try await albums("cover", "export", "1", exported.path)
            #expect(export.status == 0 && export.output.hasPrefix("Exported the cover of “Best of Bowie”"), "\(export)")
            #expect(try Data(contentsOf: folder.appendingPathComponent("exported.png")) == Self.png)
            var status = stat()
            #expect(stat(folder.appendingPathComponent("exported.png").path, &status) == 0)
            #expect(status.st_mode & 0o777 == 0o600)

            let removed = try await albums("cover", "remove", "1")
            #expect(removed.output == "Removed the cover of “Best of Bowie” (position 1)\n", "\(removed)")
            let none = try await albums("cover", "export", "1", folder.appendingPathComponent("none.png").path)
            #expect(
                none.status == 1 && none.error == "albums: “Best of Bowie” has no stored cover to export\n", "\(none)")
            #expect(try await albums("undo").output == "Undid Remove the cover of “Best of Bowie”\n")
            #expect(try await albums("show", "1").output.contains("Image:    image/png"))
            #expect(try await albums("undo").status == 0)
            #expect(try await albums("show", "1").output.contains("Image:    -"))
        }
    }

    @Test func badInputIsOneLineAndChangesNothing() async throws {
        try await withLibrary { albums, folder in
            let text = folder.appendingPathComponent("cover.png")
            try Data("<svg onload=alert(1)/>".utf8).write(to: text)
            let huge = folder.appendingPathComponent("huge.png")
            try (Self.png + Data(count: CoverImage.maximumByteCount)).write(to: huge)
            let image = folder.appendingPathComponent("ok.png")
            try Self.png.write(to: image)
            let usage: [[String]] = [
                ["cover"], ["cover", "paint", "1"], ["cover", "set", "1"], ["cover", "remove"],
                ["cover", "remove", "1", "extra"], ["cover", "set", "1", ""], ["cover", "remove", "1", "--force"],
                ["cover", "set", "0", image.path],
            ]
            for words in usage {
                let result = try await albums.run(["--db", albums.database] + words)
                #expect(result.status == 2, "\(words): \(result)")
                #expect(result.error.hasPrefix("albums: ") && result.error.filter { $0 == "\n" }.count == 1, "\(words)")
            }
            let refusals: [([String], String)] = [
                (["cover", "set", "1", text.path], "is not a PNG, JPEG, WebP or GIF image"),
                (["cover", "set", "1", huge.path], "more than the 10 MiB a stored cover may have"),
                (["cover", "set", "1", folder.appendingPathComponent("missing.png").path], "no such file"),
                (["cover", "set", "1", folder.path], "it is a directory"),
                (["cover", "set", "No Such Album", image.path], "No Such Album"),
                (["cover", "remove", "1"], "has no stored cover: nothing to remove"),
                (["cover", "export", "1", albums.database], "no stored cover"),
                (["cover", "set", "1", albums.database], "it is the library itself"),
                (["cover", "set", "1", albums.database + "-wal"], "it is the library's"),
            ]
            for (words, expected) in refusals {
                let shown = try await albums.run(["--db", albums.database] + words)
                #expect(shown.status == 1, "\(words): \(shown)")
                #expect(
                    shown.error.contains(expected) && shown.error.filter { $0 == "\n" }.count == 1, "\(words): \(shown)"
                )
            }
            #expect(try await albums("history").output.contains("Start"))
            #expect(!(try await albums("history").output.contains("cover")), "nothing was recorded")
            // Export onto the library itself (or a companion) is refused; the library still opens.
            #expect(try await albums("cover", "set", "1", image.path).status == 0)
            for target in [albums.database, albums.database + "-wal"] {
                let result = try await albums("cover", "export", "1", target)
                #expect(result.status == 1 && result.error.contains("cannot export the cover to"), "\(result)")
            }
            #expect(try await albums("--json", "list").status == 0)
        }
    }
}

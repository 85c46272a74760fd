import Foundation
import Testing

/// The built binary: finding albums (search, sort, names), restoring a backup, results for scripts.
@Suite struct AlbumsFindAndRestoreTests {
    private func withLibrary(_ body: (AlbumsProcess, URL) async throws -> Void) async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(AlbumsProcess(database: folder.appendingPathComponent("library.sqlite").path), folder)
    }

    private func json(_ result: AlbumsProcess.Result) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(result.output.utf8))
    }

    private func titles(_ result: AlbumsProcess.Result) throws -> [String] {
        (try json(result) as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    @Test func searchIgnoresCaseAndAccentsOverTitleArtistAndGenre() async throws {
        try await withLibrary { albums, _ in
            _ = try await albums("add", "--title", "Homogenic", "--artist", "Björk", "--genre", "Électronique")
            _ = try await albums("add", "--title", "Ｗｉｄｅ", "--artist", "Someone")
            for (query, expected) in [
                ("bjork", ["Homogenic"]), ("BJÖRK", ["Homogenic"]), ("electro", ["Homogenic"]),
                ("sun", ["Nothing Like The Sun", "Staring at the Sun"]), ("BOWIE", ["Best of Bowie"]),
                ("u2", ["Staring at the Sun"]), ("wide", ["Ｗｉｄｅ"]), ("no such album", []),
            ] {
                let result = try await albums("--json", "list", "--search", query)
                #expect(result.status == 0, "\(result)")
                #expect(try titles(result) == expected, "\(query)")
            }
            // Positions stay the library's: "Staring at the Sun" is still the 4th album.
            let rows = try json(try await albums("--json", "list", "-s", "staring")) as? [[String: Any]]
            #expect(rows?.first?["position"] as? Int == 4)
            let none = try await albums("list", "--search", "zzz")
            #expect(none.output == "No albums match “zzz”.\n")
        }
    }

    @Test func sortOrdersByTitleArtistYearOrPosition() async throws {
        try await withLibrary { albums, _ in
            _ = try await albums("add", "--title", "a capella", "--artist", "Zed")
            let byTitle = try titles(try await albums("--json", "list", "--sort", "title"))
            #expect(byTitle.first == "a capella")
            #expect(byTitle.dropFirst().first == "American Pie")
            let byArtist = try titles(try await albums("--json", "list", "--sort", "artist"))
            #expect(
                byArtist == [
                    "Best of Bowie", "American Pie", "It's My Life", "Nothing Like The Sun",
                    "Staring at the Sun", "a capella",
                ])
            // Oldest first, ties in library order, no year last.
            let byYear = try titles(try await albums("--json", "list", "--sort", "year"))
            #expect(
                byYear == [
                    "Best of Bowie", "Nothing Like The Sun", "Staring at the Sun", "American Pie",
                    "It's My Life", "a capella",
                ])
            let searchedAndSorted = try titles(try await albums("--json", "list", "-s", "sun", "--sort", "title"))
            #expect(searchedAndSorted == ["Nothing Like The Sun", "Staring at the Sun"])
            let bad = try await albums("list", "--sort", "colour")
            #expect(bad.status == 2)
            #expect(
                bad.error
                    == "albums: unknown sort key 'colour' (known: position, title, artist, year) (see 'albums list --help')\n"
            )
        }
    }

    @Test func albumsAreNamedByPositionIdOrExactTitle() async throws {
        try await withLibrary { albums, _ in
            let shown = try json(try await albums("--json", "show", "Staring at the Sun")) as? [String: Any]
            #expect(shown?["position"] as? Int == 4)
            let id = try #require(shown?["id"] as? String)
            #expect(try await albums("show", id).output.contains("Title:    Staring at the Sun"))
            let moved = try await albums("move", id, "1")
            #expect(moved.output == "Moved “Staring at the Sun” from position 4 to 1\n", "\(moved)")
            let edited = try await albums("edit", "Best of Bowie", "--year", "1993")
            #expect(edited.output == "Edited “Best of Bowie” (position 2)\n", "\(edited)")
            let deleted = try await albums("delete", "American Pie")
            #expect(deleted.output == "Deleted “American Pie” (position 5)\n", "\(deleted)")
            #expect(try await albums("show", "american pie").error.contains("no album is titled “american pie”"))
        }
    }

    @Test func aTitleMatchesWithCaseAndAccentsAsideWhenOneAlbumDoes() async throws {
        try await withLibrary { albums, _ in
            _ = try await albums("add", "--title", "Blue Train", "--artist", "John Coltrane")
            _ = try await albums("add", "--title", "Homogenic", "--artist", "Björk")
            // One album matches forgivingly: it is the one changed, and the line names its real title.
            let edited = try await albums("edit", "blue train", "-g", "Hard bop")
            #expect(edited.output == "Edited “Blue Train” (position 6)\n", "\(edited)")
            #expect(try await albums("show", "HOMOGÉNIC").output.contains("Artist:   Björk"))
            // An exact title wins over a folded one.
            _ = try await albums("add", "--title", "blue train", "--artist", "Someone")
            let exact = try await albums("--json", "show", "blue train")
            #expect((try json(exact) as? [String: Any])?["position"] as? Int == 8, "\(exact)")
            // Several that match only forgivingly: refused, listing them; nothing changes.
            let before = try await albums.snapshot()
            let several = try await albums("delete", "BLUE TRAIN")
            #expect(several.status == 1, "\(several)")
            #expect(
                several.error.hasPrefix(
                    "albums: 2 albums are titled like “BLUE TRAIN” (case and accents aside): positions 6 (id "),
                "\(several)")
            #expect(several.error.contains(", 8 (id "), "\(several)")
            #expect(try await albums.snapshot() == before)
            // None: the nearest titles, nearest first.
            let typo = try await albums("move", "Blue Trian", "1")
            #expect(typo.status == 1, "\(typo)")
            #expect(
                typo.error
                    == "albums: no album is titled “Blue Trian”; did you mean “Blue Train” (position 6) or “blue train” (position 8)?\n",
                "\(typo)")
            let far = try await albums("show", "Zzzzzz")
            #expect(far.error == "albums: no album is titled “Zzzzzz”\n", "\(far)")
        }
    }

    @Test func importSkipsDuplicatesOfTheLibraryAndOfTheFileAndSaysHowMany() async throws {
        try await withLibrary { albums, folder in
            let file = folder.appendingPathComponent("albums.json")
            // “best of bowie” by DAVID BOWIE, 1992 is the library's first album; the 1993 one is not.
            try Data(
                """
                [{"title": "best of bowie", "artist": "DAVID BOWIE", "year": 1992},
                 {"title": "Blue Train", "artist": "John Coltrane", "year": 1957},
                 {"title": "Best of Bowie", "artist": "David Bowie", "year": 1993},
                 {"title": "BLUE TRAIN", "artist": "john coltrane", "year": 1957}]
                """.utf8
            ).write(to: file)
            let before = try await albums.snapshot()
            let preview = try await albums("import", "--dry-run", file.path)
            #expect(preview.status == 0, "\(preview)")
            #expect(
                preview.output.hasPrefix(
                    "Would import 2 albums (positions 6–7); would skip 2 duplicates (--allow-duplicates imports them); "
                        + "nothing was changed\n"), "\(preview)")
            #expect(preview.output.contains("Blue Train") && preview.output.contains("1993"), "\(preview)")
            #expect(try await albums.snapshot() == before)
            let imported = try await albums("import", file.path)
            #expect(
                imported.output
                    == "Imported 2 albums (positions 6–7); skipped 2 duplicates (--allow-duplicates imports them)\n",
                "\(imported)")
            // Again: every album is in the library now, so nothing is recorded.
            let again = try await albums("--json", "import", file.path)
            #expect(again.status == 1, "\(again)")
            #expect(
                again.error
                    == "albums: \(file.path): all 4 albums are already in the library (--allow-duplicates imports them): nothing to import\n"
            )
            let kept = try await albums("--json", "import", "--allow-duplicates", file.path)
            let result = try json(kept) as? [String: Any]
            #expect(result?["count"] as? Int == 4 && result?["skipped"] as? Int == 0, "\(kept)")
            #expect(try titles(try await albums("--json", "list")).count == 11)
            // --replace stays an exact restore, duplicates and all.
            let refused = try await albums("import", "--replace", "--allow-duplicates", file.path)
            #expect(refused.status == 2, "\(refused)")
            #expect(try await albums("import", "--replace", file.path).status == 0)
            #expect(try titles(try await albums("--json", "list")).count == 4)
        }
    }

    @Test func anAmbiguousTitleIsRefusedWithTheCandidates() async throws {
        try await withLibrary { albums, _ in
            _ = try await albums("add", "--title", "Best of Bowie", "--artist", "Someone Else", "--at", "3")
            let before = try await albums.snapshot()
            let result = try await albums("delete", "Best of Bowie")
            #expect(result.status == 1, "\(result)")
            #expect(result.output.isEmpty)
            #expect(
                result.error.hasPrefix("albums: 2 albums are titled “Best of Bowie”: positions 1 (id "), "\(result)")
            #expect(result.error.contains(", 3 (id "), "\(result)")
            #expect(result.error.hasSuffix("; name one by position or id\n"), "\(result)")
            #expect(result.error.filter { $0 == "\n" }.count == 1)
            #expect(try await albums.snapshot() == before)
        }
    }

    @Test func exportChangesReplaceExportGivesTheFirstFileBackByteForByte() async throws {
        try await withLibrary { albums, folder in
            _ = try await albums(
                "add", "--title", "Blue Train", "--artist", "John Coltrane", "--cover", "https://e.com/c.jpg")
            let backup = folder.appendingPathComponent("backup.json")
            #expect(try await albums("export", backup.path).status == 0)
            let first = try Data(contentsOf: backup)
            // Every field is written, null when empty, as list --json prints it.
            let text = String(decoding: first, as: UTF8.self)
            #expect(text.contains("\"cover\" : null"))
            #expect(text.contains("\"cover\" : \"https://e.com/c.jpg\""))

            _ = try await albums("delete", "1")
            _ = try await albums("edit", "Blue Train", "--genre", "Jazz")
            _ = try await albums("move", "1", "3")
            _ = try await albums("add", "--title", "Extra", "--artist", "X")
            let replaced = try await albums("import", "--replace", backup.path)
            #expect(replaced.status == 0, "\(replaced)")
            #expect(replaced.output == "Replaced the library's 6 albums with 6 albums\n")
            let again = folder.appendingPathComponent("again.json")
            #expect(try await albums("export", again.path).status == 0)
            #expect(try Data(contentsOf: again) == first)

            // One undoable step: undo brings the changed library back, redo the backup.
            let changed = try await albums("undo")
            #expect(changed.output == "Undid Replace the library with 6 albums\n", "\(changed)")
            #expect(try titles(try await albums("--json", "list")).last == "Extra")
            #expect(try await albums("redo").status == 0)
            #expect(try await albums("export").output == String(decoding: first, as: UTF8.self))
        }
    }

    @Test(arguments: [
        ("not json", "not valid JSON"),
        ("[{\"title\": \"T\"}]", "album 1: field \"artist\": missing"),
        ("[{\"title\": \"T\", \"artist\": \"A\", \"id\": \"x\"}]", "album 1: field \"id\""),
    ])
    func aMalformedReplaceFileLeavesTheLibraryUnchanged(contents: String, message: String) async throws {
        try await withLibrary { albums, folder in
            let file = folder.appendingPathComponent("bad.json")
            try Data(contents.utf8).write(to: file)
            _ = try await albums("delete", "1")
            let before = try await albums.snapshot()
            let result = try await albums("import", "--replace", file.path)
            #expect(result.status == 1, "\(result)")
            #expect(result.error.contains(message), "\(result)")
            #expect(result.error.contains(file.path), "\(result)")
            #expect(result.output.isEmpty)
            #expect(try await albums.snapshot() == before)
        }
    }

    @Test func everyChangingCommandPrintsAJSONObject() async throws {
        try await withLibrary { albums, folder in
            func object(_ arguments: String...) async throws -> [String: Any] {
                let result = try await albums.run(["--db", albums.database, "--json"] + arguments)
                #expect(result.status == 0, "\(arguments): \(result)")
                return try json(result) as? [String: Any] ?? [:]
            }
            let added = try await object("add", "-t", "Blue Train", "-a", "John Coltrane", "--at", "2")
            #expect(added["command"] as? String == "add")
            #expect(added["step"] as? String == "Add “Blue Train”")
            #expect(added["position"] as? Int == 2)
            let id = try #require(added["id"] as? String)
            let edited = try await object("edit", id, "--year", "1957")
            #expect(edited["id"] as? String == id)
            #expect(edited["position"] as? Int == 2)
            #expect(edited["step"] as? String == "Edit “Blue Train”")
            let moved = try await object("move", "Blue Train", "4")
            #expect(moved["position"] as? Int == 4)
            let deleted = try await object("delete", "4")
            #expect(deleted["id"] as? String == id)
            let undone = try await object("undo", "2")
            #expect(undone["steps"] as? [String] == ["Delete “Blue Train”", "Move “Blue Train”"])
            let redone = try await object("redo")
            #expect(redone["steps"] as? [String] == ["Move “Blue Train”"])
            let file = folder.appendingPathComponent("one.json")
            try Data("[{\"title\": \"Solo\", \"artist\": \"S\"}]".utf8).write(to: file)
            let imported = try await object("import", file.path)
            #expect(imported["count"] as? Int == 1)
            #expect(imported["position"] as? Int == 7)
            let replaced = try await object("import", "--replace", file.path)
            #expect(replaced["step"] as? String == "Replace the library with 1 album")
            // The album's title as the change found it (left it, for the edit), where there is one album.
            #expect(
                [added, edited, moved, deleted, imported].map { $0["title"] as? String } == [
                    "Blue Train", "Blue Train", "Blue Train", "Blue Train", "Solo",
                ])
            #expect(undone["title"] == nil && replaced["title"] == nil)
            // Each change's commit takes the next revision, and `history --json` shows the last one.
            let revisions = [added, edited, moved, deleted, undone, redone, imported, replaced].map {
                $0["revision"] as? Int
            }
            #expect(revisions == Array(1...8), "\(revisions)")
            let history = try json(try await albums("--json", "history")) as? [String: Any]
            #expect(history?["revision"] as? Int == 8)
        }
    }

    @Test func historyTakesALimitAndNoOpsAreNeverRecorded() async throws {
        try await withLibrary { albums, _ in
            for number in 1...4 { _ = try await albums("add", "--title", "T\(number)", "--artist", "A") }
            #expect(try await albums("move", "1", "1").status == 1)
            #expect(try await albums("edit", "T1", "--artist", "A").status == 1)
            let limited = try await albums("history", "--limit", "2")
            let lines = limited.output.split(separator: "\n")
            #expect(lines.count == 2, "\(limited)")
            #expect(lines[0].hasSuffix("Add “T3”"))
            #expect(lines[1].hasPrefix("> 4") && lines[1].hasSuffix("Add “T4”"))
            let object = try json(try await albums("--json", "history", "-n", "1")) as? [String: Any]
            #expect(object?["count"] as? Int == 4)
            #expect((object?["steps"] as? [[String: Any]])?.compactMap { $0["index"] as? Int } == [4])
        }
    }

    @Test func infoNamesThePathTheCountAndTheHistory() async throws {
        try await withLibrary { albums, _ in
            _ = try await albums("delete", "1")
            _ = try await albums("delete", "1")
            _ = try await albums("undo")
            let info = try await albums("info")
            #expect(info.output == "Library:  \(albums.database)\nAlbums:   4\nHistory:  2 steps (1 done)\n", "\(info)")
            let object = try json(try await albums("--json", "info")) as? [String: Any]
            #expect(object?["path"] as? String == albums.database)
            #expect(object?["albums"] as? Int == 4)
            #expect(object?["historySteps"] as? Int == 2)
        }
    }

    @Test func completionScriptsComeFromTheBinary() async throws {
        try await withLibrary { albums, _ in
            for shell in ["bash", "zsh", "fish"] {
                let result = try await albums.run(["--generate-completion-script", shell])
                #expect(result.status == 0, "\(result)")
                #expect(result.output.contains("history") && result.output.contains("search"), "\(shell)")
            }
            #expect(!FileManager.default.fileExists(atPath: albums.database))
        }
    }
}

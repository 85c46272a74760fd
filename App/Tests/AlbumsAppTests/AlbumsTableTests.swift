import AlbumLibrary
import Foundation
import Testing

@testable import AlbumsApp

/// `albums list` tables: columns by display width, fitted on a terminal, whole when piped.
@Suite struct AlbumsTableTests {
    @Test func wideCombiningAndEmojiCharactersAreMeasuredInColumns() {
        #expect(TerminalColumns.width("abc") == 3)
        #expect(TerminalColumns.width("東京") == 4)
        #expect(TerminalColumns.width("e\u{301}te\u{301}") == 3)
        #expect(TerminalColumns.width("🎸") == 2)
        #expect(TerminalColumns.width("👩‍👩‍👧") == 2)
        #expect(TerminalColumns.width("🇯🇵") == 2)
        #expect(TerminalColumns.width("❤️") == 2)
        #expect(TerminalColumns.truncated("東京都庁", to: 5) == "東京…")
    }

    private static let rows: [AlbumFormatter.Row] = [
        (1, Album(title: "東京ラブストーリー", artist: "小田和正", genre: "J-Pop", year: 1991)),
        (2, Album(title: "Café del Mar 🎧", artist: "Various", genre: "Progressive Rock", year: 1994)),
        (3, Album(title: "Ame\u{301}lie", artist: "Yann Tiersen", genre: "Soundtrack", year: 2001)),
    ]

    /// The column at which each line's year starts, in display columns.
    private func yearColumns(_ text: String) -> [Int] {
        text.split(separator: "\n").map { line in
            TerminalColumns.width(String(line.dropLast(4)))
        }
    }

    @Test func pipedTablesKeepWholeValuesAlignedByDisplayWidth() {
        let text = AlbumFormatter.listText(Self.rows, currentID: nil)
        #expect(text.contains("Progressive Rock"))
        #expect(text.contains("東京ラブストーリー"))
        #expect(Set(yearColumns(text)).count == 1, "\(text)")
    }

    @Test func terminalTablesFitTheWidth() {
        for width in [40, 50, 60, 80] {
            let text = AlbumFormatter.listText(Self.rows, currentID: nil, width: width)
            for line in text.split(separator: "\n") {
                #expect(TerminalColumns.width(String(line)) <= width, "\(width): \(line)")
            }
            #expect(Set(yearColumns(text)).count == 1, "\(width): \(text)")
        }
        #expect(AlbumFormatter.listText(Self.rows, currentID: nil, width: 200).contains("Progressive Rock"))
        #expect(AlbumFormatter.listText(Self.rows, currentID: nil, width: 50).contains("…"))
    }

    /// The binary on a pseudo-terminal (`script`) fits the table to `COLUMNS`; piped it does not.
    @Test func theBinaryFitsTablesOnATerminalOnly() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let albums = AlbumsProcess(database: folder.appendingPathComponent("library.sqlite").path)
        _ = try await albums(
            "add", "--title", String(repeating: "長い題名", count: 10), "--artist", "A", "--genre", "Progressive Rock")
        let piped = try await albums("list")
        #expect(piped.output.contains(String(repeating: "長い題名", count: 10)))
        #expect(piped.output.contains("Progressive Rock"))
        let command = "COLUMNS=60 '\(AlbumsProcess.executable.path)' --db '\(albums.database)' list"
        let terminal = try await AlbumsProcess(database: albums.database).run(
            ["-qec", command, "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(terminal.status == 0, "\(terminal)")
        let lines = terminal.output.replacingOccurrences(of: "\r", with: "").split(separator: "\n")
        #expect(lines.count == 6, "\(terminal)")
        for line in lines {
            #expect(TerminalColumns.width(String(line)) <= 60, "\(line)")
        }
        #expect(terminal.output.contains("…"))
    }
}

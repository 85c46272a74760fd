public import AlbumLibrary
public import Foundation

/// Formats albums and history for the command line, as text or JSON.
///
/// Pure functions from values to strings, so the output is tested without a terminal.
/// Text output passes every album field through ``DisplayText/sanitized(_:)``; JSON output
/// carries fields verbatim, with control, DEL, C1 and bidirectional-override characters escaped.
public enum AlbumFormatter: Sendable {
    /// One album with its 1-based position.
    public typealias Row = (position: Int, album: Album)

    /// `list` as text: one line per album, `*` marking the current one, columns aligned.
    ///
    /// - Parameters:
    ///   - rows: The albums with their positions.
    ///   - currentID: The current album's id, if any.
    /// - Returns: The lines, each ending with a newline; "No albums." for an empty library.
    public static func listText(_ rows: [Row], currentID: UUID?) -> String {
        guard !rows.isEmpty else { return "No albums.\n" }
        let numberWidth = String(rows.map(\.position).max() ?? 1).count
        let titles = rows.map { DisplayText.sanitized($0.album.title) }
        let artists = rows.map { DisplayText.sanitized($0.album.artist) }
        let titleWidth = min(40, titles.map(\.count).max() ?? 0)
        let artistWidth = min(30, artists.map(\.count).max() ?? 0)
        var text = ""
        for (offset, row) in rows.enumerated() {
            let mark = row.album.id == currentID ? "*" : " "
            let number = String(repeating: " ", count: numberWidth - String(row.position).count) + String(row.position)
            var line = "\(mark) \(number)  \(pad(titles[offset], titleWidth))  \(pad(artists[offset], artistWidth))"
            line += "  \(pad(DisplayText.sanitized(row.album.genre), 8))  \(row.album.year.map(String.init) ?? "")"
            while line.last == " " { line.removeLast() }
            text += line + "\n"
        }
        return text
    }

    /// `show` as text: one field per line.
    ///
    /// - Parameter row: The album and its position.
    /// - Returns: The lines.
    public static func showText(_ row: Row) -> String {
        let album = row.album
        return """
            Position: \(row.position)
            Title:    \(DisplayText.sanitized(album.title))
            Artist:   \(DisplayText.sanitized(album.artist))
            Genre:    \(album.genre.isEmpty ? "-" : DisplayText.sanitized(album.genre))
            Year:     \(album.year.map(String.init) ?? "-")
            Cover:    \(album.coverURL.map { DisplayText.sanitized($0.absoluteString) } ?? "-")
            ID:       \(album.id.uuidString)

            """
    }

    /// `list --json`: an array of objects with `position`, `current` and the album's fields.
    ///
    /// - Parameters:
    ///   - rows: The albums with their positions.
    ///   - currentID: The current album's id, if any.
    /// - Returns: The JSON text and a final newline.
    public static func listJSON(_ rows: [Row], currentID: UUID?) -> String {
        json(rows.map { RowJSON(row: $0, current: $0.album.id == currentID) })
    }

    /// `show --json`: one object with `position` and the album's fields.
    ///
    /// - Parameter row: The album and its position.
    /// - Returns: The JSON text and a final newline.
    public static func showJSON(_ row: Row) -> String {
        json(RowJSON(row: row, current: nil))
    }

    /// `history` as text: step 0 is the start; `>` marks the current step, later steps are undone.
    ///
    /// - Parameters:
    ///   - steps: Each step's text, oldest first (step 1 first).
    ///   - current: The number of steps done (0: all undone).
    /// - Returns: The lines.
    public static func historyText(_ steps: [String], current: Int) -> String {
        let width = String(steps.count).count
        func line(_ index: Int, _ text: String) -> String {
            let mark = index == current ? ">" : " "
            let number = String(repeating: " ", count: width - String(index).count) + String(index)
            let state = index > current ? "  (undone)" : ""
            return "\(mark) \(number)  \(text)\(state)\n"
        }
        var text = line(0, "Start")
        for (offset, step) in steps.enumerated() {
            text += line(offset + 1, DisplayText.sanitized(step))
        }
        return text
    }

    /// `history --json`: `{"current": n, "steps": [{"index": 1, "text": "...", "done": true}, ...]}`.
    ///
    /// - Parameters:
    ///   - steps: Each step's text, oldest first.
    ///   - current: The number of steps done.
    /// - Returns: The JSON text and a final newline.
    public static func historyJSON(_ steps: [String], current: Int) -> String {
        struct Step: Encodable {
            var index: Int
            var text: String
            var done: Bool
        }
        struct History: Encodable {
            var current: Int
            var steps: [Step]
        }
        let history = History(
            current: current,
            steps: steps.enumerated().map { Step(index: $0.offset + 1, text: $0.element, done: $0.offset < current) }
        )
        return json(history)
    }

    private struct RowJSON: Encodable {
        var row: Row
        var current: Bool?

        enum CodingKeys: String, CodingKey {
            case position, current, id, title, artist, genre, year, cover
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(row.position, forKey: .position)
            try container.encodeIfPresent(current, forKey: .current)
            try container.encode(row.album.id, forKey: .id)
            try container.encode(row.album.title, forKey: .title)
            try container.encode(row.album.artist, forKey: .artist)
            try container.encode(row.album.genre, forKey: .genre)
            try container.encode(row.album.year, forKey: .year)
            try container.encode(row.album.coverURL, forKey: .cover)
        }
    }

    private static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings, numbers, UUIDs and URLs always encode.
        let data = TerminalSafety.escapingUnsafeScalars(in: (try? encoder.encode(value)) ?? Data())
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        if text.count > width {
            return String(text.prefix(max(0, width - 1))) + "…"
        }
        return text + String(repeating: " ", count: width - text.count)
    }
}

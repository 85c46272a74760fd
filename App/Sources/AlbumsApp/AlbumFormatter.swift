import AlbumLibrary
import CommandKit
import Foundation

/// Formats albums and history for the command line, as text or JSON.
///
/// Pure functions from values to strings, so the output is tested without a terminal.
/// Text output passes every album field through ``DisplayText/sanitized(_:)``; JSON output
/// carries fields verbatim, with control, DEL, C1 and bidirectional-override characters escaped.
enum AlbumFormatter: Sendable {
    /// One album with its 1-based position.
    typealias Row = (position: Int, album: Album)

    /// `list` as text: one line per album, `*` marking the current one, columns aligned by the
    /// columns each value takes on a terminal (wide characters and emoji count two).
    ///
    /// With a `width` (standard output is a terminal), the title, artist and genre columns shrink,
    /// widest first, until each line fits, and values cut there end with "…". Without one (a pipe,
    /// a file) every value is whole.
    ///
    /// - Parameters:
    ///   - rows: The albums with their positions.
    ///   - currentID: The current album's id, if any.
    ///   - width: The terminal's width in columns, or `nil` for whole values.
    /// - Returns: The lines, each ending with a newline; "No albums." for an empty library.
    static func listText(_ rows: [Row], currentID: UUID?, width: Int? = nil) -> String {
        listText(rows.map(\.album), positions: rows.map(\.position), currentID: currentID, width: width)
    }

    /// `list` as text for albums at positions 1, 2, 3…, or at `positions`: ``listText(_:currentID:width:)``
    /// without making a row for each album (the whole library's listing).
    ///
    /// - Parameters:
    ///   - albums: The albums.
    ///   - positions: Each album's position, or `nil` for 1 to `albums.count`.
    ///   - currentID: The current album's id, if any.
    ///   - width: The terminal's width in columns, or `nil` for whole values.
    /// - Returns: The lines, each ending with a newline; "No albums." for an empty library.
    static func listText(_ albums: [Album], positions: [Int]?, currentID: UUID?, width: Int? = nil) -> String {
        guard !albums.isEmpty else { return "No albums.\n" }
        func position(_ index: Int) -> Int { positions?[index] ?? index + 1 }
        var table = ListTable()
        for index in albums.indices { table.measure(albums[index], position: position(index)) }
        table.fit(width: width)
        var text: [UInt8] = []
        text.reserveCapacity(albums.count * table.lineLength)
        for index in albums.indices {
            table.appendLine(albums[index], position: position(index), currentID: currentID, to: &text)
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The `list` table's layout, measured over every row first, then lines made one at a time: so
    /// a whole library is listed in two passes over its rows, holding none of them
    /// (``ActionRunner``), or from an array (``listText(_:positions:currentID:width:)``).
    ///
    /// Lines are built as UTF-8 bytes, each field measured once: 100,000 albums are listed in a few
    /// instructions per byte instead of string interpolation and repeated measuring per cell.
    struct ListTable {
        /// Digits of the largest position.
        private(set) var numberWidth = 1
        private(set) var hasYear = false
        /// The title, artist and genre columns' widths.
        private(set) var widths = [0, 0, 0]
        /// The rows measured.
        private(set) var rows = 0

        /// Takes a row's fields into the column widths.
        mutating func measure(_ album: Album, position: Int) {
            measure(position: position, hasYear: album.year != nil)
            widths[0] = max(widths[0], AlbumFormatter.displayField(album.title).width)
            widths[1] = max(widths[1], AlbumFormatter.displayField(album.artist).width)
            widths[2] = max(widths[2], AlbumFormatter.displayField(album.genre).width)
        }

        /// Takes a row's fields, as stored (UTF-8), into the column widths: printable ASCII is
        /// measured by its length without making a string.
        mutating func measure(
            title: UnsafeBufferPointer<UInt8>, artist: UnsafeBufferPointer<UInt8>,
            genre: UnsafeBufferPointer<UInt8>, hasYear: Bool, position: Int
        ) {
            measure(position: position, hasYear: hasYear)
            measure(title, column: 0)
            measure(artist, column: 1)
            measure(genre, column: 2)
        }

        private mutating func measure(_ bytes: UnsafeBufferPointer<UInt8>, column: Int) {
            let isPrintableASCII = !bytes.contains { $0 < 0x20 || $0 >= 0x7F }
            let width =
                isPrintableASCII
                ? bytes.count : AlbumFormatter.displayField(String(decoding: bytes, as: UTF8.self)).width
            widths[column] = max(widths[column], width)
        }

        private mutating func measure(position: Int, hasYear: Bool) {
            rows += 1
            numberWidth = max(numberWidth, AlbumFormatter.decimalDigits(position))
            self.hasYear = self.hasYear || hasYear
        }

        /// With a terminal's `width`, shrinks the title, artist and genre columns, widest first,
        /// until each line fits; values cut there end with "…".
        mutating func fit(width: Int?) {
            guard let width else { return }
            // "* 12  " before the title, two spaces between columns, the year's four digits.
            let fixed = 2 + numberWidth + 2 + 2 + 2 + (hasYear ? 2 + 4 : 0)
            let available = max(3 * 4, width - fixed)
            while widths.reduce(0, +) > available, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }),
                widths[widest] > 4
            {
                widths[widest] -= 1
            }
        }

        /// About the bytes of one line, for reserving.
        var lineLength: Int { numberWidth + widths.reduce(12, +) }

        /// Appends two spaces and a field cut or padded to its column's width.
        private func appendField(_ field: String, column: Int, to text: inout [UInt8]) {
            text.append(UInt8(ascii: " "))
            text.append(UInt8(ascii: " "))
            var (value, valueWidth) = AlbumFormatter.displayField(field)
            if valueWidth > widths[column] {
                value = TerminalColumns.truncated(value, to: widths[column])
                valueWidth = TerminalColumns.width(value)
            }
            text.append(contentsOf: value.utf8)
            AlbumFormatter.appendSpaces(widths[column] - valueWidth, to: &text)
        }

        /// Appends the album's line, `*` marking the current one, ending with a newline.
        func appendLine(_ album: Album, position: Int, currentID: UUID?, to text: inout [UInt8]) {
            let space = UInt8(ascii: " ")
            let lineStart = text.count
            text.append(album.id == currentID ? UInt8(ascii: "*") : space)
            text.append(space)
            AlbumFormatter.appendSpaces(numberWidth - AlbumFormatter.decimalDigits(position), to: &text)
            AlbumFormatter.appendDecimal(position, to: &text)
            appendField(album.title, column: 0, to: &text)
            appendField(album.artist, column: 1, to: &text)
            appendField(album.genre, column: 2, to: &text)
            if let year = album.year {
                text.append(space)
                text.append(space)
                if year >= 0 {
                    AlbumFormatter.appendDecimal(year, to: &text)
                } else {
                    text.append(contentsOf: String(year).utf8)
                }
            }
            while text.count > lineStart, text.last == space { text.removeLast() }
            text.append(UInt8(ascii: "\n"))
        }
    }

    /// A field as the table shows it, with the columns it takes: printable ASCII as it is and
    /// measured by its length, anything else sanitized and measured per character.
    private static func displayField(_ value: String) -> (text: String, width: Int) {
        var value = value
        let isPrintableASCII = value.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte >= 0x7F { return false }
            return true
        }
        if isPrintableASCII { return (value, value.utf8.count) }
        let text = DisplayText.sanitized(value)
        return (text, TerminalColumns.width(text))
    }

    /// Appends a non-negative number's decimal digits.
    private static func appendDecimal(_ value: Int, to text: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &text) }
        text.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// Appends `count` spaces (none when `count` is not positive).
    private static func appendSpaces(_ count: Int, to text: inout [UInt8]) {
        var remaining = count
        while remaining > 0 {
            text.append(UInt8(ascii: " "))
            remaining -= 1
        }
    }

    /// The number of decimal digits of a non-negative number (1 for 0).
    private static func decimalDigits(_ value: Int) -> Int {
        var digits = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits
    }

    /// `show` as text: one field per line.
    ///
    /// - Parameters:
    ///   - row: The album and its position.
    ///   - cover: What the library stores of its cover image, if anything.
    /// - Returns: The lines.
    static func showText(_ row: Row, cover: CoverSummary? = nil) -> String {
        let album = row.album
        let image = cover.map { "\($0.mediaType), \(UserFile.describeSize($0.byteCount)) (sha256 \($0.hash))" }
        return """
            Position: \(row.position)
            Title:    \(DisplayText.sanitized(album.title))
            Artist:   \(DisplayText.sanitized(album.artist))
            Genre:    \(album.genre.isEmpty ? "-" : DisplayText.sanitized(album.genre))
            Year:     \(album.year.map(String.init) ?? "-")
            Cover:    \(album.coverURL.map { DisplayText.sanitized($0.absoluteString) } ?? "-")
            Image:    \(image ?? "-")
            ID:       \(album.id.uuidString)

            """
    }

    /// `list --json`: an array of objects with `position`, `current`, the album's fields,
    /// `hasStoredCover` and, for an album with a stored cover image, `storedCover`.
    ///
    /// - Parameters:
    ///   - rows: The albums with their positions.
    ///   - currentID: The current album's id, if any.
    /// - Returns: The JSON text and a final newline.
    static func listJSON(_ rows: [Row], currentID: UUID?) -> String {
        var writer = ListJSONWriter()
        return writer.text(for: rows, currentID: currentID, covers: [:]) + writer.end()
    }

    /// `list --json` a batch of rows at a time: the text ``listJSON(_:currentID:)`` makes, in
    /// pieces (`[`, the objects, `]`, as JSONEncoder writes an array).
    struct ListJSONWriter {
        private var hasRows = false

        /// The text for the next rows (the opening bracket before the first); `covers` holds what
        /// the library stores of the cover images of those that have one.
        mutating func text(for rows: [Row], currentID: UUID?, covers: [UUID: CoverSummary]) -> String {
            guard !rows.isEmpty else { return "" }
            let array = json(
                rows.map {
                    let cover = covers[$0.album.id]
                    return RowJSON(
                        row: $0, current: $0.album.id == currentID, hasStoredCover: cover != nil, storedCover: cover)
                })
            // "[\n", the objects joined by ",\n", "\n]\n": the objects are between.
            let objects = array.utf8.dropFirst(2).dropLast(3)
            defer { hasRows = true }
            return (hasRows ? ",\n" : "[\n") + String(decoding: objects, as: UTF8.self)
        }

        /// The text that ends the array, with the final newline (all of it when no row came).
        func end() -> String { hasRows ? "\n]\n" : "[\n\n]\n" }
    }

    /// `show --json`: one object with `position`, the album's fields and what the library stores
    /// of its cover image (`storedCover`: media type, size and hash, absent when none).
    ///
    /// - Parameters:
    ///   - row: The album and its position.
    ///   - cover: What the library stores of its cover image, if anything.
    /// - Returns: The JSON text and a final newline.
    static func showJSON(_ row: Row, cover: CoverSummary? = nil) -> String {
        json(RowJSON(row: row, current: nil, hasStoredCover: cover != nil, storedCover: cover))
    }

    /// `history` as text: step 0 is the start; `>` marks the current step, later steps are undone.
    /// Each step shows its node number, the one `undo --to` takes and `history --tree` shows.
    ///
    /// - Parameters:
    ///   - steps: The steps to show, oldest first (all of them, or the last few).
    ///   - current: The number of steps done (0: all undone): a position on the path.
    ///   - timeZone: The zone times are shown in.
    /// - Returns: The lines; "Start" only when `steps` begins with step 1.
    static func historyText(
        _ steps: [LibrarySession.Step], current: Int, timeZone: TimeZone = .current
    ) -> String {
        let width = String(steps.map(\.node.rawValue).max() ?? 0).count
        func line(_ position: Int, _ node: Int, _ time: String, _ text: String) -> String {
            let mark = position == current ? ">" : " "
            let number = String(repeating: " ", count: width - String(node).count) + String(node)
            let state = position > current ? "  (undone)" : ""
            return "\(mark) \(number)  \(time)  \(text)\(state)\n"
        }
        let blank = String(repeating: " ", count: 19)
        let author = authorColumn(steps.map(\.author))
        var text = steps.first.map { $0.number == 1 } ?? true ? line(0, 0, blank, author(nil) + "Start") : ""
        for step in steps {
            let time = step.time.map { Self.localTime($0, timeZone) } ?? blank
            text += line(step.number, step.node.rawValue, time, author(step.author) + DisplayText.sanitized(step.text))
        }
        return text
    }

    /// The author column of a history listing: each name padded to the longest, then two spaces;
    /// no column at all when no step has an author (a history recorded before authors).
    static func authorColumn(_ authors: [String?]) -> (String?) -> String {
        let names = authors.map { $0.map(DisplayText.sanitized) }
        let width = names.map { $0?.count ?? 0 }.max() ?? 0
        guard width > 0 else { return { _ in "" } }
        return { author in
            let name = author.map(DisplayText.sanitized) ?? ""
            return name + String(repeating: " ", count: width - name.count) + "  "
        }
    }

    /// `2024-05-01 14:03:07`: sortable, the same on every machine's locale.
    static func localTime(_ date: Date, _ timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return
            "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
    }

    /// `history --json`: `{"current": n, "count": m, "revision": r, "steps": [{"index": 1, "step": 1, "text": "...", "time": "2024-05-01T12:03:07Z", "done": true}, ...]}`:
    /// `index` is the position on the path (what `current` counts), `step` the node number
    /// (what `undo --to` takes).
    ///
    /// - Parameters:
    ///   - steps: The steps to show, oldest first.
    ///   - current: The number of steps done.
    ///   - count: The number of steps in the whole history.
    ///   - revision: The history's revision, read with the steps.
    /// - Returns: The JSON text and a final newline.
    static func historyJSON(_ steps: [LibrarySession.Step], current: Int, count: Int, revision: Int) -> String {
        struct Step: Encodable {
            var index: Int
            var step: Int
            var text: String
            var time: String?
            var author: String?
            var done: Bool

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(index, forKey: .index)
                try container.encode(step, forKey: .step)
                try container.encode(text, forKey: .text)
                try container.encode(time, forKey: .time)
                try container.encodeIfPresent(author, forKey: .author)
                try container.encode(done, forKey: .done)
            }

            enum CodingKeys: String, CodingKey { case index, step, text, time, author, done }
        }
        struct History: Encodable {
            var current: Int
            var count: Int
            var revision: Int
            var steps: [Step]
        }
        let history = History(
            current: current,
            count: count,
            revision: revision,
            steps: steps.map {
                Step(
                    index: $0.number, step: $0.node.rawValue, text: $0.text,
                    time: $0.time.map { $0.formatted(.iso8601) }, author: $0.author, done: $0.isDone)
            }
        )
        return json(history)
    }

    /// What a changing command did, for scripts: `{"command": "delete", "step": "Delete “X”",
    /// "id": "…", "title": "X", "position": 1, "revision": 12}`, keys without a value left out.
    ///
    /// - Parameter result: The result.
    /// - Returns: The JSON text and a final newline.
    static func resultJSON(_ result: ChangeResult) -> String {
        json(result)
    }

    /// `info --json`.
    static func infoJSON(_ info: LibraryInfo) -> String {
        json(info)
    }

    private struct RowJSON: Encodable {
        var row: Row
        var current: Bool?
        var hasStoredCover: Bool
        var storedCover: CoverSummary?

        enum CodingKeys: String, CodingKey {
            case position, current, id, title, artist, genre, year, cover, hasStoredCover, storedCover
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
            try container.encode(hasStoredCover, forKey: .hasStoredCover)
            try container.encodeIfPresent(storedCover, forKey: .storedCover)
        }
    }

    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings, numbers, UUIDs and URLs always encode.
        let data = TerminalSafety.escapingUnsafeScalars(in: (try? encoder.encode(value)) ?? Data())
        return String(decoding: data, as: UTF8.self) + "\n"
    }

}

import AlbumLibrary
import Foundation

/// Lays out a ``BrowserState`` as lines of styled text for a terminal of a given size.
///
/// Pure: the same state and size always give the same lines. The curses layer only copies
/// them to the screen. Every album field is passed through ``DisplayText/sanitized(_:)`` and
/// every line is cut to the width, so no album can break the drawing.
enum BrowserScreen: Sendable {
    /// How a piece of text is drawn.
    enum Style: Sendable, Hashable {
        /// Plain.
        case normal
        /// Bold (headings, enabled buttons' keys).
        case bold
        /// Reverse video (the current album).
        case highlight
        /// Dimmed (disabled toolbar buttons).
        case dim
    }

    /// A run of text in one style.
    struct Span: Sendable, Hashable {
        /// The text, free of control characters.
        var text: String
        /// Its style.
        var style: Style

        /// Creates a span.
        ///
        /// - Parameters:
        ///   - text: The text.
        ///   - style: Its style.
        init(_ text: String, _ style: Style = .normal) {
            self.text = text
            self.style = style
        }
    }

    /// One screen line: spans drawn left to right from column 0.
    typealias Line = [Span]

    /// The width of one album box, borders included.
    static let boxWidth = 22

    /// Lays out the screen.
    ///
    /// - Parameters:
    ///   - state: What to show.
    ///   - width: The terminal's width in columns.
    ///   - height: The terminal's height in lines.
    /// - Returns: Exactly `height` lines, none wider than `width` columns.
    static func render(_ state: BrowserState, width: Int, height: Int) -> [Line] {
        guard width > 0, height > 0 else { return [] }
        // The toolbar, keys and status always show: at the bottom, and on a screen too short for
        // everything the body gives way (the details first, then the scroller), never the footer.
        // While the search prompt is open, the status (a match, or none) follows what is typed.
        let message = DisplayText.sanitized(state.status ?? "")
        // So does the move prompt, followed by why the last key was refused.
        let status: Line
        if let search = state.search {
            status =
                [Span(" /", .bold), Span(DisplayText.sanitized(search) + "_")]
                + (message.isEmpty ? [] : [Span("   " + message)])
        } else if let question = state.confirmation {
            status = [Span(" " + DisplayText.sanitized(question) + " ", .bold), Span("y/n_")]
        } else if let prompt = state.movePrompt {
            status =
                [Span(" " + MovePrompt.label(albumCount: state.albumCount) + " ", .bold), Span(prompt.text + "_")]
                + (prompt.problem.map { [Span("   " + DisplayText.sanitized($0))] } ?? [])
        } else {
            status = [Span(" " + message)]
        }
        let footer = [toolbar(state.toolbar, width: width), keysLine(state, width: width), status]
        guard height > footer.count else {
            return footer.prefix(height).map { clip($0, to: width) }
        }
        var lines: [Line] = []
        let count = state.albumCount
        let marks = state.marked.isEmpty ? "" : " · \(state.marked.count) marked"
        lines.append([Span(" albums", .bold), Span(" · \(count) album\(count == 1 ? "" : "s")" + marks)])
        lines.append([])
        if let help = state.help {
            // The help takes the scroller's place too, so every key fits on a 60×20 screen.
            lines += helpLines(help)
        } else {
            lines += scroller(state, width: width)
            lines.append([])
            if let history = state.history {
                lines += historyLines(history, room: height - footer.count - lines.count)
            } else if let form = state.form {
                lines += formLines(form)
            } else {
                lines += details(state.currentAlbum)
            }
        }
        lines = Array(lines.prefix(height - footer.count))
        while lines.count < height - footer.count {
            lines.append([])
        }
        lines += footer
        return lines.map { clip($0, to: width) }
    }

    /// The plain text of lines, for tests and logs.
    ///
    /// - Parameter lines: Rendered lines.
    /// - Returns: One string per line, styles dropped.
    static func plainText(_ lines: [Line]) -> [String] {
        lines.map { $0.map(\.text).joined() }
    }

    // MARK: - Parts

    private static func scroller(_ state: BrowserState, width: Int) -> [Line] {
        let count = state.albumCount
        guard count > 0 else {
            return [[], [Span("   No albums. Press a to add one.")], [], [], []]
        }
        let fit = max(1, (width - 2) / (boxWidth + 1))
        let current = state.clampedIndex
        let first = max(0, min(current - fit / 2, count - fit))
        let visible = first..<min(count, first + fit)
        var rows: [Line] = Array(repeating: [Span(" ")], count: 4)
        let inner = boxWidth - 2
        for index in visible {
            // The controller loads a margin around the current album; should a box still fall
            // outside the window, it is drawn empty rather than guessed.
            let album = state.album(at: index)
            let isCurrent = index == current
            let (topLeft, horizontal, topRight, vertical, bottomLeft, bottomRight) =
                isCurrent ? ("┏", "━", "┓", "┃", "┗", "┛") : ("┌", "─", "┐", "│", "└", "┘")
            let style: Style = isCurrent ? .highlight : .normal
            let bar = String(repeating: horizontal, count: inner)
            // A marked album says so in its top border.
            let top =
                album.map { state.marked.contains($0.id) } == true
                ? Self.markLabel + String(repeating: horizontal, count: inner - Self.markLabel.count) : bar
            rows[0].append(Span(topLeft + top + topRight + " ", isCurrent ? .bold : .normal))
            rows[1] += [Span(vertical), Span(fitted(album?.title ?? "", inner), style), Span(vertical + " ")]
            rows[2] += [Span(vertical), Span(fitted(album?.artist ?? "", inner), style), Span(vertical + " ")]
            rows[3].append(Span(bottomLeft + bar + bottomRight + " ", isCurrent ? .bold : .normal))
        }
        let left = first > 0 ? "◀" : " "
        let right = visible.upperBound < count ? "▶" : " "
        rows.append([Span(" \(left) \(current + 1) of \(count) \(right)")])
        return rows
    }

    /// What a marked album's box shows in its top border.
    static let markLabel = "✓ marked"

    private static func details(_ album: Album?) -> [Line] {
        guard let album else { return [] }
        func row(_ label: String, _ value: String) -> Line {
            [
                Span("   " + label.padding(toLength: 8, withPad: " ", startingAt: 0), .bold),
                Span(DisplayText.sanitized(value)),
            ]
        }
        return [
            row("Artist", album.artist),
            row("Album", album.title),
            row("Genre", album.genre.isEmpty ? "-" : album.genre),
            row("Year", album.year.map(String.init) ?? "-"),
        ]
    }

    private static func formLines(_ form: AddForm) -> [Line] {
        let heading =
            form.markedCount.map { "   Edit \($0) marked albums" }
            ?? form.original.map { "   Edit " + DisplayText.quoted($0.title) } ?? "   Add an album"
        let verb = form.original == nil && form.markedCount == nil ? "add" : "save"
        var lines: [Line] = [[Span(heading, .bold), Span("  (Tab: next field, Enter: \(verb), Esc: cancel)")]]
        if form.markedCount != nil {
            lines.append([Span("   An empty field stays as each album has it.")])
        }
        for field in form.fields {
            let marker = field == form.focus ? ">" : " "
            let label = (field.label + ":").padding(toLength: 8, withPad: " ", startingAt: 0)
            let value = DisplayText.sanitized(form.value(field)) + (field == form.focus ? "_" : "")
            lines.append([Span(" \(marker) \(label)", field == form.focus ? .bold : .normal), Span(value)])
        }
        if let problem = form.problem {
            lines.append([Span("   " + DisplayText.sanitized(problem), .bold)])
        }
        return lines
    }

    /// The toolbar; on a narrow terminal each button keeps only its first word ("Undo"), so
    /// every key stays visible.
    private static func toolbar(_ items: [BrowserState.ToolbarItem], width: Int) -> Line {
        func line(short: Bool) -> Line {
            var line: Line = [Span(" ")]
            for item in items {
                let style: Style = item.isEnabled ? .normal : .dim
                let title = DisplayText.sanitized(item.title)
                line.append(Span("[\(item.key)] ", item.isEnabled ? .bold : .dim))
                line.append(Span(short ? String(title.prefix { $0 != " " }) : title, style))
                line.append(Span(short ? " " : "   "))
            }
            return line
        }
        let full = line(short: false)
        return columns(full.map(\.text).joined()) <= width ? full : line(short: true)
    }

    /// The key hints: the longest form that fits (the last one, at 60 columns, when none does).
    private static func keysLine(_ state: BrowserState, width: Int) -> Line {
        let forms: [String]
        if state.confirmation != nil {
            forms = [" y yes, change them all · n or Esc: no, nothing changes", " y yes · n/Esc no"]
        } else if let form = state.form {
            let verb = form.original == nil && form.markedCount == nil ? "add" : "save"
            forms = [
                " Type to fill the field · Tab/↓ next · ↑ previous · Enter \(verb) · Esc cancel",
                " Tab/↓ next · ↑ prev · Enter \(verb) · Esc cancel",
            ]
        } else if state.history != nil {
            forms = [" ↑/↓ choose a step · Enter jump to it · Esc close", " ↑/↓ choose · Enter jump · Esc close"]
        } else if state.help != nil {
            forms = [" Any key closes the help"]
        } else if state.search != nil {
            forms = [" Type to search · Enter next match · Esc stop", " Enter next · Esc stop"]
        } else if state.movePrompt != nil {
            forms = [" Type the new position (digits) · Enter move · Esc cancel", " Enter move · Esc cancel"]
        } else if !state.marked.isEmpty {
            forms = [
                " space mark/unmark · d delete the marked · e edit the marked · Esc clear the marks · ? help",
                " space mark · d delete · e edit the marked · Esc clear · ? help",
                " space · d e: the marked · Esc clear · ? help",
            ]
        } else {
            // The keys LibraryWindow handles besides the toolbar's (which show their own keys).
            forms = [
                " ←/→ h/l scroll · Home/End g/G first/last · PgUp/PgDn page · / search · e edit · </> m move"
                    + " · H history · ? help",
                " ←/→ h/l · g/G · PgUp/PgDn · / search · e edit · </> m move · H history · ? help",
                " h/l g/G · / find · e edit · </> m move · H history · ? help",
            ]
        }
        return [Span(forms.first { columns($0) <= width } ?? forms[forms.count - 1], .dim)]
    }

    private static func helpLines(_ entries: [BrowserPanels.HelpEntry]) -> [Line] {
        let keyWidth = (entries.map { columns($0.keys) }.max() ?? 0) + 2
        return [[Span("   Keys", .bold)]]
            + entries.map { entry in
                [Span("   " + TerminalColumns.padded(entry.keys, to: keyWidth), .bold), Span(entry.action)]
            }
    }

    /// The history panel: as many steps of the tree as fit around the cursor, `>` marking where the
    /// library is, branches indented under the step they grew from.
    private static func historyLines(_ history: BrowserPanels.History, room: Int) -> [Line] {
        var lines: [Line] = [[Span("   History", .bold)]]
        let total = history.rows.count
        let shown = max(1, room - 1)
        let first = max(0, min(history.selected - shown / 2, total - shown))
        for index in first..<min(total, first + shown) {
            let row = history.rows[index]
            let mark = index == history.current ? ">" : " "
            let indent =
                row.depth == 0
                ? "" : String(repeating: "  ", count: row.depth - 1) + (row.startsBranch ? "└ " : "  ")
            let undone = row.isOnPath && !row.isDone ? "  (undone)" : ""
            lines.append([
                Span(
                    "   \(mark) \(indent)\(row.id)  \(DisplayText.sanitized(row.text))\(undone)",
                    index == history.selected ? .highlight : .normal)
            ])
        }
        return lines
    }

    // MARK: - Text measuring

    /// The columns a string takes on a terminal (wide characters and emoji take two, combining
    /// marks none), as the command line's tables measure it.
    static func columns(_ text: String) -> Int {
        TerminalColumns.width(text)
    }

    /// `text`, sanitized, cut or padded to exactly `width` columns.
    static func fitted(_ text: String, _ width: Int) -> String {
        let clean = DisplayText.sanitized(text)
        var result = ""
        var used = 0
        let total = columns(clean)
        let limit = total > width ? width - 1 : width
        for character in clean {
            let wide = TerminalColumns.width(character)
            if used + wide > limit { break }
            result.append(character)
            used += wide
        }
        if total > width {
            result += "…"
            used += 1
        }
        return result + String(repeating: " ", count: max(0, width - used))
    }

    private static func clip(_ line: Line, to width: Int) -> Line {
        var result: Line = []
        var used = 0
        for span in line {
            let wide = columns(span.text)
            if used + wide <= width {
                result.append(span)
                used += wide
                continue
            }
            var text = ""
            for character in span.text {
                let characterWidth = TerminalColumns.width(character)
                if used + characterWidth > width { break }
                text.append(character)
                used += characterWidth
            }
            if !text.isEmpty { result.append(Span(text, span.style)) }
            break
        }
        return result
    }
}

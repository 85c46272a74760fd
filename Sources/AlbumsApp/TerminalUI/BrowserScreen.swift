import AlbumLibrary
import Foundation

/// Lays out a ``BrowserState`` as lines of styled text for a terminal of a given size.
///
/// Pure: the same state and size always give the same lines. The curses layer only copies
/// them to the screen. Every album field is passed through ``DisplayText/sanitized(_:)`` and
/// every line is cut to the width, so no album can break the drawing.
public enum BrowserScreen: Sendable {
    /// How a piece of text is drawn.
    public enum Style: Sendable, Hashable {
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
    public struct Span: Sendable, Hashable {
        /// The text, free of control characters.
        public var text: String
        /// Its style.
        public var style: Style

        /// Creates a span.
        ///
        /// - Parameters:
        ///   - text: The text.
        ///   - style: Its style.
        public init(_ text: String, _ style: Style = .normal) {
            self.text = text
            self.style = style
        }
    }

    /// One screen line: spans drawn left to right from column 0.
    public typealias Line = [Span]

    /// The width of one album box, borders included.
    public static let boxWidth = 22

    /// Lays out the screen.
    ///
    /// - Parameters:
    ///   - state: What to show.
    ///   - width: The terminal's width in columns.
    ///   - height: The terminal's height in lines.
    /// - Returns: Exactly `height` lines, none wider than `width` columns.
    public static func render(_ state: BrowserState, width: Int, height: Int) -> [Line] {
        guard width > 0, height > 0 else { return [] }
        var lines: [Line] = []
        let count = state.albumCount
        lines.append([Span(" albums", .bold), Span(" · \(count) album\(count == 1 ? "" : "s")")])
        lines.append([])
        lines += scroller(state, width: width)
        lines.append([])
        if let form = state.form {
            lines += formLines(form)
        } else {
            lines += details(state.currentAlbum)
        }
        // The toolbar, keys and status sit at the bottom when there is room, right after otherwise.
        let footer = [
            toolbar(state.toolbar, width: width), keysLine(formOpen: state.form != nil),
            [Span(" " + DisplayText.sanitized(state.status ?? ""))],
        ]
        while lines.count < height - footer.count {
            lines.append([])
        }
        lines += footer
        return lines.prefix(height).map { clip($0, to: width) }
    }

    /// The plain text of lines, for tests and logs.
    ///
    /// - Parameter lines: Rendered lines.
    /// - Returns: One string per line, styles dropped.
    public static func plainText(_ lines: [Line]) -> [String] {
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
            rows[0].append(Span(topLeft + bar + topRight + " ", isCurrent ? .bold : .normal))
            rows[1] += [Span(vertical), Span(fitted(album?.title ?? "", inner), style), Span(vertical + " ")]
            rows[2] += [Span(vertical), Span(fitted(album?.artist ?? "", inner), style), Span(vertical + " ")]
            rows[3].append(Span(bottomLeft + bar + bottomRight + " ", isCurrent ? .bold : .normal))
        }
        let left = first > 0 ? "◀" : " "
        let right = visible.upperBound < count ? "▶" : " "
        rows.append([Span(" \(left) \(current + 1) of \(count) \(right)")])
        return rows
    }

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
        var lines: [Line] = [[Span("   Add an album", .bold), Span("  (Tab: next field, Enter: add, Esc: cancel)")]]
        for field in AddForm.Field.allCases {
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

    private static func keysLine(formOpen: Bool) -> Line {
        if formOpen {
            return [Span(" Type to fill the field · Tab/↓ next · ↑ previous · Enter add · Esc cancel", .dim)]
        }
        return [Span(" ←/→ or h/l scroll · u undo · r redo · d delete · a add · q quit", .dim)]
    }

    // MARK: - Text measuring

    /// The columns a string takes on a terminal (wide East Asian characters take two).
    static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns($1) }
    }

    private static func columns(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F: 0
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            2
        default: 1
        }
    }

    /// `text`, sanitized, cut or padded to exactly `width` columns.
    static func fitted(_ text: String, _ width: Int) -> String {
        let clean = DisplayText.sanitized(text)
        var result = ""
        var used = 0
        let total = columns(clean)
        let limit = total > width ? width - 1 : width
        for character in clean {
            let wide = columns(String(character))
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
                let characterWidth = columns(String(character))
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

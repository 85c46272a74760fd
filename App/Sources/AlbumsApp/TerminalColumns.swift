/// How many terminal columns text takes: wide East Asian characters and emoji take two,
/// combining marks and other zero-width characters none.
///
/// Measured per grapheme (`Character`), so an emoji sequence joined with zero-width joiners, a
/// flag or a letter with combining accents counts once. The CLI's tables and the terminal UI
/// both measure with it.
enum TerminalColumns {
    /// The columns `text` takes.
    ///
    /// - Complexity: O(*n*) in the text's length.
    static func width(_ text: String) -> Int {
        // Printable ASCII, the usual case, without looking up Unicode properties (their tables
        // cost a command-line process page faults).
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        var total = 0
        for character in text { total += width(character) }
        return total
    }

    /// The columns one character takes: 0, 1 or 2.
    static func width(_ character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // An emoji shown as a picture: emoji presentation by default, or asked for with VS16.
        if first.properties.isEmojiPresentation || scalars.contains(where: { $0.value == 0xFE0F }) {
            return 2
        }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if first.value == 0x200B { return 0 }
        return isWide(first) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth W and F, in blocks).
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            true
        default:
            false
        }
    }

    /// `text` cut to at most `limit` columns, with "…" where it was cut.
    static func truncated(_ text: String, to limit: Int) -> String {
        guard width(text) > limit else { return text }
        guard limit > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let wide = width(character)
            if used + wide > limit - 1 { break }
            result.append(character)
            used += wide
        }
        return result + "…"
    }

    /// `text` followed by spaces up to `columns`.
    static func padded(_ text: String, to columns: Int) -> String {
        text + String(repeating: " ", count: max(0, columns - width(text)))
    }
}

/// Makes text from the library safe to print on a terminal.
///
/// Album fields can hold anything an import file carried, including escape sequences that
/// would move the cursor or recolour the screen. Every control character is shown as its
/// visible Unicode "control picture" (ESC becomes ␛, a newline ␊) so it can neither break a
/// line nor drive the terminal.
public enum DisplayText: Sendable {
    /// Returns `text` with every control character replaced by a visible stand-in.
    ///
    /// - Parameter text: Text from the library.
    /// - Returns: Text with no C0, DEL or C1 control characters and no bidirectional overrides.
    /// - Complexity: O(*n*) in the text's length.
    public static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00..<0x20:
                result.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F:
                result.append("\u{2421}")
            case 0x80..<0xA0, 0x202A...0x202E, 0x2066...0x2069:
                result.append("\u{FFFD}")
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Quotes an album title for a message: “Best of Bowie”.
    ///
    /// - Parameter title: The title.
    /// - Returns: The sanitized title between curly quotes.
    public static func quoted(_ title: String) -> String {
        "“\(sanitized(title))”"
    }
}

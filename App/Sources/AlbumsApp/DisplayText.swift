import AlbumLibrary

/// Makes text derived from input safe to print on a terminal: the one sanitizer for standard
/// output's tables, standard error's messages and the terminal UI's drawn text.
///
/// Album fields can hold anything an import file carried, and messages quote paths, arguments and
/// import keys, any of which can hold escape sequences that would move the cursor, recolour the
/// screen or set the window title. Every control character is shown as its visible Unicode
/// "control picture" (ESC becomes ␛, a newline ␊) so it can neither break a line nor drive the
/// terminal; C1 controls and the bidirectional overrides, isolates and marks become U+FFFD.
enum DisplayText: Sendable {
    /// Returns `text` with every control character replaced by a visible stand-in.
    ///
    /// - Parameter text: Text from the library.
    /// - Returns: Text with no C0, DEL or C1 control characters and no bidirectional controls.
    /// - Complexity: O(*n*) in the text's length.
    static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: TerminalSafety.isUnsafe) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00..<0x20:
                result.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F:
                result.append("\u{2421}")
            case _ where TerminalSafety.isUnsafe(scalar):
                result.append("\u{FFFD}")
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Quotes an album title for a message: “Best of Bowie”.
    ///
    /// - Parameter title: The title.
    /// - Returns: The sanitized title between curly quotes.
    static func quoted(_ title: String) -> String {
        "“\(sanitized(title))”"
    }
}

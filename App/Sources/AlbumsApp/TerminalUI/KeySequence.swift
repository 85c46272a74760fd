/// Escape sequences for keys that curses did not decode itself: the terminal description in
/// `TERM` may not list them (tmux sends `ESC [1~` for Home and `ESC [4~` for End, which
/// xterm's description calls Find and Select).
enum KeySequence: Sendable {
    /// The key a sequence stands for.
    ///
    /// - Parameter tail: What followed the escape character ("[1~").
    /// - Returns: The key, or `nil` for a sequence the browser does not use.
    static func key(after tail: String) -> KeyInput? {
        switch tail {
        case "[1~", "[7~", "[H", "OH": .home
        case "[4~", "[8~", "[F", "OF": .end
        case "[5~": .pageUp
        case "[6~": .pageDown
        case "[A", "OA": .up
        case "[B", "OB": .down
        case "[C", "OC": .right
        case "[D", "OD": .left
        default: nil
        }
    }

    /// Whether `tail` may still grow into a sequence (a CSI or SS3 whose final byte has not come).
    ///
    /// - Parameter tail: What followed the escape character so far.
    /// - Returns: `true` while more bytes belong to it.
    static func isIncomplete(_ tail: String) -> Bool {
        guard let first = tail.first else { return true }
        switch first {
        case "[":
            // Parameter bytes (digits, ";") until a final byte (a letter or "~").
            return tail.count < 8 && tail.dropFirst().allSatisfy { $0.isASCII && ($0.isNumber || $0 == ";") }
        case "O":
            return tail.count < 2
        default:
            return false
        }
    }
}

/// A key press, decoded from the terminal into what the browser cares about.
public enum KeyInput: Sendable, Hashable {
    /// ← (or nothing else: `h` arrives as a character, the browser maps it).
    case left
    /// →.
    case right
    /// ↑.
    case up
    /// ↓.
    case down
    /// Return or Enter.
    case enter
    /// Backspace or Delete-left.
    case backspace
    /// Tab.
    case tab
    /// Escape.
    case escape
    /// The terminal changed size.
    case resize
    /// A printable character.
    case character(Character)
}

/// A key press, decoded from the terminal into what the browser cares about.
enum KeyInput: Sendable, Hashable {
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
    /// Home: the first album.
    case home
    /// End: the last album.
    case end
    /// Page Up: a screenful of albums back.
    case pageUp
    /// Page Down: a screenful of albums on.
    case pageDown
    /// The terminal changed size.
    case resize
    /// A printable character.
    case character(Character)
}

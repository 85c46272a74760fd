/// The one-line prompt `m` opens to move the current album to a position: the digits typed so
/// far and why the last key was refused.
///
/// Pure state, like ``AddForm``: it checks only what can be told from the keys (digits, how
/// many). Whether the position is in the library and not where the album already is, is
/// decided by ``AlbumLibrary/LibrarySession/move(_:to:)`` inside its transaction.
struct MovePrompt: Sendable, Hashable {
    /// The most digits a position takes: more than any library holds, and far from `Int`'s limit.
    static let maximumDigits = 9

    /// The digits typed.
    private(set) var text = ""
    /// Why the last key or Enter was refused, if it was.
    var problem: String?

    /// Creates an empty prompt.
    init() {}

    /// The prompt's label for a library of `albumCount` albums: "Move to position (1–5):".
    ///
    /// - Parameter albumCount: The number of albums now.
    /// - Returns: The label.
    static func label(albumCount: Int) -> String {
        "Move to position (1–\(albumCount)):"
    }

    /// Types a character: a digit is appended; anything else is refused with a ``problem``
    /// saying so, rather than dropped without a word.
    ///
    /// - Parameter character: The character typed.
    mutating func type(_ character: Character) {
        guard character.isASCII && character.isNumber else {
            problem = "A position takes digits only"
            return
        }
        guard text.count < Self.maximumDigits else {
            problem = "A position has at most \(Self.maximumDigits) digits"
            return
        }
        text.append(character)
        problem = nil
    }

    /// Deletes the last digit.
    mutating func deleteBackward() {
        guard !text.isEmpty else { return }
        text.removeLast()
        problem = nil
    }

    /// The position typed, or `nil` when nothing is.
    var position: Int? {
        Int(text)
    }
}

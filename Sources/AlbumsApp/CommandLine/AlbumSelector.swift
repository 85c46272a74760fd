public import Foundation

/// How the command line names one album: by position, by id, or by exact title.
///
/// Positions change with every add or delete; an id never changes, and a title is what a person
/// remembers. A word that is a whole number is a position, one that is a UUID an id, any other
/// a title (so an album titled "1999" is named by its id or position).
public enum AlbumSelector: Sendable, Hashable {
    /// A 1-based position, as `albums list` prints it.
    case position(Int)
    /// An album id, as `albums show` and `list --json` print it.
    case id(UUID)
    /// An exact title (case and accents as stored).
    case title(String)

    /// Reads a selector from one command-line word.
    ///
    /// - Parameters:
    ///   - word: The argument.
    ///   - label: Its name in messages ("ALBUM").
    ///   - command: The subcommand, for the message's help pointer.
    /// - Throws: ``UsageError`` for an empty word or a whole number below 1.
    init(parsing word: String, label: String, command: String) throws(UsageError) {
        if let number = Int(word) {
            guard number >= 1 else {
                throw UsageError("\(label) \(number) is not a position (positions start at 1)", command: command)
            }
            self = .position(number)
        } else if let id = UUID(uuidString: word) {
            self = .id(id)
        } else {
            guard !word.isEmpty else {
                throw UsageError("\(label) must be a position, an album id or a title, not empty", command: command)
            }
            self = .title(word)
        }
    }
}

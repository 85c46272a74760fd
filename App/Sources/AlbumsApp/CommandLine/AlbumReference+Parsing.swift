import AlbumLibrary
import Foundation

/// How the command line names one album: a word that is a whole number is a position, one that is
/// a UUID an id, any other a title (so an album titled "1999" is named by its id or
/// position). The session resolves it inside the change's transaction.
extension AlbumReference {
    /// Reads a reference from one command-line word.
    ///
    /// - Parameters:
    ///   - word: The argument.
    ///   - label: Its name in messages ("ALBUM").
    ///   - command: The subcommand, for the usage hint.
    /// - Throws: ``UsageError`` for a position below 1 or an empty word.
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

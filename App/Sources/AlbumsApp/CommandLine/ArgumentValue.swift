import AlbumLibrary
import Foundation

/// Checks for the words a subcommand takes: positions, counts, album fields.
enum ArgumentValue {
    /// A 1-based position.
    static func position(_ word: String, label: String, command: String) throws(UsageError) -> Int {
        guard let value = Int(word) else {
            throw UsageError("\(label) '\(word)' is not a whole number", command: command)
        }
        guard value >= 1 else {
            throw UsageError("\(label) \(value) is not a position (positions start at 1)", command: command)
        }
        return value
    }

    /// A count of at least 1 (undo, redo, history's limit).
    static func count(_ word: String, label: String, command: String) throws(UsageError) -> Int {
        guard let value = Int(word) else {
            throw UsageError("\(label) '\(word)' is not a whole number", command: command)
        }
        guard value >= 1 else {
            throw UsageError("\(label) \(value) must be at least 1", command: command)
        }
        return value
    }

    /// A title, artist or genre, checked as the library checks it.
    static func text(_ word: String, field: String, required: Bool, command: String) throws(UsageError) -> String {
        do {
            return try Album.validatedText(word, field: field, required: required)
        } catch {
            throw UsageError(error.message, command: command)
        }
    }

    /// A release year.
    static func year(_ word: String, command: String) throws(UsageError) -> Int {
        do {
            return try Album.parsedYear(word)
        } catch {
            throw UsageError(error.message, command: command)
        }
    }

    /// A cover location: an absolute URL.
    static func cover(_ word: String, command: String) throws(UsageError) -> URL {
        do {
            return try Album.parsedCoverURL(word)
        } catch {
            throw UsageError(error.message, command: command)
        }
    }
}

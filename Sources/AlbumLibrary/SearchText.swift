import Foundation

/// The text a search matches against: an album's title, artist and genre, folded so that case and
/// accents do not count ("Björk" is found by "bjork", "ÉTÉ" by "été").
///
/// The receiver stores it in the `search_text` column with every write, and the `album_search`
/// full-text index (trigram tokens) is kept from that column by triggers, so a search reads the
/// index instead of every album.
enum SearchText {
    /// `text` without case, accents or width differences.
    ///
    /// - Complexity: O(*n*) in the text's length.
    static func folded(_ text: String) -> String {
        asciiFolded(text)
            ?? text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// `text` folded when it is all ASCII, where folding only lowercases A to Z (no ASCII letter
    /// has an accent or a width form); `nil` otherwise. Foundation's folding goes through
    /// `NSString` and costs a tenth of a bulk edit of 11,000 albums.
    static func asciiFolded(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var hasUppercase = false
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if byte &- 0x41 < 26 { hasUppercase = true }
            }
            guard hasUppercase else { return String(decoding: bytes, as: UTF8.self) }
            return String(unsafeUninitializedCapacity: bytes.count) { buffer in
                for (index, byte) in bytes.enumerated() { buffer[index] = byte &- 0x41 < 26 ? byte | 0x20 : byte }
                return bytes.count
            }
        }
    }

    /// The stored search text of an album: its folded fields, one per line (a query never matches
    /// across two fields).
    static func of(_ album: Album) -> String {
        folded(album.title) + "\n" + folded(album.artist) + "\n" + folded(album.genre)
    }

    /// The full-text query for `text`: one quoted phrase, which the trigram index matches as a
    /// substring. Quotes inside are doubled, so no query syntax reaches FTS5.
    static func phrase(_ folded: String) -> String {
        "\"" + folded.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The trigram index finds substrings of at least this many characters; shorter queries scan.
    static let indexedLength = 3

    /// Whether the index can find `folded`: three characters or more, and no NUL, which ends an
    /// FTS5 query's text early (an unterminated phrase, a syntax error); such text is scanned.
    static func isIndexable(_ folded: String) -> Bool {
        folded.count >= indexedLength && !folded.unicodeScalars.contains("\0")
    }
}

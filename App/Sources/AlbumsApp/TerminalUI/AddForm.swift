import AlbumLibrary
import Foundation

/// The small form the terminal UI shows to add an album, or to edit one: five text fields and a
/// focus; or to edit the marked albums: their genre and year.
///
/// Pure state: key presses edit it, ``album()`` (adding) or ``changes()`` (editing) checks it.
/// Nothing is drawn here.
struct AddForm: Sendable, Hashable {
    /// The form's fields, in the order Tab visits them.
    enum Field: Int, Sendable, Hashable, CaseIterable {
        case title, artist, genre, year, cover

        /// The label shown before the field.
        var label: String {
            switch self {
            case .title: "Title"
            case .artist: "Artist"
            case .genre: "Genre"
            case .year: "Year"
            case .cover: "Cover"
            }
        }
    }

    /// The text typed into each field.
    var values: [Field: String] = [:]
    /// The field that receives typing.
    var focus: Field = .title
    /// Why the last attempt to save failed, if it did.
    var problem: String?

    /// The album being edited, `nil` when the form adds a new one (or edits the marked albums).
    private(set) var original: Album?
    /// How many marked albums the form edits, `nil` when it adds or edits one album.
    private(set) var markedCount: Int?

    /// The fields shown, in the order Tab visits them: all five, or the marked albums' two.
    var fields: [Field] { markedCount == nil ? Field.allCases : [.genre, .year] }

    /// Creates an empty form with the title focused.
    init() {}

    /// Creates a form to edit `album`, its fields filled in, the title focused.
    ///
    /// - Parameter album: The album as it is now.
    init(editing album: Album) {
        original = album
        values = [
            .title: album.title, .artist: album.artist, .genre: album.genre,
            .year: album.year.map(String.init) ?? "", .cover: album.coverURL?.absoluteString ?? "",
        ]
    }

    /// Creates a form to edit the genre and year of `count` marked albums, both empty (an empty
    /// field leaves that field of each album as it is), the genre focused.
    ///
    /// - Parameter count: How many albums are marked.
    init(editingMarked count: Int) {
        markedCount = count
        focus = .genre
    }

    /// The text of one field.
    ///
    /// - Parameter field: The field.
    /// - Returns: Its text, empty when nothing was typed.
    func value(_ field: Field) -> String {
        values[field] ?? ""
    }

    /// Moves the focus to the next field, wrapping around.
    mutating func focusNext() {
        let fields = fields
        focus = fields[((fields.firstIndex(of: focus) ?? 0) + 1) % fields.count]
    }

    /// Moves the focus to the previous field, wrapping around.
    mutating func focusPrevious() {
        let fields = fields
        focus = fields[((fields.firstIndex(of: focus) ?? 0) + fields.count - 1) % fields.count]
    }

    /// Types a character into the focused field.
    ///
    /// The year field keeps whatever is typed, as the other fields do, so it always shows what
    /// Enter would save: a non-digit is not dropped without a word (`20x9` must not become 209),
    /// it stays in the field with a ``problem`` that lasts until the year is a number again, and
    /// Enter refuses it as `albums add --year 20x9` does.
    ///
    /// - Parameter character: The character typed.
    mutating func type(_ character: Character) {
        if value(focus).count < Album.maximumFieldLength {
            values[focus, default: ""].append(character)
        }
        problem = yearProblem
    }

    /// Deletes the last character of the focused field.
    mutating func deleteBackward() {
        if var text = values[focus], !text.isEmpty {
            text.removeLast()
            values[focus] = text
        }
        problem = yearProblem
    }

    /// What is wrong with the year as typed, shown while it lasts; `nil` for a year Enter can save
    /// (or an empty one).
    private var yearProblem: String? {
        let year = value(.year).trimmingCharacters(in: .whitespaces)
        guard year.allSatisfy({ $0.isASCII && $0.isNumber }) else { return "Year takes digits only (1 to 9999)" }
        guard year.count <= 4 else { return "Year has at most four digits" }
        return nil
    }

    /// The album the form describes, checked.
    ///
    /// - Returns: A new album.
    /// - Throws: ``LibraryError`` naming the field at fault (an empty title or artist, a bad year,
    ///   a cover that is not an absolute URL).
    func album() throws(LibraryError) -> Album {
        var album = Album(title: value(.title), artist: value(.artist), genre: value(.genre))
        let year = value(.year).trimmingCharacters(in: .whitespaces)
        if !year.isEmpty {
            album.year = try Album.parsedYear(year)
        }
        let cover = value(.cover).trimmingCharacters(in: .whitespaces)
        if !cover.isEmpty {
            album.coverURL = try Album.parsedCoverURL(cover)
        }
        return try album.validated()
    }

    /// The changes an edit form makes to ``original``: only the fields that differ.
    ///
    /// An emptied year or cover removes it (``AlbumChanges/removesYear``,
    /// ``AlbumChanges/removesCoverURL``); an emptied title or artist is refused.
    ///
    /// - Returns: The changes; empty when every field is as it was.
    /// - Throws: ``LibraryError`` naming the field at fault, as ``album()`` does; `.storage` when
    ///   the form adds.
    func changes() throws(LibraryError) -> AlbumChanges {
        if markedCount != nil { return try markedChanges() }
        guard let original else { throw LibraryError(.storage, "the form adds an album; it edits none") }
        var edited = try album()
        edited.id = original.id
        var changes = AlbumChanges()
        if edited.title != original.title { changes.title = edited.title }
        if edited.artist != original.artist { changes.artist = edited.artist }
        if edited.genre != original.genre { changes.genre = edited.genre }
        if edited.year != original.year {
            changes.year = edited.year
            changes.removesYear = edited.year == nil
        }
        if edited.coverURL != original.coverURL {
            changes.coverURL = edited.coverURL
            changes.removesCoverURL = edited.coverURL == nil
        }
        return changes
    }

    /// A marked-albums form's changes: the genre and the year typed; an empty field changes nothing.
    private func markedChanges() throws(LibraryError) -> AlbumChanges {
        var changes = AlbumChanges()
        let genre = value(.genre).trimmingCharacters(in: .whitespaces)
        if !genre.isEmpty { changes.genre = genre }
        let year = value(.year).trimmingCharacters(in: .whitespaces)
        if !year.isEmpty { changes.year = try Album.parsedYear(year) }
        return changes
    }
}

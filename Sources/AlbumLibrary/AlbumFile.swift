public import Foundation

/// The album exchange format that `albums import` reads and `albums export` writes.
///
/// A file is a JSON array of album objects:
///
/// ```json
/// [
///   {
///     "artist" : "David Bowie",
///     "cover" : "https://example.com/bowie.jpg",
///     "genre" : "Pop",
///     "id" : "3F2504E0-4F89-11D3-9A0C-0305E82C3301",
///     "title" : "Best of Bowie",
///     "year" : 1992
///   }
/// ]
/// ```
///
/// `title` and `artist` are required non-empty strings. `genre` (string), `year` (whole
/// number 1...9999), `cover` (absolute URL) and `id` (UUID) are optional and may be `null`.
/// Any other key is refused, so a misspelt field is reported instead of silently dropped.
/// Export then import round-trips: the same albums, fields and ids.
public enum AlbumFile: Sendable {
    /// The keys an album object may have.
    public static let fields: Set<String> = ["id", "title", "artist", "genre", "year", "cover"]

    /// Reads albums from the exchange format, checking every element and field.
    ///
    /// - Parameter data: The file's bytes.
    /// - Returns: The albums, in file order. Albums without an `id` get a fresh one.
    /// - Throws: ``LibraryError/Code/malformedFile`` with a message naming the element
    ///   (1-based, as positions are) and field at fault; nothing is returned on any error.
    /// - Complexity: O(*n*) in the file's size.
    public static func decode(_ data: Data) throws(LibraryError) -> [Album] {
        // JSONSerialization, not JSONDecoder: a third of the time on large files, and every
        // value's JSON type stays visible, so each error can name what was found.
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw LibraryError(.malformedFile, "not valid JSON: \(reason(error))")
        }
        guard let elements = root as? [Any] else {
            throw LibraryError(.malformedFile, "expected a JSON array of albums")
        }
        var albums: [Album] = []
        albums.reserveCapacity(elements.count)
        var seen: [UUID: Int] = [:]
        for (offset, element) in elements.enumerated() {
            let (album, explicitID) = try decodeAlbum(element, number: offset + 1)
            if let id = explicitID {
                if let first = seen[id] {
                    throw LibraryError(
                        .malformedFile,
                        "album \(offset + 1): field \"id\": \(id.uuidString) repeats album \(first)"
                    )
                }
                seen[id] = offset + 1
            }
            albums.append(album)
        }
        return albums
    }

    /// Writes albums in the exchange format (pretty-printed, keys sorted, every key written, `null`
    /// when empty, as `albums list --json` prints them; ends with a newline).
    ///
    /// - Parameter albums: The albums, in library order.
    /// - Returns: The file's bytes.
    /// - Complexity: O(*n*).
    public static func encode(_ albums: [Album]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings, numbers and URLs cannot fail.
        var data = (try? encoder.encode(albums.map(Record.init))) ?? Data("[]".utf8)
        data.append(0x0A)
        return data
    }

    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let detail = error.userInfo[NSDebugDescriptionErrorKey] as? String {
            return detail
        }
        return error.localizedDescription
    }
}

extension AlbumFile {
    /// One element, checked field by field so each error names its field.
    private static func decodeAlbum(_ element: Any, number: Int) throws(LibraryError) -> (Album, UUID?) {
        func fail(_ field: String?, _ problem: String) -> LibraryError {
            if let field {
                return LibraryError(.malformedFile, "album \(number): field \"\(field)\": \(problem)")
            }
            return LibraryError(.malformedFile, "album \(number): \(problem)")
        }
        guard let object = element as? [String: Any] else {
            throw fail(nil, "expected an object with \"title\" and \"artist\"")
        }
        if object.keys.contains(where: { !fields.contains($0) }) {
            // Sorted only on this error path, so the message is the same on every run.
            let unknown = object.keys.filter { !fields.contains($0) }.sorted()[0]
            throw fail(unknown, "unknown field (known: artist, cover, genre, id, title, year)")
        }
        /// The field's string; `nil` when missing or null.
        func string(_ name: String, required: Bool) throws(LibraryError) -> String? {
            switch object[name] {
            case nil, is NSNull:
                if required { throw fail(name, "missing (it is required)") }
                return nil
            case let value as String:
                return value
            default:
                throw fail(name, "expected a string")
            }
        }
        func checked<T>(_ name: String, _ body: () throws(LibraryError) -> T) throws(LibraryError) -> T {
            do {
                return try body()
            } catch {
                throw fail(name, error.message)
            }
        }

        let title = try string("title", required: true) ?? ""
        let artist = try string("artist", required: true) ?? ""
        let genre = try string("genre", required: false) ?? ""
        var album = Album(
            title: try checked("title") { () throws(LibraryError) in
                try Album.validatedText(title, field: "title", required: true)
            },
            artist: try checked("artist") { () throws(LibraryError) in
                try Album.validatedText(artist, field: "artist", required: true)
            },
            genre: try checked("genre") { () throws(LibraryError) in
                try Album.validatedText(genre, field: "genre", required: false)
            }
        )
        switch object["year"] {
        case nil, is NSNull:
            break
        case let number as NSNumber:
            // Booleans arrive as NSNumber too, with the C type "c"; JSON numbers never do.
            let isBoolean = String(cString: number.objCType) == "c"
            let value = number.doubleValue
            guard !isBoolean, value.rounded() == value, abs(value) < 1e15 else {
                throw fail("year", "expected a whole number")
            }
            let year = Int(value)
            album.year = try checked("year") { () throws(LibraryError) in try Album.validatedYear(year) }
        default:
            throw fail("year", "expected a whole number")
        }
        if let cover = try string("cover", required: false) {
            album.coverURL = try checked("cover") { () throws(LibraryError) in try Album.parsedCoverURL(cover) }
        }
        var explicitID: UUID?
        if let text = try string("id", required: false) {
            guard let id = UUID(uuidString: text) else {
                throw fail("id", "\"\(text)\" is not a UUID")
            }
            album.id = id
            explicitID = id
        }
        return (album, explicitID)
    }
}

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
        let elements: [Element]
        do {
            elements = try JSONDecoder().decode([Element].self, from: data)
        } catch let error as LibraryError {
            throw error
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw LibraryError(.malformedFile, "expected a JSON array of albums")
        } catch DecodingError.dataCorrupted(let context) {
            throw LibraryError(.malformedFile, "not valid JSON: \(reason(context))")
        } catch {
            throw LibraryError(.malformedFile, "not a JSON array of albums: \(error)")
        }
        var seen: [UUID: Int] = [:]
        for (offset, element) in elements.enumerated() {
            guard let id = element.explicitID else { continue }
            if let first = seen[id] {
                throw LibraryError(
                    .malformedFile,
                    "album \(offset + 1): field \"id\": \(id.uuidString) repeats album \(first)"
                )
            }
            seen[id] = offset + 1
        }
        return elements.map(\.album)
    }

    /// Writes albums in the exchange format (pretty-printed, keys sorted, ends with a newline).
    ///
    /// - Parameter albums: The albums, in library order.
    /// - Returns: The file's bytes.
    /// - Complexity: O(*n*).
    public static func encode(_ albums: [Album]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings, numbers and URLs cannot fail.
        var data = (try? encoder.encode(albums)) ?? Data("[]".utf8)
        data.append(0x0A)
        return data
    }

    private static func reason(_ context: DecodingError.Context) -> String {
        if let underlying = context.underlyingError as? NSError,
            let detail = underlying.userInfo[NSDebugDescriptionErrorKey] as? String
        {
            return detail
        }
        return context.debugDescription
    }
}

extension AlbumFile {
    /// Any JSON object key, so unknown keys can be found and named.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            return nil
        }
    }

    /// One element of the array, decoded field by field so each error names its field.
    private struct Element: Decodable {
        var album: Album
        var explicitID: UUID?

        init(from decoder: any Decoder) throws {
            // The unkeyed container's index is the last coding path component.
            let number = (decoder.codingPath.last?.intValue ?? 0) + 1
            func fail(_ field: String?, _ problem: String) -> LibraryError {
                if let field {
                    return LibraryError(.malformedFile, "album \(number): field \"\(field)\": \(problem)")
                }
                return LibraryError(.malformedFile, "album \(number): \(problem)")
            }
            let container: KeyedDecodingContainer<AnyKey>
            do {
                container = try decoder.container(keyedBy: AnyKey.self)
            } catch {
                throw fail(nil, "expected an object with \"title\" and \"artist\"")
            }
            for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue })
            where !AlbumFile.fields.contains(key.stringValue) {
                throw fail(key.stringValue, "unknown field (known: artist, cover, genre, id, title, year)")
            }
            func string(_ name: String, required: Bool) throws -> String? {
                let key = AnyKey(stringValue: name)
                guard container.contains(key), !((try? container.decodeNil(forKey: key)) ?? false) else {
                    if required { throw fail(name, "missing (it is required)") }
                    return nil
                }
                guard let value = try? container.decode(String.self, forKey: key) else {
                    throw fail(name, "expected a string")
                }
                return value
            }
            func checked<T>(_ name: String, _ body: () throws(LibraryError) -> T) throws -> T {
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
            let yearKey = AnyKey(stringValue: "year")
            if container.contains(yearKey), !((try? container.decodeNil(forKey: yearKey)) ?? false) {
                guard let year = try? container.decode(Int.self, forKey: yearKey) else {
                    throw fail("year", "expected a whole number")
                }
                album.year = try checked("year") { () throws(LibraryError) in try Album.validatedYear(year) }
            }
            if let cover = try string("cover", required: false) {
                album.coverURL = try checked("cover") { () throws(LibraryError) in try Album.parsedCoverURL(cover) }
            }
            if let text = try string("id", required: false) {
                guard let id = UUID(uuidString: text) else {
                    throw fail("id", "\"\(text)\" is not a UUID")
                }
                album.id = id
                explicitID = id
            }
            self.album = album
        }
    }
}

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

    /// The largest import file ``decode(_:)`` reads: 128 MiB, about 600,000 albums as
    /// `albums export` writes them.
    ///
    /// Callers check a file's size against it before reading, and read no more than one byte past
    /// it from a stream (`albums import -`), so no input can fill the memory.
    public static let maximumFileSize = 128 << 20

    /// ``maximumFileSize`` for messages: "128 MiB".
    public static var maximumFileSizeText: String { "\(maximumFileSize >> 20) MiB" }

    /// Reads albums from the exchange format, checking every element and field.
    ///
    /// The bytes are read in one pass, each album made as its object closes: memory holds the
    /// albums, about twice the file's size, never a tree of the whole file. A field that appears
    /// twice in one object is refused (JSON leaves that case open; taking either value would hide
    /// a mistake).
    ///
    /// - Parameter data: The file's bytes, at most ``maximumFileSize``.
    /// - Returns: The albums, in file order. Albums without an `id` get a fresh one.
    /// - Throws: ``LibraryError/Code/malformedFile`` with a message naming the element
    ///   (1-based, as positions are) and field at fault, or the line and column of a syntax error;
    ///   nothing is returned on any error.
    /// - Complexity: O(*n*) in the file's size.
    public static func decode(_ data: Data) throws(LibraryError) -> [Album] {
        guard data.count <= maximumFileSize else {
            throw LibraryError(
                .malformedFile,
                "more than \(maximumFileSizeText), the most albums imports from one file; split it into smaller files"
            )
        }
        return try AlbumFileReader.albums(in: data)
    }

    /// Writes albums in the exchange format (pretty-printed, keys sorted, every key written, `null`
    /// when empty, as `albums list --json` prints them; ends with a newline).
    ///
    /// Control characters, DEL, C1 controls and the bidirectional overrides inside fields are
    /// written as `\u` escapes, so a file shown with `cat` can neither drive the terminal nor
    /// reorder what it shows; reading the file back gives the same strings.
    ///
    /// - Parameter albums: The albums, in library order.
    /// - Returns: The file's bytes.
    /// - Complexity: O(*n*).
    public static func encode(_ albums: [Album]) -> Data {
        var writer = Writer()
        return writer.bytes(for: albums) + writer.end()
    }

    /// Writes the exchange format a batch of albums at a time: the bytes ``AlbumFile/encode(_:)``
    /// makes, in pieces, so that a whole library is written in bounded memory.
    ///
    /// ```swift
    /// var writer = AlbumFile.Writer()
    /// try library.forEachAlbum { batch in output.write(writer.bytes(for: batch)) }
    /// output.write(writer.end())
    /// ```
    public struct Writer: Sendable {
        /// Whether an album was written yet.
        private var hasAlbums = false

        /// Creates a writer at the start of a file.
        public init() {}

        /// The bytes for the next albums (the file's opening bracket before the first).
        ///
        /// - Parameter albums: The albums, in library order; none gives no bytes.
        /// - Returns: The bytes to write.
        public mutating func bytes(for albums: [Album]) -> Data {
            guard !albums.isEmpty else { return Data() }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            // Encoding plain strings, numbers and URLs cannot fail. JSONEncoder writes "[\n",
            // the elements joined by ",\n", "\n]": the elements are the bytes between.
            let array = (try? encoder.encode(albums.map(Record.init))) ?? Data("[\n\n]".utf8)
            var data = Data(hasAlbums ? ",\n".utf8 : "[\n".utf8)
            data.append(TerminalSafety.escapingUnsafeScalars(in: array.dropFirst(2).dropLast(2)))
            hasAlbums = true
            return data
        }

        /// The bytes that end the file (the whole file when no album was written: `[`, an empty
        /// line, `]`, as JSONEncoder writes an empty array), with its final newline.
        ///
        /// - Returns: The bytes to write last.
        public func end() -> Data {
            Data((hasAlbums ? "\n]\n" : "[\n\n]\n").utf8)
        }
    }
}

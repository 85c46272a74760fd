public import Foundation

extension Album {
    /// Checks a title, artist or genre and returns it trimmed of surrounding white space.
    ///
    /// - Parameters:
    ///   - value: The text as given.
    ///   - field: The field's name, for the message ("title").
    ///   - required: Whether the field may be empty.
    /// - Returns: The trimmed text.
    /// - Throws: ``LibraryError/Code/invalidValue`` when a required field is empty or any field
    ///   is longer than ``maximumFieldLength``.
    public static func validatedText(_ value: String, field: String, required: Bool) throws(LibraryError) -> String {
        // Fast path for the usual case (imports of many albums): nothing to trim, clearly short.
        if let first = value.unicodeScalars.first, let last = value.unicodeScalars.last,
            !isWhitespace(first), !isWhitespace(last), value.utf8.count <= maximumFieldLength
        {
            return value
        }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if required && trimmed.isEmpty {
            throw LibraryError(.invalidValue, "\(field) must not be empty")
        }
        if trimmed.count > maximumFieldLength {
            throw LibraryError(.invalidValue, "\(field) is longer than \(maximumFieldLength) characters")
        }
        return trimmed
    }

    /// Checks a release year.
    ///
    /// - Parameter year: The year.
    /// - Returns: The year.
    /// - Throws: ``LibraryError/Code/invalidValue`` when outside ``validYears``.
    public static func validatedYear(_ year: Int) throws(LibraryError) -> Int {
        guard validYears.contains(year) else {
            throw LibraryError(
                .invalidValue,
                "year \(year) is out of range (\(validYears.lowerBound)...\(validYears.upperBound))"
            )
        }
        return year
    }

    /// Parses a year written as text ("1992").
    ///
    /// - Parameter text: The text.
    /// - Returns: The year.
    /// - Throws: ``LibraryError/Code/invalidValue`` when the text is not a whole number in ``validYears``.
    public static func parsedYear(_ text: String) throws(LibraryError) -> Int {
        guard let year = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw LibraryError(.invalidValue, "year \"\(text)\" is not a whole number")
        }
        return try validatedYear(year)
    }

    /// Parses a cover location: an absolute URL with a scheme (`https:`, `file:`, ...).
    ///
    /// - Parameter text: The text.
    /// - Returns: The URL.
    /// - Throws: ``LibraryError/Code/invalidValue`` when the text is not an absolute URL or is
    ///   longer than ``maximumCoverURLLength``.
    public static func parsedCoverURL(_ text: String) throws(LibraryError) -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.utf8.count <= maximumCoverURLLength else {
            throw LibraryError(
                .invalidValue,
                "cover \"\(LibraryError.excerpt(of: trimmed))\" is longer than \(maximumCoverURLLength) bytes")
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || isWhitespace($0) }),
            let url = URL(string: trimmed), let scheme = url.scheme, !scheme.isEmpty
        else {
            throw LibraryError(
                .invalidValue,
                "cover \"\(LibraryError.excerpt(of: text))\" is not an absolute URL (like https://example.com/cover.jpg)"
            )
        }
        return url
    }

    /// Whether a scalar is white space, with a quick answer for ASCII (most text).
    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return scalar == " " || (0x09...0x0D).contains(scalar.value)
        }
        return scalar.properties.isWhitespace
    }

    /// Returns this album with every field checked and trimmed.
    ///
    /// - Returns: The album, trimmed.
    /// - Throws: ``LibraryError/Code/invalidValue`` naming the first field at fault.
    public func validated() throws(LibraryError) -> Album {
        var album = self
        album.title = try Album.validatedText(title, field: "title", required: true)
        album.artist = try Album.validatedText(artist, field: "artist", required: true)
        album.genre = try Album.validatedText(genre, field: "genre", required: false)
        if let year {
            album.year = try Album.validatedYear(year)
        }
        return album
    }
}

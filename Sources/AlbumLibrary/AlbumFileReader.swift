import Foundation

/// Reads the album exchange format (see ``AlbumFile``) from its bytes in one pass, making each
/// album as soon as its object closes.
///
/// It replaces `JSONSerialization`, which first built a tree of objects (about 20 times the file's
/// size in memory, and 40 with the conversion to albums) and kept the last of two equal keys
/// without a word. This reader holds only the albums it made, refuses a field given twice, and
/// names the line and column of a syntax error. Everything else follows RFC 8259: UTF-8 text
/// (a leading byte-order mark is skipped), no control characters inside strings, `\u` escapes with
/// paired surrogates, no leading zeros.
struct AlbumFileReader {
    /// The fields an album object may have, in the order their values are checked.
    enum Field: String, CaseIterable {
        case title, artist, genre, year, cover, id
    }

    /// A field's value, as far as an album needs to know it.
    enum Value {
        case string(String)
        case number(Double)
        case boolean
        case null
        /// An object or an array (skipped, after checking its syntax), named for a message.
        case container(String)
    }

    /// The deepest nesting a value inside an album may have (deeper is refused, not recursed into).
    static let maximumDepth = 256

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    /// Explicit ids seen so far, with the album that gave each: an id may appear once per file.
    private var seenIDs: [UUID: Int] = [:]

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The albums in `data`, in file order.
    ///
    /// - Throws: ``LibraryError/Code/malformedFile`` naming the album and field at fault, or the
    ///   line and column of a syntax error.
    /// - Complexity: O(*n*) in the data's size; memory: the albums made, nothing per byte read.
    static func albums(in data: Data) throws(LibraryError) -> [Album] {
        let result: Result<[Album], LibraryError> = data.withUnsafeBytes { raw in
            var reader = AlbumFileReader(bytes: raw.bindMemory(to: UInt8.self))
            do throws(LibraryError) {
                return .success(try reader.readAlbums())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    // MARK: - The array of albums

    private mutating func readAlbums() throws(LibraryError) -> [Album] {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        skipWhitespace()
        guard position < bytes.count else { throw syntaxError("the file is empty") }
        guard bytes[position] == UInt8(ascii: "[") else {
            try skipValue(depth: 0)
            try expectEnd()
            throw LibraryError(.malformedFile, "expected a JSON array of albums")
        }
        position += 1
        var albums: [Album] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
        } else {
            while true {
                let number = albums.count + 1
                skipWhitespace()
                guard peek() == UInt8(ascii: "{") else {
                    try skipValue(depth: 0)
                    throw LibraryError(
                        .malformedFile, "album \(number): expected an object with \"title\" and \"artist\"")
                }
                albums.append(try readAlbum(number: number))
                skipWhitespace()
                switch peek() {
                case UInt8(ascii: ","):
                    position += 1
                    continue
                case UInt8(ascii: "]"):
                    position += 1
                default:
                    throw syntaxError("expected ',' or ']' after album \(number)")
                }
                break
            }
        }
        try expectEnd()
        return albums
    }

    private mutating func expectEnd() throws(LibraryError) {
        skipWhitespace()
        guard position == bytes.count else { throw syntaxError("unexpected text after the end of the array") }
    }

    // MARK: - One album

    private mutating func readAlbum(number: Int) throws(LibraryError) -> Album {
        position += 1  // "{"
        var values = [Value?](repeating: nil, count: Field.allCases.count)
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
        } else {
            while true {
                skipWhitespace()
                guard peek() == UInt8(ascii: "\"") else { throw syntaxError("expected a field name in double quotes") }
                let key = try readString()
                guard let field = Field(rawValue: key) else {
                    throw LibraryError(
                        .malformedFile,
                        "album \(number): field \"\(LibraryError.excerpt(of: key))\": unknown field (known: artist, cover, genre, id, title, year)"
                    )
                }
                let index = Field.allCases.firstIndex(of: field)!
                guard values[index] == nil else {
                    throw LibraryError(
                        .malformedFile, "album \(number): field \"\(key)\" appears twice (a field may appear once)")
                }
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else {
                    throw syntaxError("expected ':' after \"\(LibraryError.excerpt(of: key))\"")
                }
                position += 1
                skipWhitespace()
                values[index] = try readValue()
                skipWhitespace()
                switch peek() {
                case UInt8(ascii: ","):
                    position += 1
                    continue
                case UInt8(ascii: "}"):
                    position += 1
                default:
                    throw syntaxError("expected ',' or '}' in album \(number)")
                }
                break
            }
        }
        let (album, explicitID) = try Self.album(from: values, number: number)
        if let explicitID {
            if let first = seenIDs.updateValue(number, forKey: explicitID) {
                throw LibraryError(
                    .malformedFile, "album \(number): field \"id\": \(explicitID.uuidString) repeats album \(first)")
            }
        }
        return album
    }

    /// Checks an album's values field by field, so each error names its field.
    private static func album(from values: [Value?], number: Int) throws(LibraryError) -> (Album, UUID?) {
        func fail(_ field: Field, _ problem: String) -> LibraryError {
            LibraryError(.malformedFile, "album \(number): field \"\(field.rawValue)\": \(problem)")
        }
        func value(_ field: Field) -> Value? {
            values[Field.allCases.firstIndex(of: field)!]
        }
        /// The field's string; `nil` when missing or null.
        func string(_ field: Field, required: Bool) throws(LibraryError) -> String? {
            switch value(field) {
            case nil, .null?:
                if required { throw fail(field, "missing (it is required)") }
                return nil
            case .string(let text)?:
                return text
            default:
                throw fail(field, "expected a string")
            }
        }
        func checked<T>(_ field: Field, _ body: () throws(LibraryError) -> T) throws(LibraryError) -> T {
            do {
                return try body()
            } catch {
                throw fail(field, error.message)
            }
        }

        let title = try string(.title, required: true) ?? ""
        let artist = try string(.artist, required: true) ?? ""
        let genre = try string(.genre, required: false) ?? ""
        var album = Album(
            title: try checked(.title) { () throws(LibraryError) in
                try Album.validatedText(title, field: "title", required: true)
            },
            artist: try checked(.artist) { () throws(LibraryError) in
                try Album.validatedText(artist, field: "artist", required: true)
            },
            genre: try checked(.genre) { () throws(LibraryError) in
                try Album.validatedText(genre, field: "genre", required: false)
            }
        )
        switch value(.year) {
        case nil, .null?:
            break
        case .number(let number)?:
            guard number.rounded() == number, abs(number) < 1e15 else { throw fail(.year, "expected a whole number") }
            let year = Int(number)
            album.year = try checked(.year) { () throws(LibraryError) in try Album.validatedYear(year) }
        default:
            throw fail(.year, "expected a whole number")
        }
        if let cover = try string(.cover, required: false) {
            album.coverURL = try checked(.cover) { () throws(LibraryError) in try Album.parsedCoverURL(cover) }
        }
        var explicitID: UUID?
        if let text = try string(.id, required: false) {
            guard let id = UUID(uuidString: text) else { throw fail(.id, "\"\(text)\" is not a UUID") }
            album.id = id
            explicitID = id
        }
        return (album, explicitID)
    }

    // MARK: - Values

    private mutating func readValue() throws(LibraryError) -> Value {
        guard let byte = peek() else { throw syntaxError("the file ends where a value should be") }
        switch byte {
        case UInt8(ascii: "\""):
            return .string(try readString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try readNumber())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .boolean
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .boolean
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "{"):
            try skipValue(depth: 0)
            return .container("an object")
        case UInt8(ascii: "["):
            try skipValue(depth: 0)
            return .container("an array")
        default:
            throw syntaxError("expected a value")
        }
    }

    /// Checks the syntax of any value and steps over it.
    private mutating func skipValue(depth: Int) throws(LibraryError) {
        guard depth < Self.maximumDepth else {
            throw syntaxError("values nested more than \(Self.maximumDepth) levels deep")
        }
        let close: UInt8
        switch peek() {
        case UInt8(ascii: "{"): close = UInt8(ascii: "}")
        case UInt8(ascii: "["): close = UInt8(ascii: "]")
        default:
            _ = try readValue()
            return
        }
        position += 1
        skipWhitespace()
        if peek() == close {
            position += 1
            return
        }
        while true {
            skipWhitespace()
            if close == UInt8(ascii: "}") {
                guard peek() == UInt8(ascii: "\"") else { throw syntaxError("expected a field name in double quotes") }
                _ = try readString()
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else { throw syntaxError("expected ':' after a field name") }
                position += 1
                skipWhitespace()
            }
            try skipValue(depth: depth + 1)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                position += 1
            case close:
                position += 1
                return
            default:
                throw syntaxError("expected ',' or '\(Character(Unicode.Scalar(close)))'")
            }
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(LibraryError) {
        let text = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard bytes.count - position >= text.count, bytes[position..<position + text.count].elementsEqual(text) else {
            throw syntaxError("expected a value")
        }
        position += text.count
    }

    private mutating func readNumber() throws(LibraryError) -> Double {
        let start = position
        func digits() -> Int {
            let first = position
            while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
            return position - first
        }
        if peek() == UInt8(ascii: "-") { position += 1 }
        if peek() == UInt8(ascii: "0") {
            position += 1
            if let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                throw syntaxError("a number may not start with 0")
            }
        } else if digits() == 0 {
            throw syntaxError("expected digits in a number")
        }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw syntaxError("expected digits after the decimal point") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw syntaxError("expected digits in an exponent") }
        }
        // The text is JSON number syntax, which Double's parser reads exactly (huge values become ±inf).
        return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
            ?? .nan
    }

    /// A string, its escapes decoded; `position` is at its opening quote.
    private mutating func readString() throws(LibraryError) -> String {
        position += 1
        let start = position
        // Most strings have no escape: made straight from the file's bytes.
        while let byte = peek() {
            if byte == UInt8(ascii: "\"") {
                let text = try string(from: UnsafeBufferPointer(rebasing: bytes[start..<position]))
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            position += 1
        }
        var decoded = Array(bytes[start..<position])
        while true {
            guard let byte = peek() else { throw syntaxError("a string is not closed (the file ends inside it)") }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return try decoded.withUnsafeBufferPointer { buffer throws(LibraryError) in try string(from: buffer) }
            case UInt8(ascii: "\\"):
                position += 1
                try readEscape(into: &decoded)
            case 0..<0x20:
                let hex = String(byte, radix: 16, uppercase: true)
                let code = String(repeating: "0", count: 4 - hex.count) + hex
                throw syntaxError("a control character (U+\(code)) inside a string (write it as \\u\(code))")
            default:
                decoded.append(byte)
                position += 1
            }
        }
    }

    private mutating func readEscape(into decoded: inout [UInt8]) throws(LibraryError) {
        guard let escape = peek() else { throw syntaxError("a string is not closed (the file ends inside it)") }
        position += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var value = try readHex4()
            if (0xD800...0xDBFF).contains(value) {
                guard peek() == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u")
                else { throw syntaxError("a \\u escape holds half of a surrogate pair") }
                position += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw syntaxError("a \\u escape holds half of a surrogate pair")
                }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(value) {
                throw syntaxError("a \\u escape holds half of a surrogate pair")
            }
            decoded.append(contentsOf: UTF8.encode(Unicode.Scalar(value)!)!)
        default:
            throw syntaxError("an unknown escape in a string (\\\(Character(Unicode.Scalar(escape))))")
        }
    }

    private mutating func readHex4() throws(LibraryError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw syntaxError("a \\u escape needs four hexadecimal digits") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntaxError("a \\u escape needs four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private func string(from buffer: UnsafeBufferPointer<UInt8>) throws(LibraryError) -> String {
        guard let text = String(validating: buffer, as: UTF8.self) else {
            throw syntaxError("a string is not valid UTF-8")
        }
        return text
    }

    // MARK: - Bytes

    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = peek(),
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\t")
        {
            position += 1
        }
    }

    /// A syntax error at the current position: "not valid JSON: … at line 3, column 14".
    private func syntaxError(_ problem: String) -> LibraryError {
        let before = UnsafeBufferPointer(rebasing: bytes[..<min(position, bytes.count)])
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let column = String(decoding: UnsafeBufferPointer(rebasing: before[lineStart...]), as: UTF8.self).count + 1
        return LibraryError(.malformedFile, "not valid JSON: \(problem) at line \(line), column \(column)")
    }
}

import AlbumLibrary
import Foundation

/// A line per album for `albums list --format '$artist – $title ($year)'`.
///
/// `$name` (or `${name}` when letters follow) stands for a field: position, title, artist, genre,
/// year, id, cover or current (`*` for the current album, else empty); a missing year or cover is
/// empty. `$$` is one `$`. Any other `$` is refused when parsed, so a typo never prints as text.
public struct ListTemplate: Sendable, Hashable {
    /// The fields a template can name.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case position, title, artist, genre, year, id, cover, current
    }

    private enum Part: Sendable, Hashable {
        case text(String)
        case field(Field)
    }

    private var parts: [Part]

    /// Parses a template.
    ///
    /// - Parameter text: The template.
    /// - Throws: A message naming the unknown field or the stray `$`.
    public init(parsing text: String) throws(UsageError) {
        parts = []
        var literal = ""
        var scalars = text.unicodeScalars[...]
        let names = Field.allCases.map(\.rawValue).joined(separator: ", ")
        while let scalar = scalars.popFirst() {
            guard scalar == "$" else {
                literal.unicodeScalars.append(scalar)
                continue
            }
            if scalars.first == "$" {
                scalars.removeFirst()
                literal.append("$")
                continue
            }
            var name = ""
            if scalars.first == "{" {
                scalars.removeFirst()
                guard let close = scalars.firstIndex(of: "}") else {
                    throw UsageError("--format: '${' without its '}'", command: "list")
                }
                name = String(String.UnicodeScalarView(scalars[..<close]))
                scalars = scalars[scalars.index(after: close)...]
            } else {
                while let next = scalars.first, next.isASCII, next.properties.isAlphabetic {
                    name.unicodeScalars.append(next)
                    scalars.removeFirst()
                }
            }
            guard !name.isEmpty else {
                throw UsageError("--format: a '$' must name a field (\(names)) or be written $$", command: "list")
            }
            guard let field = Field(rawValue: name) else {
                throw UsageError(
                    "--format: unknown field '$\(LibraryError.excerpt(of: name))' (known: \(names))", command: "list")
            }
            if !literal.isEmpty { parts.append(.text(literal)) }
            literal = ""
            parts.append(.field(field))
        }
        if !literal.isEmpty { parts.append(.text(literal)) }
    }

    /// The album's line, without its line break, every value made safe for a terminal.
    func line(for album: Album, position: Int, isCurrent: Bool) -> String {
        var line = ""
        for part in parts {
            switch part {
            case .text(let text): line += DisplayText.sanitized(text)
            case .field(let field): line += DisplayText.sanitized(Self.value(field, album, position, isCurrent))
            }
        }
        return line
    }

    private static func value(_ field: Field, _ album: Album, _ position: Int, _ isCurrent: Bool) -> String {
        switch field {
        case .position: String(position)
        case .title: album.title
        case .artist: album.artist
        case .genre: album.genre
        case .year: album.year.map(String.init) ?? ""
        case .id: album.id.uuidString
        case .cover: album.coverURL?.absoluteString ?? ""
        case .current: isCurrent ? "*" : ""
        }
    }
}

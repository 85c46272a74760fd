extension AlbumQuery {
    /// A query's structure: terms combined with and, or and not.
    public indirect enum Expression: Sendable, Hashable, CustomStringConvertible {
        /// One term.
        case term(Term)
        /// The albums the expression does not match (`-term`, `^term`).
        case not(Expression)
        /// The albums every expression matches (terms side by side).
        case all([Expression])
        /// The albums any expression matches (`,` or `OR` between them).
        case any([Expression])

        /// The expression in the query language.
        public var description: String {
            switch self {
            case .term(let term): term.description
            case .not(let expression): "-" + expression.description
            case .all(let expressions): expressions.map(\.description).joined(separator: " ")
            case .any(let expressions): expressions.map(\.description).joined(separator: " , ")
            }
        }

        /// The number of terms in the expression.
        var termCount: Int {
            switch self {
            case .term: 1
            case .not(let expression): expression.termCount
            case .all(let expressions), .any(let expressions): expressions.reduce(0) { $0 + $1.termCount }
            }
        }
    }

    /// The fields a term can name (`artist:`).
    public enum Field: String, Sendable, Hashable, CaseIterable {
        /// The album's title.
        case title
        /// The performing artist.
        case artist
        /// The genre.
        case genre
        /// The release year.
        case year
        /// The album's id, as `albums show` prints it.
        case id
    }

    /// One condition on an album.
    public enum Term: Sendable, Hashable, CustomStringConvertible {
        /// The title, artist or genre contains the text, ignoring case, accents and width.
        case words(String)
        /// The title, artist or genre (the field given) contains the text, ignoring case, accents
        /// and width.
        case text(Field, String)
        /// The year lies in the range, ends included; `nil` leaves an end open.
        case years(from: Int?, through: Int?)
        /// The id starts with these hexadecimal digits (and dashes), in either case.
        case idPrefix(String)
        /// The field's text (the year's digits, the id's canonical form) matches the regular
        /// expression somewhere.
        case pattern(Field, String)

        /// The term in the query language.
        public var description: String {
            switch self {
            case .words(let text): Self.quotedIfNeeded(text, bare: true)
            case .text(let field, let text): field.rawValue + ":" + Self.quotedIfNeeded(text, bare: false)
            case .years(let from, let through):
                if let from, let through, from == through {
                    "year:\(from)"
                } else {
                    "year:\(from.map(String.init) ?? "")..\(through.map(String.init) ?? "")"
                }
            case .idPrefix(let prefix): "id:" + prefix
            case .pattern(let field, let pattern): field.rawValue + "::" + Self.quotedIfNeeded(pattern, bare: false)
            }
        }

        /// `text` as a word the parser reads back as `text`: quoted when it holds white space,
        /// quotes, backslashes, is empty, or (bare) could read as syntax.
        private static func quotedIfNeeded(_ text: String, bare: Bool) -> String {
            // Scalars, as the parser reads them: a combining accent must not hide a quote or a dash.
            let scalars = text.unicodeScalars
            let special = scalars.isEmpty || scalars.contains { $0.properties.isWhitespace || $0 == "\"" || $0 == "\\" }
            let syntax =
                bare
                ? text == "," || text == "OR" || scalars.first == "-" || scalars.first == "^" || scalars.contains(":")
                : scalars.first == ":"
            guard special || syntax else { return text }
            var quoted = String.UnicodeScalarView()
            quoted.append("\"")
            for scalar in scalars {
                if scalar == "\"" || scalar == "\\" { quoted.append("\\") }
                quoted.append(scalar)
            }
            quoted.append("\"")
            return String(quoted)
        }
    }
}

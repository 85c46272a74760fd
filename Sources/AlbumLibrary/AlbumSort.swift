import Foundation

/// An order of several keys, each ascending or descending: what `albums list --sort year-,title+`
/// asks for.
///
/// Albums equal on every key keep library order. Titles and artists compare ignoring case;
/// albums without a year go last in either direction.
///
/// ```swift
/// let sort = try AlbumSort(parsing: "year-,title")  // newest first, then by title
/// try library.forEachAlbum(matching: nil, sort: sort) { rows in … }
/// ```
public struct AlbumSort: Sendable, Hashable, CustomStringConvertible {
    /// One key of a sort.
    public struct Key: Sendable, Hashable {
        /// What the key compares.
        public var order: AlbumOrder
        /// Whether larger values come first.
        public var descending: Bool

        /// Creates a key.
        ///
        /// - Parameters:
        ///   - order: What the key compares.
        ///   - descending: Whether larger values come first.
        public init(_ order: AlbumOrder, descending: Bool = false) {
            self.order = order
            self.descending = descending
        }
    }

    /// The keys, the first deciding first.
    public var keys: [Key]

    /// Creates a sort of keys.
    ///
    /// - Parameter keys: The keys, the first deciding first; none is library order.
    public init(_ keys: [Key]) {
        self.keys = keys
    }

    /// Creates a sort of one ascending key.
    ///
    /// - Parameter order: The key.
    public init(_ order: AlbumOrder) {
        self.keys = [Key(order)]
    }

    /// Library order.
    public static let position = AlbumSort(.position)
    /// By title.
    public static let title = AlbumSort(.title)
    /// By artist.
    public static let artist = AlbumSort(.artist)
    /// By year, oldest first.
    public static let year = AlbumSort(.year)

    /// Parses keys separated by commas, each a key name (``AlbumOrder``'s) followed by `+`
    /// (ascending, the default) or `-` (descending): `year-,title+`, `artist`.
    ///
    /// - Parameter text: The sort.
    /// - Throws: ``LibraryError/Code/invalidValue`` for an unknown key, a key given twice, or an
    ///   empty key.
    public init(parsing text: String) throws(LibraryError) {
        var keys: [Key] = []
        let names = AlbumOrder.allCases.map(\.rawValue).joined(separator: ", ")
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            var name = part.trimmingCharacters(in: .whitespaces)
            var descending = false
            if let last = name.last, last == "+" || last == "-" {
                descending = last == "-"
                name = String(name.dropLast()).trimmingCharacters(in: .whitespaces)
            }
            guard let order = AlbumOrder(rawValue: name) else {
                let shown = LibraryError.excerpt(of: String(part))
                throw LibraryError(
                    .invalidValue,
                    name.isEmpty
                        ? "an empty sort key in '\(LibraryError.excerpt(of: text))' (known: \(names))"
                        : "unknown sort key '\(shown)' (known: \(names))")
            }
            guard !keys.contains(where: { $0.order == order }) else {
                throw LibraryError(.invalidValue, "sort key '\(order.rawValue)' given twice")
            }
            keys.append(Key(order, descending: descending))
        }
        self.keys = keys
    }

    /// The sort as `--sort` takes it: `year-,title+`.
    public var description: String {
        keys.map { $0.order.rawValue + ($0.descending ? "-" : "+") }.joined(separator: ",")
    }
}

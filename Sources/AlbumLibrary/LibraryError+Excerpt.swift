extension LibraryError {
    /// A value as a message may quote it: whole when short, otherwise its start, "…" and its
    /// length, so that a megabyte import key or argument never becomes a megabyte message.
    ///
    /// - Parameters:
    ///   - value: The value (a key, a title, an argument).
    ///   - limit: The most characters kept.
    /// - Returns: `value`, or e.g. `kkkk… (1000000 characters)`.
    public static func excerpt(of value: String, limit: Int = 64) -> String {
        guard value.count > limit else { return value }
        return "\(value.prefix(limit))… (\(value.count) characters)"
    }
}

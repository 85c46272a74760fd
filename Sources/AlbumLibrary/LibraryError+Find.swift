extension LibraryError.Code {
    /// No album has the id or title a command named.
    public static let albumNotFound = LibraryError.Code(rawValue: "album-not-found")
    /// A title names several albums; the command needs one.
    public static let ambiguousTitle = LibraryError.Code(rawValue: "ambiguous-title")
    /// The change would leave the library as it is (a move to the same position, an edit to the
    /// same values); it is refused, so the history records only real changes.
    public static let nothingToChange = LibraryError.Code(rawValue: "nothing-to-change")
}

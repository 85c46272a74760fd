/// What `albums info` reports about a library.
struct LibraryInfo: Encodable {
    /// The library file.
    var path: String
    /// The number of albums.
    var albums: Int
    /// The number of steps in the history.
    var historySteps: Int
    /// How many of them are done (the rest can be redone).
    var done: Int
}

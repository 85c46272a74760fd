/// Who made each step: a durable history shared by several people records, with every step, the
/// name its process gave (CommandStore format 7).
extension DurableHistory {
    /// The author recorded with every step this history records from now on (each step's
    /// ``HistoryRecord/author``), or `nil` to record none.
    ///
    /// An opaque, user-visible name chosen by the application (a login name, a browser session's
    /// name); the history neither checks nor interprets it. A merge keeps the author of the step
    /// merged into, as it keeps its identity and time, and a parked branch keeps its authors.
    ///
    /// ```swift
    /// history.author = "ada@studio"
    /// try history.push(Rename(to: "Blue Train"))
    /// history.undoRecord?.author  // "ada@studio"
    /// ```
    public var author: String? {
        get { storage.author }
        set { storage.author = newValue }
    }
}

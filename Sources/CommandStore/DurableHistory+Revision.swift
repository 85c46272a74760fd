extension DurableHistory {
    /// The history's revision: a number that each committed write transaction changing the
    /// history raises by one, whichever connection or process commits it.
    ///
    /// After a call that changed the history (a ``push(_:)``, an ``undo()``, a ``redo()``, an
    /// outermost ``endMacro()``, …) it is the revision that call committed; otherwise it is the
    /// revision of the state last read (at open, by ``refresh()`` or at the start of a call). So
    /// two calls that each changed the history, in this process or any other, have different
    /// revisions, and the larger one committed later: a tool can put the changes of several
    /// processes in the order the file records them. A call that changes nothing (an undo with
    /// nothing to undo, a push that throws) commits no revision. Inside a transaction of the
    /// caller's, each call takes its own revision, and a rollback takes them back (call
    /// ``reload()`` then); while a macro is open the revision stays the one before it, and the
    /// whole macro commits one.
    ///
    /// ```swift
    /// try history.push(DeleteAlbum(albumID: 7))
    /// let deleted = history.revision            // say 41
    /// // … another process undoes it: its history's revision is then 42
    /// ```
    ///
    /// Files of an earlier format start at 0 when they are migrated.
    ///
    /// - Complexity: O(1): a push at the top raises it without writing the history's header.
    public var revision: Int { storage.revision }
}

/// The reads a change makes first, known before its transaction begins: a server library sends
/// them with the history's lock, in the round trip that opens the transaction (a library file has
/// no round trip to save). What they return is used only inside that transaction, so every
/// decision is still made from what is committed once the lock is held.
enum ChangeReads {
    /// A change of the album `reference` names; for a move, to `target`.
    case changing(AlbumReference, movingTo: Int? = nil)
    /// An add of `album` at `position` (`nil`: the end).
    case adding(Album, at: Int?)
}

extension LibraryAPI {
    /// Sends `reads` with the next transaction's opening on a server library (`nil`: none).
    func readAhead(_ reads: ChangeReads?) {
        #if PostgreSQL
        server?.readAhead(reads.map(Self.statements(of:)) ?? [])
        #endif
    }

    /// Sends a server library's deferred writes now (`PostgreSQLConnection.sendLater`); on a file,
    /// every write has run already.
    func sendDeferredWrites() throws {
        #if PostgreSQL
        try server?.sendDeferredWrites()
        #endif
    }
}

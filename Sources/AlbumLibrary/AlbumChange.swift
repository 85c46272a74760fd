/// A change to one album as it ran: the command, and the album its reference named, both read
/// in the transaction that made the change.
///
/// What a program reports about a change comes from here, never from a read made before it.
public struct AlbumChange<Command: Sendable>: Sendable {
    /// The command as it ran and was recorded.
    public let command: Command
    /// The album the reference named, as it was when the change began.
    public let album: Album
    /// Its 1-based position then.
    public let position: Int
}

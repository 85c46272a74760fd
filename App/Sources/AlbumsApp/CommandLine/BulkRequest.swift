public import AlbumLibrary

/// A change to several albums, as the command line asked for it.
public struct BulkRequest: Sendable, Hashable {
    /// The albums.
    public var selection: AlbumSelection
    /// What to do to them.
    public var action: BulkChangeCommand.Action
    /// `--yes`: no question asked.
    public var yes: Bool
    /// `--dry-run`: print what would change, change nothing.
    public var dryRun: Bool
}

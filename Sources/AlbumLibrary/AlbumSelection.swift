/// The albums a bulk change names: several references (`albums delete 3 4 7`) or a query
/// (`albums delete genre:pop year:..1970`), resolved inside the change's write transaction.
public enum AlbumSelection: Sendable, Hashable {
    /// Each reference names one album (refused as a single change would be), none twice.
    case albums([AlbumReference])
    /// The albums that match the query then; none is refused.
    case matching(AlbumQuery)
}

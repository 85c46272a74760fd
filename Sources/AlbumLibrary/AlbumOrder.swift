/// The orders `albums list --sort` offers.
///
/// Every order but ``position`` breaks ties by position, so a listing is the same on every run.
/// Titles and artists compare ignoring ASCII case ("abba" next to "ABBA").
public enum AlbumOrder: String, CaseIterable, Sendable, Hashable {
    /// Library order: position 1 first.
    case position
    /// By title.
    case title
    /// By artist.
    case artist
    /// By release year, oldest first; albums without a year last.
    case year
}

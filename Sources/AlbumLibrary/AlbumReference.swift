public import Foundation

/// How a change names its album: by position, id or title, resolved inside the change's
/// write transaction from what is committed then.
///
/// ``LibrarySession``'s changes take a reference, never a position looked up beforehand: between
/// a lookup and the change another process may commit, and a position read then names another
/// album by the time the change runs (four processes deleting “the album titled X” once deleted
/// four different albums). A reference is the caller's words, not a lookup's result; the session
/// resolves it in the transaction that makes the change, and reports the album it found
/// (``AlbumChange``).
///
/// ```swift
/// let change = try session.delete(.title("Low"))
/// print(change.album.title, change.position)   // what was deleted, and where it was
/// ```
public enum AlbumReference: Sendable, Hashable {
    /// The album at this 1-based position when the change runs.
    case position(Int)
    /// The album with this id, wherever it is when the change runs.
    case id(UUID)
    /// The one album with exactly this title when the change runs or, when no album has it, the
    /// one whose title matches it with case and accents aside ("blue train" names “Blue Train”).
    /// Several such albums are refused (``LibraryError/Code/ambiguousTitle``), so a change never
    /// picks one; none is refused with the nearest titles (``LibraryError/Code/albumNotFound``).
    case title(String)
}

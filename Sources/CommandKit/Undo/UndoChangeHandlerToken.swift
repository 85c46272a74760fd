/// Names a change handler added to a history, so it can be removed.
///
/// Returned by ``UndoHistory/addChangeHandler(_:)``; pass it to
/// ``UndoHistory/removeChangeHandler(_:)``. A token only removes the handler it was returned for,
/// on the history that returned it.
public struct UndoChangeHandlerToken: Hashable, Sendable {
    /// The observers that issued the token.
    let owner: ObjectIdentifier
    /// The handler's number among them.
    let id: Int
}

/// A request wrapped as an object whose work may suspend: one action, one `execute()`.
///
/// `AsyncCommand` is the general form of the Command pattern's *Command* role. Its single
/// requirement, ``execute()``, runs the action; it may suspend (network, disk, another actor) and
/// may throw. Synchronous commands conform to ``Command``, which refines this protocol, so an
/// ``Invoker`` or an ``AsyncCompositeCommand`` runs both kinds side by side.
///
/// ```swift
/// struct FetchCovers: AsyncCommand {
///     let client: CoverClient
///     func execute() async throws { try await client.fetchMissingCovers() }
/// }
/// ```
///
/// The protocol does not require `Sendable`: ``execute()`` runs in its caller's isolation domain,
/// so a command may hold non-`Sendable` receivers. A ``CommandQueue``, which runs commands in a
/// domain of its own, asks for `Sendable` commands.
public protocol AsyncCommand {
    /// Performs the command's action.
    ///
    /// - Throws: Whatever the action throws; the command did not complete.
    func execute() async throws
}

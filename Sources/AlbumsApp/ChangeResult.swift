public import Foundation

/// What one changing command did, as `--json` prints it for scripts.
public struct ChangeResult: Encodable, Sendable, Hashable {
    /// The subcommand ("delete").
    public var command: String
    /// The step done, as the history names it (every command but `undo` and `redo`).
    public var step: String?
    /// The steps undone or redone, most recent first for `undo`, oldest first for `redo`.
    public var steps: [String]?
    /// The album's id, when the change concerns one album.
    public var id: UUID?
    /// The album's position after the change (before it, for a delete).
    public var position: Int?
    /// How many albums an import or replace brought in.
    public var count: Int?

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - command: The subcommand.
    ///   - step: The history text of the step done.
    ///   - steps: The history texts of the steps undone or redone.
    ///   - id: The album's id.
    ///   - position: The album's position.
    ///   - count: How many albums.
    public init(
        command: String, step: String? = nil, steps: [String]? = nil, id: UUID? = nil, position: Int? = nil,
        count: Int? = nil
    ) {
        self.command = command
        self.step = step
        self.steps = steps
        self.id = id
        self.position = position
        self.count = count
    }
}

import Foundation

/// What one changing command did, as `--json` prints it for scripts.
struct ChangeResult: Encodable, Sendable, Hashable {
    /// The subcommand ("delete").
    var command: String
    /// The step done, as the history names it (every command but `undo` and `redo`).
    var step: String?
    /// The steps undone or redone, most recent first for `undo`, oldest first for `redo`.
    var steps: [String]?
    /// The album's id, when the change concerns one album.
    var id: UUID?
    /// The album's position after the change (before it, for a delete).
    var position: Int?
    /// How many albums an import or replace brought in.
    var count: Int?

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - command: The subcommand.
    ///   - step: The history text of the step done.
    ///   - steps: The history texts of the steps undone or redone.
    ///   - id: The album's id.
    ///   - position: The album's position.
    ///   - count: How many albums.
    init(
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

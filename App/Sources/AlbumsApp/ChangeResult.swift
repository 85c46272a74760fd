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
    /// The album's title as the change found it (as it left it, for an edit), when the change
    /// concerns one album.
    var title: String?
    /// The album's position after the change (before it, for a delete).
    var position: Int?
    /// How many albums an import or replace brought in.
    var count: Int?
    /// How many albums of the file an import skipped as duplicates (`import` without `--replace`).
    var skipped: Int?
    /// The history revision the change committed (`DurableHistory.revision`): every change of the
    /// library, from any process, takes the next one, so results can be put in commit order.
    var revision: Int?
    /// Who made the change (`--author`, `ALBUMS_AUTHOR` or login@host), as the history records it.
    var author: String?

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - command: The subcommand.
    ///   - step: The history text of the step done.
    ///   - steps: The history texts of the steps undone or redone.
    ///   - id: The album's id.
    ///   - title: The album's title.
    ///   - position: The album's position.
    ///   - count: How many albums.
    ///   - skipped: How many duplicates an import skipped.
    init(
        command: String, step: String? = nil, steps: [String]? = nil, id: UUID? = nil, title: String? = nil,
        position: Int? = nil, count: Int? = nil, skipped: Int? = nil
    ) {
        self.command = command
        self.step = step
        self.steps = steps
        self.id = id
        self.title = title
        self.position = position
        self.count = count
        self.skipped = skipped
    }
}

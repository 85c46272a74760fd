/// The overlays the terminal UI can show over the album details: the key help, the history
/// panel, and the search prompt. Plain values the controller fills; ``BrowserScreen`` draws them.
enum BrowserPanels: Sendable {
    /// One line of the `?` help: the keys and what they do.
    struct HelpEntry: Sendable, Hashable {
        /// The keys, as shown ("Home g").
        var keys: String
        /// What they do.
        var action: String

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - keys: The keys, as shown.
        ///   - action: What they do.
        init(_ keys: String, _ action: String) {
            self.keys = keys
            self.action = action
        }
    }

    /// The history panel: each step, the current position, and the step the cursor is on.
    struct History: Sendable, Hashable {
        /// One line of the panel: a step of the history's tree (0, the start, first).
        struct Row: Sendable, Hashable {
            /// The step's number, 0 for the start.
            var id: Int
            /// Its text ("Start" for the start).
            var text: String
            /// How far in its branch is (0: the line of the current path).
            var depth: Int
            /// Whether the row starts a branch (drawn with a corner).
            var startsBranch: Bool
            /// Whether the step is on the current path.
            var isOnPath: Bool
            /// Whether it is done (on the path from the start to the current step).
            var isDone: Bool
        }

        /// The tree, depth first (``HistoryTreeLayout``).
        var rows: [Row]
        /// The row of the current step.
        var current: Int
        /// The row the cursor is on; Enter jumps there.
        var selected: Int

        /// Creates a panel with the cursor on the current step.
        init(rows: [Row], current: Int) {
            self.rows = rows
            self.current = current
            self.selected = current
        }

        /// The current step's number, as the panel read it: a jump expects it still current.
        var currentStep: Int { rows[current].id }

        /// Moves the cursor by `offset` rows, within the first and the last.
        mutating func moveSelection(by offset: Int) {
            selected = max(0, min(rows.count - 1, selected + offset))
        }
    }
}

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
        /// Each step's text, oldest first (step 1 first).
        var steps: [String]
        /// How many steps are done (0: everything undone).
        var current: Int
        /// The step the cursor is on, 0 (the start) to `steps.count`; Enter jumps there.
        var selected: Int

        /// Creates a panel with the cursor on the current step.
        ///
        /// - Parameters:
        ///   - steps: Each step's text, oldest first.
        ///   - current: How many steps are done.
        init(steps: [String], current: Int) {
            self.steps = steps
            self.current = current
            self.selected = current
        }

        /// Moves the cursor by `offset` steps, within the start and the last step.
        mutating func moveSelection(by offset: Int) {
            selected = max(0, min(steps.count, selected + offset))
        }
    }
}

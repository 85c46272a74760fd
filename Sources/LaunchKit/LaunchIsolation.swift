/// Where a launch command's work runs.
public enum LaunchIsolation: String, Hashable, Sendable, CaseIterable {
    /// Off the main actor, in parallel with other ready commands (the default).
    case concurrent
    /// On the main actor: the invoker calls ``AppCommand/execute(in:)`` from the main actor.
    ///
    /// Keep such commands short: time they spend counts as main-actor busy time in the report.
    case mainActor
}

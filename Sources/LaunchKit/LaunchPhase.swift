/// When a launch command runs relative to the app's readiness.
public enum LaunchPhase: String, Hashable, Sendable, CaseIterable {
    /// Needed before the app is ready: readiness waits for every such command.
    case beforeReady
    /// Starts only once the app is ready, and never delays readiness (warming caches, syncing).
    ///
    /// A deferred command may depend on a `beforeReady` command, never the other way round.
    case deferred
}

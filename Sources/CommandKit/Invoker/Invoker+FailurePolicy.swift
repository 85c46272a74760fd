extension Invoker {
    /// What a failing command does to the commands after it.
    public enum FailurePolicy: Hashable, Sendable {
        /// The first failure stops the run; the remaining commands are skipped.
        case stopAtFirstFailure
        /// A failure is recorded and the remaining commands still run.
        case continueAfterFailure
    }
}

extension Invoker {
    /// What happened to each command of an ``Invoker/run()``.
    ///
    /// ```swift
    /// let report = await invoker.run()
    /// if !report.isSuccess {
    ///     for failure in report.failed { print("\(failure.name) failed: \(failure.error)") }
    ///     print("skipped:", report.skipped.map(\.name))
    /// }
    /// ```
    public struct Report: Sendable, CustomStringConvertible {
        /// One command's fate in a run.
        public enum Outcome: Sendable {
            /// The command ran and returned.
            case succeeded
            /// The command ran and threw this error.
            case failed(any Error)
            /// The command did not run: an earlier one failed, or the run was cancelled.
            case skipped
        }

        /// One command of a run: where it was, what it was, and what happened to it.
        public struct Entry: Sendable, CustomStringConvertible {
            /// The command's position in ``Invoker/commands``.
            public let index: Int
            /// The command's description if it is `CustomStringConvertible`, else its type name.
            public let name: String
            /// What happened to the command.
            public let outcome: Outcome

            init(index: Int, command: any AsyncCommand, outcome: Outcome) {
                self.index = index
                if let describable = command as? any CustomStringConvertible {
                    self.name = describable.description
                } else {
                    self.name = String(describing: type(of: command))
                }
                self.outcome = outcome
            }

            /// The error the command threw, or `nil` if it did not fail.
            public var error: (any Error)? {
                if case .failed(let error) = outcome { return error }
                return nil
            }

            /// A line such as `#2 LoadPlugin: failed (…)`.
            public var description: String {
                switch outcome {
                case .succeeded: "#\(index) \(name): succeeded"
                case .failed(let error): "#\(index) \(name): failed (\(error))"
                case .skipped: "#\(index) \(name): skipped"
                }
            }
        }

        /// Every command of the run, in order.
        public let entries: [Entry]

        /// Whether the task running the invoker was cancelled before every command could start.
        public let wasCancelled: Bool

        /// The commands that ran, whether they succeeded or failed, in order.
        public var ran: [Entry] {
            entries.filter { if case .skipped = $0.outcome { false } else { true } }
        }

        /// The commands that ran and succeeded, in order.
        public var succeeded: [Entry] {
            entries.filter { if case .succeeded = $0.outcome { true } else { false } }
        }

        /// The commands that ran and threw, in order; each entry's ``Entry/error`` is set.
        public var failed: [Entry] {
            entries.filter { if case .failed = $0.outcome { true } else { false } }
        }

        /// The commands that did not run, in order.
        public var skipped: [Entry] {
            entries.filter { if case .skipped = $0.outcome { true } else { false } }
        }

        /// Whether every command ran and succeeded.
        public var isSuccess: Bool {
            entries.allSatisfy { if case .succeeded = $0.outcome { true } else { false } }
        }

        /// One line per command, such as `#1 RegisterForPush: failed (…)`, then `(cancelled)` if the
        /// run was cancelled.
        public var description: String {
            (entries.map(\.description) + (wasCancelled ? ["(cancelled)"] : [])).joined(separator: "\n")
        }

        /// Throws the first failure's error, if any command failed.
        ///
        /// Use it to turn a report back into a throwing call when any failure should fail the
        /// caller. Skipped commands alone (a cancelled run) throw `CancellationError`.
        ///
        /// - Throws: The first failed command's error, or `CancellationError` if the run was
        ///   cancelled without a failure.
        public func checkSuccess() throws {
            if let error = failed.first?.error { throw error }
            if wasCancelled { throw CancellationError() }
        }
    }
}

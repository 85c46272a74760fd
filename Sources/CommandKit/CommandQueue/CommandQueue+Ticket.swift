extension CommandQueue {
    /// Identifies an enqueued command; identifiers grow in the order the queue received them.
    public struct TicketID: Hashable, Comparable, Sendable, CustomStringConvertible {
        let rawValue: UInt64

        /// Orders identifiers by the order the queue received their commands.
        public static func < (lhs: Self, rhs: Self) -> Bool {
            lhs.rawValue < rhs.rawValue
        }

        /// The identifier as a number, such as `#12`.
        public var description: String { "#\(rawValue)" }
    }

    /// A handle on an enqueued command: await its completion, or cancel it.
    ///
    /// ```swift
    /// let ticket = queue.enqueue(ImportAlbums(from: url))
    /// switch await ticket.result {
    /// case .success: print("imported")
    /// case .failure(let error as CancellationError): print("cancelled", error)
    /// case .failure(let error): print("failed:", error)
    /// }
    /// ```
    public struct Ticket<Value: Sendable>: Sendable {
        /// The command's identifier.
        public let id: TicketID

        private let queue: CommandQueue
        private let completion: TicketCompletion<Value>

        init(id: TicketID, queue: CommandQueue, completion: TicketCompletion<Value>) {
            self.id = id
            self.queue = queue
            self.completion = completion
        }

        /// The command's outcome, once it has finished: its value, or the error it threw
        /// (`CancellationError` if it was cancelled before it started).
        ///
        /// If the waiting task is cancelled, waiting stops with `.failure(CancellationError())`;
        /// the command is not affected.
        public var result: Result<Value, any Error> {
            get async { await completion.wait() }
        }

        /// The command's value, once it has finished.
        ///
        /// - Throws: The error the command threw, or `CancellationError` if it was cancelled before
        ///   it started or the waiting task is cancelled.
        public var value: Value {
            get async throws { try await completion.wait().get() }
        }

        /// Whether the command has finished (succeeded, failed or been cancelled).
        public var isFinished: Bool {
            completion.isFinished
        }

        /// Cancels the command; same as ``CommandQueue/cancel(_:)``.
        ///
        /// - Returns: What the cancellation did.
        @discardableResult
        public func cancel() -> CancellationResult {
            queue.cancel(self)
        }
    }

    /// What ``CommandQueue/cancel(_:)`` did.
    public enum CancellationResult: Hashable, Sendable {
        /// The command had not started: it was removed and will never run.
        case removedBeforeStart
        /// The command was running: its task was cancelled; it decides whether to stop.
        case requestedWhileRunning
        /// The command had already finished (or was already cancelled): nothing was done.
        case alreadyFinished
    }
}

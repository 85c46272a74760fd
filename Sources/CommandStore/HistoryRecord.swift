public import Foundation

/// What a ``DurableHistory`` holds about one of its entries, read without running or decoding it:
/// its identity, its texts, and when it was recorded.
///
/// A record's ``id`` names one entry for as long as it stays in the history, in every process
/// that opens the file. Pass it as an expectation (``DurableHistory/undo(steps:expecting:)``) to
/// act only on the step a view showed: a position alone names a different step once another
/// process has undone it and pushed another.
public struct HistoryRecord: Sendable, Hashable, Identifiable {
    /// The identity of a history entry: its sequence number in the file and a random token drawn
    /// when it was recorded.
    ///
    /// Two IDs are equal only when they name the same recorded entry: an entry recorded later at
    /// the same position (after an undo and a new push, in any process) draws another token.
    /// Entries migrated from a file of format 3, which recorded no token, are named by their
    /// sequence number alone.
    public struct ID: Sendable, Hashable, CustomStringConvertible {
        /// The entry's row in the history table.
        let sequence: Int64
        /// The entry's random token, `nil` for entries recorded before format 4.
        let token: Int64?

        /// A short form for logs and messages, such as `"12:9f3a1c0d2b4e5f60"`.
        public var description: String {
            let token = token.map { String(UInt64(bitPattern: $0), radix: 16) } ?? "-"
            return "\(sequence):\(token)"
        }
        /// Reads an identity back from its ``description``, as a client that showed a step hands it
        /// back (a web page, a script), so that it can be passed as an expectation.
        ///
        /// - Parameter description: A ``description``, such as `"12:9f3a1c0d2b4e5f60"`.
        /// - Returns: The identity, or `nil` when the text is not one.
        public init?(_ description: String) {
            let parts = description.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let sequence = Int64(parts[0]), sequence >= 0 else { return nil }
            if parts[1] == "-" {
                self.init(sequence: sequence, token: nil)
            } else if let bits = UInt64(parts[1], radix: 16), String(bits, radix: 16) == parts[1] {
                self.init(sequence: sequence, token: Int64(bitPattern: bits))
            } else {
                return nil
            }
        }

        package init(sequence: Int64, token: Int64?) {
            self.sequence = sequence
            self.token = token
        }
    }

    /// The entry's identity.
    public var id: ID
    /// The entry's text (``PersistentCommand/text``, or the macro's text).
    public var text: String
    /// The text for Undo and Redo menu items (``PersistentCommand/actionText``).
    public var actionText: String
    /// When the entry was recorded (its first push), or `nil` for entries recorded before format 4.
    public var date: Date?
    /// Who recorded it: the ``DurableHistory/author`` of the history that pushed it, or `nil`
    /// when none was set (and for entries recorded before format 7).
    public var author: String?
    /// The stored command's kind (``PersistentCommand/kind``), or `nil` for a macro: what the
    /// entry is, known without decoding it.
    public var kind: String?

    package init(id: ID, text: String, actionText: String, date: Date?, author: String?, kind: String?) {
        self.id = id
        self.text = text
        self.actionText = actionText
        self.date = date
        self.author = author
        self.kind = kind
    }
}

import Foundation

/// How an entry is stored: a command's kind, version and JSON, or a macro's text and children.
///
/// A top-level entry is one row (kind, version, texts, merge ID, significance, payload); a macro row has no kind and
/// its payload is the JSON array of its children in this same shape.
struct StoredEntry: Codable, Equatable {
    /// The command kind, or `nil` for a macro.
    var kind: String?
    /// The command version (1 for a macro).
    var version: Int
    /// The entry's text when it was stored.
    var text: String
    /// The entry's action text when it was stored.
    var actionText: String
    /// The entry's merge ID when it was stored.
    var mergeID: Int?
    /// Whether the entry was significant when it was stored.
    var isSignificant: Bool
    /// The command's JSON; for a macro, its children's JSON.
    var payload: Data

    /// The stored version of the macro format.
    static let macroVersion = 1

    init(
        kind: String?, version: Int, text: String, actionText: String, mergeID: Int?, isSignificant: Bool, payload: Data
    ) {
        self.kind = kind
        self.version = version
        self.text = text
        self.actionText = actionText
        self.mergeID = mergeID
        self.isSignificant = isSignificant
        self.payload = payload
    }

    init(_ entry: DurableEntry, encoder: PayloadEncoder) throws {
        switch entry.content {
        case .command(let command):
            self.init(
                kind: command.kind,
                version: command.version,
                text: command.text,
                actionText: command.actionText,
                mergeID: command.mergeID,
                isSignificant: command.isSignificant,
                payload: try command.payload(using: encoder)
            )
        case .macro(let text, let children):
            let stored = try children.map { try StoredEntry($0, encoder: encoder) }
            self.init(
                kind: nil,
                version: Self.macroVersion,
                text: text,
                actionText: text,
                mergeID: nil,
                isSignificant: true,
                payload: try encoder.encode(stored)
            )
        case .stored(let stored, _):
            self = stored
        }
    }

    /// The entry this stores, its commands decoded and bound to the receiver.
    func decode(with commands: BoundCommandDecoder, decoder: JSONDecoder, context: String) throws -> DurableEntry {
        guard let kind else {
            guard version == Self.macroVersion else {
                throw StoreError(
                    .unsupportedCommandVersion,
                    "\(context) (\"\(text)\") is a macro stored at format version \(version); this program reads version \(Self.macroVersion)"
                )
            }
            let children: [StoredEntry]
            do {
                children = try decoder.decode([StoredEntry].self, from: payload)
            } catch {
                throw StoreError(
                    .invalidCommandData, "\(context) (\"\(text)\") is a macro whose children do not decode: \(error)")
            }
            let decoded = try children.enumerated().map { offset, child in
                try child.decode(with: commands, decoder: decoder, context: "\(context), child \(offset)")
            }
            return .macro(text: text, children: decoded)
        }
        let command = try commands.decode(
            kind: kind, version: version, payload: payload, context: "\(context) (\"\(text)\")")
        return DurableEntry(content: .command(command))
    }
}

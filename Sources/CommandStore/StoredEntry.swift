package import Foundation

/// How an entry is stored: a command's kind, version and JSON, or a macro's text and children.
///
/// A top-level entry is one row (kind, version, texts, merge ID, significance, payload); a macro row has no kind and
/// its payload is the JSON array of its children in this same shape.
///
/// The payload can be large (a big import, a macro of thousands of children), and reading texts
/// does not need it: the storage reads a row without it (`payload == nil`) and fetches it only to
/// decode or rewrite the entry. A macro's children always carry theirs.
package struct StoredEntry: Codable, Equatable {
    /// The command kind, or `nil` for a macro.
    package var kind: String?
    /// The command version (1 for a macro).
    package var version: Int
    /// The entry's text when it was stored.
    package var text: String
    /// The entry's action text when it was stored.
    package var actionText: String
    /// The entry's merge ID when it was stored.
    package var mergeID: Int?
    /// Whether the entry was significant when it was stored.
    package var isSignificant: Bool
    /// The command's JSON; for a macro, its children's JSON. `nil`: not read yet (the row's texts
    /// were read without it).
    package var payload: Data?

    /// The stored version of the macro format.
    package static let macroVersion = 1

    package init(
        kind: String?, version: Int, text: String, actionText: String, mergeID: Int?, isSignificant: Bool,
        payload: Data?
    ) {
        self.kind = kind
        self.version = version
        self.text = text
        self.actionText = actionText
        self.mergeID = mergeID
        self.isSignificant = isSignificant
        self.payload = payload
    }

    package init(_ entry: DurableEntry, encoder: PayloadEncoder) throws {
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
        case .stored(let stored, let decoding):
            self = try Self.withPayload(stored, decoding)
        }
    }

    /// `stored`, its payload read if it was read without (the row is about to be written whole).
    ///
    /// Apart from the initializer: inline, it cost the initializer a copy of every entry it stores.
    @inline(never)
    private static func withPayload(_ stored: StoredEntry, _ decoding: Decoding) throws -> StoredEntry {
        guard stored.payload == nil else { return stored }
        var complete = stored
        complete.payload = try decoding.payload()
        return complete
    }

    private enum CodingKeys: String, CodingKey {
        case kind, version, text, actionText, mergeID, isSignificant, payload
    }

    // Written out for the payload: required in a macro's children (as before it became optional
    // in memory), so a child without one is invalid data, not a child whose data is "not read yet".
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decodeIfPresent(String.self, forKey: .kind)
        version = try container.decode(Int.self, forKey: .version)
        text = try container.decode(String.self, forKey: .text)
        actionText = try container.decode(String.self, forKey: .actionText)
        mergeID = try container.decodeIfPresent(Int.self, forKey: .mergeID)
        isSignificant = try container.decode(Bool.self, forKey: .isSignificant)
        payload = try container.decode(Data.self, forKey: .payload)
    }

    package func encode(to encoder: any Encoder) throws {
        guard let payload else {
            // Children are built by init(_:encoder:), which always fetches the payload.
            throw EncodingError.invalidValue(
                self, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "payload not read"))
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(kind, forKey: .kind)
        try container.encode(version, forKey: .version)
        try container.encode(text, forKey: .text)
        try container.encode(actionText, forKey: .actionText)
        try container.encodeIfPresent(mergeID, forKey: .mergeID)
        try container.encode(isSignificant, forKey: .isSignificant)
        try container.encode(payload, forKey: .payload)
    }

    /// The entry this stores, its commands decoded and bound to the receiver.
    ///
    /// - Precondition: The payload has been read (`payload != nil`).
    package func decode(
        with commands: BoundCommandDecoder, decoder: JSONDecoder, context: String
    ) throws -> DurableEntry {
        guard let payload else { preconditionFailure("\(context): decoding an entry whose payload was not read") }
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

package import Foundation

/// Decodes stored commands into commands bound to the history's receiver: a ``CommandRegistry``
/// and a receiver, behind a type that does not name the receiver's type (see ``BoundCommand``).
package struct BoundCommandDecoder {
    private let decodeCommand:
        (_ kind: String, _ version: Int, _ payload: Data, _ context: () -> String) throws -> any BoundCommand

    private let discardCommand:
        (_ kind: String, _ version: Int, _ payload: Data, _ context: () -> String) throws -> Void
    /// The kinds whose commands have a discard action (``CommandRegistry/register(_:whenDiscarded:)``).
    package let discardingKinds: [String]

    package init<Receiver>(registry: CommandRegistry<Receiver>, receiver: Receiver) {
        decodeCommand = { kind, version, payload, context in
            try registry.decode(kind: kind, version: version, payload: payload, receiver: receiver, context: context())
        }
        discardCommand = { kind, version, payload, context in
            try registry.discard(kind: kind, version: version, payload: payload, receiver: receiver, context: context())
        }
        discardingKinds = registry.discardingKinds
    }

    /// Runs the discard action of a stored command (nothing for a kind without one).
    package func discard(kind: String, version: Int, payload: Data, context: @autoclosure () -> String) throws {
        try discardCommand(kind, version, payload, context)
    }

    /// The command stored as `kind` at `version`, bound to the receiver.
    ///
    /// - Parameter context: Where the command is stored, for messages.
    /// - Throws: ``StoreError`` for an unknown kind, a newer version, or data that does not decode.
    package func decode(
        kind: String, version: Int, payload: Data, context: @autoclosure () -> String
    ) throws -> any BoundCommand {
        try decodeCommand(kind, version, payload, context)
    }
}

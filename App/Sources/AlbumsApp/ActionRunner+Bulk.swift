import AlbumLibrary
import Foundation

/// `delete`, `edit` and `move --to` on several albums: a preview, a question, one step.
extension ActionRunner {
    func runBulk(_ request: BulkRequest) throws {
        let verb = Self.verb(request.action)
        // Only what the change would change: an edit leaves out albums that have the values.
        func preview() throws -> [BulkChangeCommand.Member] {
            let members = try session.albums(in: request.selection)
            guard case .edit(let changes) = request.action else { return members }
            return try members.filter { try $0.album.applying(changes) != $0.album }
        }
        if request.dryRun {
            let members = try preview()
            if options.json {
                console.write(
                    AlbumFormatter.json(
                        DryRun(
                            command: verb.command, dryRun: true, count: members.count,
                            albums: members.map(DryRun.Row.init))))
            } else {
                console.write(
                    "Would \(verb.infinitive) \(Self.count(members.count)) (nothing changed):\n"
                        + members.map { Self.line($0) }.joined())
            }
            return
        }
        var expected: Set<UUID>?
        if !request.yes {
            let members = try preview()
            if members.count > 1 {
                guard console.inputIsTerminal && console.errorIsTerminal else {
                    throw LibraryError(
                        .conflict,
                        "this would \(verb.infinitive) \(Self.count(members.count)): add --yes to do it without a terminal to ask on (nothing changed)"
                    )
                }
                console.writeError(members.map { Self.line($0) }.joined())
                console.writeError("\(verb.capitalized) \(Self.count(members.count))? [y/N] ")
                let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
                guard answer == "y" || answer == "yes" else {
                    throw LibraryError(.conflict, "nothing changed: \(verb.infinitive) not confirmed")
                }
                // The change must find the very albums shown, or it changes nothing.
                expected = Set(members.map(\.album.id))
            }
        }
        let command: BulkChangeCommand
        switch request.action {
        case .delete: command = try session.deleteAlbums(request.selection, expecting: expected)
        case .edit(let changes):
            command = try session.editAlbums(request.selection, changes: changes, expecting: expected)
        case .move(let to): command = try session.moveAlbums(request.selection, to: to, expecting: expected)
        }
        var position: Int?
        if case .move(let to) = command.action { position = to }
        report(
            ChangeResult(command: verb.command, step: command.text, position: position, count: command.members.count),
            "\(verb.past) \(Self.count(command.members.count))" + (position.map { " to position \($0)" } ?? ""))
    }

    private struct Verb {
        var command: String
        var infinitive: String
        var past: String
        var capitalized: String { infinitive.prefix(1).uppercased() + infinitive.dropFirst() }
    }

    private static func verb(_ action: BulkChangeCommand.Action) -> Verb {
        switch action {
        case .delete: Verb(command: "delete", infinitive: "delete", past: "Deleted")
        case .edit: Verb(command: "edit", infinitive: "edit", past: "Edited")
        case .move: Verb(command: "move", infinitive: "move", past: "Moved")
        }
    }

    private static func count(_ number: Int) -> String { number == 1 ? "1 album" : "\(number) albums" }

    private static func line(_ member: BulkChangeCommand.Member) -> String {
        "  \(member.position)  \(DisplayText.sanitized(member.album.title)) — \(DisplayText.sanitized(member.album.artist))\n"
    }

    /// What `--dry-run --json` prints.
    private struct DryRun: Encodable {
        struct Row: Encodable {
            var position: Int
            var id: UUID
            var title: String
            var artist: String

            init(_ member: BulkChangeCommand.Member) {
                position = member.position
                id = member.album.id
                title = member.album.title
                artist = member.album.artist
            }
        }

        var command: String
        var dryRun: Bool
        var count: Int
        var albums: [Row]
    }
}

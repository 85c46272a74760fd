import AlbumLibrary
import ArgumentParser
import CommandKit
import Foundation

/// `albums undo [COUNT]`, `albums undo --to STEP|AGO|TIME`.
struct UndoSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Undo the last COUNT changes (default 1), or go to any step of the history.",
        discussion: """
            Fails, changing nothing, when fewer are left. --to goes to any step of the history's tree, \
            on any branch (its number from `albums history`, or `albums history --tree` for every branch; 0 is the start), or to the state \
            at a time: 10m, 2h, 3d ago, or 2026-12-01T10:00 (local time), 2026-12-01T10:00:05Z (UTC). \
            Every step undone and redone is printed. --mine undoes your own latest change (by \
            --author, ALBUMS_AUTHOR or login@host), even after others' changes, as a new step; it is \
            refused, changing nothing, when a later change touched the same album (the message names \
            who and what).
            """
    )

    @ParentCommand var root: AlbumsCommandLine

    @Argument(help: ArgumentHelp("How many steps to undo.", valueName: "count"))
    var count: String?

    @Option(
        name: .customLong("to"),
        help: ArgumentHelp("A step number, an age (10m, 2h, 3d) or a time.", valueName: "target"))
    var target: String?

    @Flag(help: "Undo your own latest change, keeping the changes others made after it.")
    var mine = false

    func action() throws(UsageError) -> AlbumsAction {
        if mine {
            guard count == nil, target == nil else {
                throw UsageError("--mine undoes one change: leave out COUNT and --to", command: Self.name)
            }
            return .mine(redoing: false)
        }
        if let target {
            guard count == nil else { throw UsageError("give COUNT or --to, not both", command: Self.name) }
            return .undoTo(try Self.parseTarget(target, now: Date()))
        }
        return .undo(
            count: try count.map { word throws(UsageError) in
                try ArgumentValue.count(word, label: "COUNT", command: Self.name)
            } ?? 1)
    }

    /// A step number, an age before `now` (`90s`, `10m`, `2h`, `3d`), or a time (ISO 8601, local
    /// time unless it ends with `Z`): the instant it names, its first millisecond.
    static func parseTarget(_ word: String, now: Date) throws(UsageError) -> HistoryTarget {
        if let step = Int(word) {
            guard step >= 0 else { throw UsageError("--to \(step): a step number is 0 or more", command: name) }
            return .step(HistoryNode.ID(step))
        }
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        if let unit = word.last.flatMap({ units[$0] }), let amount = Int(word.dropLast()), amount >= 0 {
            let time = now.timeIntervalSince1970 - Double(amount) * unit
            return .time(Int64((time * 1000).rounded(.down)))
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        let utc = word.hasSuffix("Z")
        formatter.timeZone = utc ? TimeZone(identifier: "UTC") : TimeZone.current
        let text = utc ? String(word.dropLast()) : word
        for format in [
            "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd",
        ] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) {
                return .time(
                    Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
            }
        }
        throw UsageError(
            "--to '\(DisplayText.sanitized(LibraryError.excerpt(of: word)))' is not a step number, an age (10m, 2h, 3d) or a time (2026-12-01T10:00)",
            command: name)
    }
}

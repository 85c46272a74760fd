import Foundation

/// The model of "undo mine" and "redo mine", written from the rule rather than from the library's
/// code: an author's latest change that still stands is undone on its own when no later step that
/// still stands touched the same album parts; positions are rebased from the later steps'
/// snapshots (which albums each inserted or removed, and where).
extension LibraryModel {
    /// What a step changed, as far as "undo mine" needs to know.
    indirect enum Change: Hashable, Sendable {
        case add(Album)
        case delete(Album)
        case edit(before: Album, fields: CheckerOperation.Fields)
        case move(Album)
        /// A stored cover set (`image`, its hash) or removed (`nil`); `before` holds the previous one.
        case cover(before: Album, image: String?)
        case importAlbums, replace, other
        /// An undo mine (`reapplies == false`) or redo mine of `original`, made by step `step`,
        /// cancelling the effect of step `cancels`.
        case revert(step: Int, cancels: Int, original: Change, reapplies: Bool)
    }

    enum Part: Int, Comparable, Hashable, Sendable {
        case existence, title, artist, genre, year, cover, image, order

        static func < (lhs: Part, rhs: Part) -> Bool { lhs.rawValue < rhs.rawValue }

        var name: String {
            [
                "the album", "the title", "the artist", "the genre", "the year", "the cover", "the cover image",
                "the place",
            ][rawValue]
        }

        static let all: Set<Part> = [.existence, .title, .artist, .genre, .year, .cover, .image, .order]
    }

    /// The album parts a change touched; `nil` for "any album".
    static func touched(by change: Change) -> (id: UUID, parts: Set<Part>)? {
        switch change {
        case .add(let album), .delete(let album): (album.id, Part.all)
        case .edit(let before, let fields):
            (
                before.id,
                Set(
                    [
                        fields.title.map { _ in Part.title }, fields.artist.map { _ in .artist },
                        fields.genre.map { _ in .genre }, fields.year.map { _ in .year },
                        fields.cover.map { _ in .cover },
                    ].compactMap { $0 })
            )
        case .move(let album): (album.id, [.order])
        case .cover(let before, _): (before.id, [.image])
        case .revert(_, _, let original, _): touched(by: original)
        case .importAlbums, .replace, .other: nil
        }
    }

    mutating func mine(reapplying: Bool) -> Swift.Result<Result, Refusal> {
        // Redo mine: the next step to redo, when it is the author's, is redone as `redo` would.
        if reapplying, let next = redoChain.first, steps[next]!.author == author {
            current = next
            albums = steps[next]!.after
            return .success(Result(command: "redo", step: steps[next]!.text))
        }
        var later: [Int] = []
        var cancelled: Set<Int> = []
        for node in donePath.reversed() {
            defer { later.append(node) }
            let step = steps[node]!
            if cancelled.contains(node) { continue }
            var isRevert = false
            if case .revert(_, let cancels, _, _) = step.change {
                cancelled.insert(cancels)
                isRevert = true
            }
            guard step.author == author else { continue }
            if !reapplying, later.isEmpty, !isRevert {
                albums = step.before
                current = step.parent
                return .success(Result(command: "undo", step: step.text))
            }
            let original: Change
            let originalStep: Int
            var base = 0
            // A moved album's place is among the other albums: `base` counts them only.
            var moved: UUID?
            switch (step.change, reapplying) {
            case (.revert(let revertedStep, _, .move(let album), false), true):
                original = .move(album)
                originalStep = revertedStep
                base = step.before.firstIndex { $0.id == album.id }! + 1
                moved = album.id
            case (.revert(let revertedStep, _, let change, false), true):
                original = change
                originalStep = revertedStep
                base = Self.removedPosition(in: step) ?? Self.insertedPosition(in: step) ?? 0
            case (.revert, _): continue
            case (.add(let album), false):
                original = step.change
                originalStep = node
                base = step.after.firstIndex { $0.id == album.id }! + 1
            case (.delete(let album), false):
                original = step.change
                originalStep = node
                base = step.before.firstIndex { $0.id == album.id }! + 1
            case (.edit, false), (.cover, false):
                original = step.change
                originalStep = node
            case (.move(let album), false):
                original = step.change
                originalStep = node
                base = step.before.firstIndex { $0.id == album.id }! + 1
                moved = album.id
            case (_, false):
                return .failure(
                    Refusal(
                        kind: .conflict,
                        message:
                            "your \(Self.noun(of: step.change)) (step \(node)) can be undone only as the last step: \(later.count) later step(s) follow it"
                    ))
            case (_, true): continue
            }
            let chronological = Array(later.reversed())
            if let refusal = conflict(original, later: chronological, cancelled: cancelled) {
                return .failure(refusal)
            }
            let text = "\(reapplying ? "Redo" : "Undo") \(steps[originalStep]!.text) (step \(originalStep))"
            let position = chronological.reduce(base) { position, node in
                guard let moved else { return shifted(position, through: steps[node]!) }
                // Rebased in the lists without the moved album (no later step that stands moved it;
                // one cancelled since moved it and no other album).
                var step = steps[node]!
                if case .move(let album) = step.change, album.id == moved { return position }
                step.before.removeAll { $0.id == moved }
                step.after.removeAll { $0.id == moved }
                return shifted(position, through: step)
            }
            let change = Change.revert(step: originalStep, cancels: node, original: original, reapplies: reapplying)
            record(text, change) { albums in
                Self.run(original, reverting: !reapplying, position: position, on: &albums)
            }
            return .success(Result(command: reapplying ? "redo" : "undo", step: text))
        }
        return .failure(
            reapplying
                ? Refusal(kind: .nothingToRedo, message: "\(author) has no undone change to redo")
                : Refusal(kind: .nothingToUndo, message: "\(author) has no change to undo"))
    }

    /// The first later step that still stands and touched what `mine` touched, as a refusal.
    private func conflict(_ mine: Change, later: [Int], cancelled: Set<Int>) -> Refusal? {
        let laterNodes = Set(later)
        for node in later {
            let step = steps[node]!
            if cancelled.contains(node) { continue }
            if case .revert(_, let cancels, _, _) = step.change, laterNodes.contains(cancels) { continue }
            let parts: Set<Part>
            switch (Self.touched(by: mine), Self.touched(by: step.change)) {
            case (let a?, let b?):
                guard a.id == b.id, !a.parts.isDisjoint(with: b.parts) else { continue }
                parts = a.parts.intersection(b.parts)
            default: parts = Part.all
            }
            return Refusal(
                kind: .conflict,
                message:
                    "\(step.author) \(Self.verb(of: step.change, parts)) “\(Self.title(of: mine))” after your \(Self.noun(of: mine)) (step \(node))"
            )
        }
        return nil
    }

    /// `position` (a place to insert at) after `step`: read from its snapshots.
    private func shifted(_ position: Int, through step: Step) -> Int {
        var position = position
        let beforeIDs = Set(step.before.map(\.id))
        let afterIDs = Set(step.after.map(\.id))
        if case .move(let album) = step.change {
            let from = step.before.firstIndex { $0.id == album.id }! + 1
            let to = step.after.firstIndex { $0.id == album.id }! + 1
            if from < position { position -= 1 }
            if to <= position { position += 1 }
            return position
        }
        // Removals, then insertions, each at its place then.
        var list = step.before
        for (offset, album) in step.before.enumerated().reversed() where !afterIDs.contains(album.id) {
            if offset + 1 < position { position -= 1 }
            list.remove(at: offset)
        }
        for (offset, album) in step.after.enumerated() where !beforeIDs.contains(album.id) {
            if offset + 1 <= position { position += 1 }
            list.insert(album, at: offset)
        }
        return position
    }

    private static func removedPosition(in step: Step) -> Int? {
        let after = Set(step.after.map(\.id))
        return step.before.firstIndex { !after.contains($0.id) }.map { $0 + 1 }
    }

    private static func insertedPosition(in step: Step) -> Int? {
        let before = Set(step.before.map(\.id))
        return step.after.firstIndex { !before.contains($0.id) }.map { $0 + 1 }
    }

    /// Undoes (`reverting`) or does `change` again on `albums`.
    private static func run(_ change: Change, reverting: Bool, position: Int, on albums: inout [Album]) {
        switch change {
        case .add(let album), .delete(let album):
            let inserts = { if case .add = change { !reverting } else { reverting } }()
            if inserts {
                albums.insert(album, at: min(position, albums.count + 1) - 1)
            } else {
                albums.removeAll { $0.id == album.id }
            }
        case .edit(let before, let fields):
            guard let offset = albums.firstIndex(where: { $0.id == before.id }) else { return }
            if reverting {
                var album = albums[offset]
                if fields.title != nil { album.title = before.title }
                if fields.artist != nil { album.artist = before.artist }
                if fields.genre != nil { album.genre = before.genre }
                if fields.year != nil { album.year = before.year }
                if fields.cover != nil { album.cover = before.cover }
                albums[offset] = album
            } else {
                albums[offset] = fields.applied(to: albums[offset])
            }
        case .cover(let before, let image):
            guard let offset = albums.firstIndex(where: { $0.id == before.id }) else { return }
            albums[offset].storedCover = reverting ? before.storedCover : image
        case .move(let album):
            // Either way, the album goes to `position` among the others.
            guard let offset = albums.firstIndex(where: { $0.id == album.id }) else { return }
            let current = albums.remove(at: offset)
            albums.insert(current, at: min(position, albums.count + 1) - 1)
        default: break
        }
    }

    private static func title(of change: Change) -> String {
        switch change {
        case .add(let album), .delete(let album), .move(let album): album.title
        case .edit(let before, _), .cover(let before, _): before.title
        case .revert(_, _, let original, _): title(of: original)
        default: "the library"
        }
    }

    private static func noun(of change: Change) -> String {
        switch change {
        case .add: "add"
        case .delete: "delete"
        case .edit: "edit"
        case .move: "move"
        case .cover: "cover change"
        case .importAlbums: "import"
        case .replace: "replacement"
        case .revert(_, _, _, let reapplies): reapplies ? "redo" : "undo"
        case .other: "change"
        }
    }

    private static func verb(of change: Change, _ parts: Set<Part>) -> String {
        switch change {
        case .add: "added"
        case .delete: "deleted"
        case .edit: "changed " + parts.sorted().map(\.name).joined(separator: " and ") + " of"
        case .move: "moved"
        case .cover: "changed the cover image of"
        case .importAlbums: "imported albums beside"
        case .replace: "replaced the library, with"
        case .revert(_, _, _, let reapplies): reapplies ? "redid a change to" : "undid a change to"
        case .other: "changed the library, perhaps"
        }
    }
}

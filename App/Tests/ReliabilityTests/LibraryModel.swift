import Foundation

/// The history checker's model of one library: its albums in order, and its history as a tree
/// (the library keeps branches), each step keeping the albums before and after it, with vim's
/// rule for redo: it follows the child visited last.
///
/// ``apply(_:addedID:)`` does what `albums` must do for one operation at one point of the history:
/// it returns the result `--json` must print, or the refusal it must print (and then changes
/// nothing). Undo and redo restore the snapshots, so the model holds the specification (an undo
/// puts back exactly what its step changed) rather than a copy of the commands' code.
struct LibraryModel: Sendable {
    /// An album as `albums export` writes it.
    struct Album: Codable, Hashable, Sendable {
        var id: UUID
        var title: String
        var artist: String
        var genre: String
        var year: Int?
        var cover: String?
        /// The hash of the stored cover image (`albums cover set`), which no export carries.
        var storedCover: String?

        private enum CodingKeys: String, CodingKey {
            case id, title, artist, genre, year, cover
        }

        /// The album without its stored cover, as an import file or a replacement compares it.
        var withoutStoredCover: Album {
            var album = self
            album.storedCover = nil
            return album
        }
    }

    /// One step of the history: a node of its tree.
    struct Step: Hashable, Sendable {
        var text: String
        var parent: Int
        var before: [Album]
        var after: [Album]
        /// Who made it (each checker process is an author).
        var author = ""
        /// What it changed, for "undo mine" (LibraryModel+Mine.swift).
        var change: Change = .other
    }

    /// What a change prints with `--json` (`ChangeResult`), decoded or as the model expects it.
    struct Result: Codable, Hashable, Sendable, CustomStringConvertible {
        var command: String
        var step: String?
        var steps: [String]?
        var id: UUID?
        var title: String?
        var position: Int?
        var count: Int?
        var skipped: Int?
        var revision: Int?

        var description: String {
            var parts = [command]
            if let step { parts.append("step \(step)") }
            if let steps { parts.append("steps \(steps)") }
            if let title { parts.append("title “\(title)”") }
            if let id { parts.append("id \(id.uuidString)") }
            if let position { parts.append("position \(position)") }
            if let count { parts.append("count \(count)") }
            if let skipped { parts.append("skipped \(skipped)") }
            if let revision { parts.append("revision \(revision)") }
            return "{" + parts.joined(separator: ", ") + "}"
        }
    }

    /// A refusal: what `albums` prints after `albums: `, and its kind.
    struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        enum Kind: String, Sendable {
            case positionOutOfRange, albumNotFound, ambiguousTitle, nothingToChange, nothingToUndo, nothingToRedo
            case idInLibrary, noSuchStep, conflict, namedTwice
        }

        var kind: Kind
        var message: String

        var description: String { "\(kind.rawValue): \(message)" }

        /// The kind of a refusal `albums` printed (the line after `albums: `), or `nil` for one no
        /// operation of the checker should meet.
        static func kind(ofMessage message: String) -> Kind? {
            if message.contains(" is out of range") { return .positionOutOfRange }
            if message.hasPrefix("no album has the id") || message.hasPrefix("no album is titled") {
                return .albumNotFound
            }
            if message.contains(" albums are titled “") || message.contains(" albums are titled like “") {
                return .ambiguousTitle
            }
            if message.hasSuffix("nothing to edit") || message.hasSuffix("nothing to move")
                || message.hasSuffix("nothing to replace") || message.hasSuffix("nothing to undo or redo")
                || message.hasSuffix("nothing to import") || message.hasSuffix("nothing to repair")
                || message.hasSuffix("nothing to remove") || message.hasSuffix("nothing to change")
            {
                return .nothingToChange
            }
            if message == "nothing to undo" || message.hasSuffix("can be undone") { return .nothingToUndo }
            if message == "nothing to redo" || message.hasSuffix("can be redone") { return .nothingToRedo }
            if message.hasSuffix("is already in the library") { return .idInLibrary }
            if message.hasPrefix("there is no step ") { return .noSuchStep }
            if message.contains(" after your ") || message.contains("can be undone only as the last step") {
                return .conflict
            }
            if message.contains(" is named twice (album ") { return .namedTwice }
            if message.hasPrefix("no album matches ") { return .albumNotFound }
            if message.hasSuffix(" has no change to undo") { return .nothingToUndo }
            if message.hasSuffix(" has no undone change to redo") { return .nothingToRedo }
            return nil
        }
    }

    var albums: [Album]
    /// Every step, by its number (1, 2, …: the order the steps were recorded in).
    private(set) var steps: [Int: Step] = [:]
    /// The current state: a step's number, or 0 for the start.
    var current = 0
    /// The child a redo from each state follows.
    private var lastChild: [Int: Int] = [:]
    private let startAlbums: [Album]
    /// The author of the operation being applied.
    var author = ""

    init(albums: [Album]) {
        self.albums = albums
        startAlbums = albums
    }

    /// The steps from the start to `node`, oldest first.
    func path(to node: Int) -> [Int] {
        var path: [Int] = []
        var node = node
        while node != 0 {
            path.append(node)
            node = steps[node]!.parent
        }
        return path.reversed()
    }

    /// The steps done: from the start to the current state.
    var donePath: [Int] { path(to: current) }

    /// The steps `redo` would follow from the current state, in order.
    var redoChain: [Int] {
        var chain: [Int] = []
        var node = current
        while let child = lastChild[node] {
            chain.append(child)
            node = child
        }
        return chain
    }

    /// Applies one operation: the result `albums` must print, or its refusal.
    ///
    /// - Parameters:
    ///   - operation: The operation.
    ///   - addedID: The id `albums add` printed (it draws a new album's id itself).
    mutating func apply(
        _ operation: CheckerOperation, addedID: UUID?, author: String = ""
    ) -> Swift.Result<Result, Refusal> {
        self.author = author
        switch operation {
        case .undoMine: return mine(reapplying: false)
        case .redoMine: return mine(reapplying: true)
        case .add(let title, let artist, let genre, let at):
            let position = at ?? albums.count + 1
            guard position <= albums.count + 1 else { return .failure(outOfRange(position, limit: albums.count + 1)) }
            let album = Album(id: addedID ?? UUID(), title: title, artist: artist, genre: genre ?? "")
            record("Add “\(title)”", .add(album)) { $0.insert(album, at: position - 1) }
            return .success(
                Result(command: "add", step: "Add “\(title)”", id: album.id, title: title, position: position))
        case .edit(let reference, let fields):
            return find(reference).flatMap { position, found in
                let edited = fields.applied(to: found)
                guard edited != found else {
                    return .failure(
                        Refusal(
                            kind: .nothingToChange,
                            message: "“\(found.title)” already has those values: nothing to edit"))
                }
                // The step records only the fields that differ (a field sent with its value is no change).
                record("Edit “\(found.title)”", .edit(before: found, fields: fields.differing(from: found))) {
                    $0[position - 1] = edited
                }
                return .success(
                    Result(
                        command: "edit", step: "Edit “\(found.title)”", id: found.id, title: edited.title,
                        position: position))
            }
        case .move(let reference, let target):
            return find(reference).flatMap { from, found in
                // The album was found: the library is not empty.
                guard (1...albums.count).contains(target) else {
                    return .failure(outOfRange(target, limit: albums.count))
                }
                guard target != from else {
                    return .failure(
                        Refusal(
                            kind: .nothingToChange,
                            message: "“\(found.title)” is already at position \(from): nothing to move"))
                }
                record("Move “\(found.title)”", .move(found)) { $0.insert($0.remove(at: from - 1), at: target - 1) }
                return .success(
                    Result(
                        command: "move", step: "Move “\(found.title)”", id: found.id, title: found.title,
                        position: target))
            }
        case .delete(let reference):
            return find(reference).map { position, found in
                record("Delete “\(found.title)”", .delete(found)) { $0.remove(at: position - 1) }
                return Result(
                    command: "delete", step: "Delete “\(found.title)”", id: found.id, title: found.title,
                    position: position)
            }
        case .deleteAlbums(let references):
            var members: [(Int, Album)] = []
            for reference in references {
                switch find(reference) {
                case .failure(let refusal): return .failure(refusal)
                case .success(let found):
                    if let earlier = members.firstIndex(where: { $0.1.id == found.1.id }) {
                        return .failure(
                            Refusal(
                                kind: .namedTwice,
                                message:
                                    "“\(found.1.title)” (position \(found.0)) is named twice (album \(earlier + 1) and \(members.count + 1))"
                            ))
                    }
                    members.append(found)
                }
            }
            let gone = Set(members.map(\.1.id))
            let text = "Delete \(Self.count(members.count))"
            record(text, .other) { $0.removeAll { gone.contains($0.id) } }
            return .success(Result(command: "delete", step: text, count: members.count))
        case .editMatching(let genre, let fields):
            let matches = albums.filter { Self.genre($0, contains: genre) }
            guard !matches.isEmpty else { return .failure(noMatch(genre)) }
            let changed = Set(matches.filter { fields.applied(to: $0) != $0 }.map(\.id))
            guard !changed.isEmpty else {
                return .failure(
                    Refusal(
                        kind: .nothingToChange,
                        message: matches.count == 1
                            ? "the album already has those values: nothing to edit"
                            : "the \(matches.count) albums already have those values: nothing to edit"))
            }
            let text = "Edit \(Self.count(changed.count))"
            record(text, .other) { albums in
                for index in albums.indices where changed.contains(albums[index].id) {
                    albums[index] = fields.applied(to: albums[index])
                }
            }
            return .success(Result(command: "edit", step: text, count: changed.count))
        case .moveMatching(let genre, let target):
            let members = albums.enumerated().filter { Self.genre($0.element, contains: genre) }
            guard !members.isEmpty else { return .failure(noMatch(genre)) }
            let last = albums.count - members.count + 1
            guard (1...last).contains(target) else {
                return .failure(
                    Refusal(
                        kind: .positionOutOfRange,
                        message: "position \(target) is out of range for \(Self.count(members.count)) (1...\(last))"))
            }
            guard members.enumerated().contains(where: { $0.element.offset + 1 != target + $0.offset }) else {
                return .failure(
                    Refusal(
                        kind: .nothingToChange,
                        message: members.count == 1
                            ? "the album is at position \(target) already: nothing to move"
                            : "the \(members.count) albums are at positions \(target)… already: nothing to move"))
            }
            let moved = members.map(\.element)
            let ids = Set(moved.map(\.id))
            let text = "Move \(Self.count(members.count)) to position \(target)"
            record(text, .other) { albums in
                albums.removeAll { ids.contains($0.id) }
                albums.insert(contentsOf: moved, at: target - 1)
            }
            return .success(Result(command: "move", step: text, position: target, count: members.count))
        case .undo(let count):
            let done = donePath
            guard done.count >= count else {
                return .failure(
                    Refusal(
                        kind: .nothingToUndo,
                        message: done.isEmpty
                            ? "nothing to undo" : "cannot undo \(count) steps: only \(done.count) can be undone"))
            }
            let undone = Array(done.suffix(count).reversed())
            albums = steps[undone.last!]!.before
            current = steps[undone.last!]!.parent
            return .success(Result(command: "undo", steps: undone.map { steps[$0]!.text }))
        case .redo(let count):
            let chain = redoChain
            guard chain.count >= count else {
                return .failure(
                    Refusal(
                        kind: .nothingToRedo,
                        message: chain.isEmpty
                            ? "nothing to redo" : "cannot redo \(count) steps: only \(chain.count) can be redone"))
            }
            current = chain[count - 1]
            albums = steps[current]!.after
            return .success(Result(command: "redo", steps: chain.prefix(count).map { steps[$0]!.text }))
        case .undoTo(let target):
            guard target == 0 || steps[target] != nil else {
                return .failure(
                    Refusal(
                        kind: .noSuchStep,
                        message: "there is no step \(target) in the history (see albums history --tree)"))
            }
            guard target != current else {
                return .failure(
                    Refusal(
                        kind: .nothingToChange,
                        message: "the library is already at step \(target): nothing to undo or redo"))
            }
            let from = donePath
            let to = path(to: target)
            var shared = 0
            while shared < from.count, shared < to.count, from[shared] == to[shared] { shared += 1 }
            let undone = from[shared...].reversed().map { steps[$0]!.text }
            let redone = to[shared...]
            for node in redone { lastChild[steps[node]!.parent] = node }
            current = target
            albums = target == 0 ? startAlbums : steps[target]!.after
            return .success(Result(command: "undo", steps: undone + redone.map { steps[$0]!.text }))
        case .importAlbums(let fileAlbums, let file):
            // Duplicates (title, artist and year, case and accents aside) of the library or of an
            // album kept earlier in the file are skipped; then an id the library holds is refused.
            func key(_ album: Album) -> [String] {
                [Self.folded(album.title), Self.folded(album.artist), album.year.map(String.init) ?? "-"]
            }
            var seen = Set(albums.map(key))
            let kept = fileAlbums.enumerated().filter { seen.insert(key($0.element)).inserted }
            guard !kept.isEmpty else {
                let all = fileAlbums.count == 1 ? "its one album is" : "all \(fileAlbums.count) albums are"
                return .failure(
                    Refusal(
                        kind: .nothingToChange,
                        message:
                            "\(file): \(all) already in the library (--allow-duplicates imports them): nothing to import"
                    ))
            }
            let present = Set(albums.map(\.id))
            if let clash = kept.first(where: { present.contains($0.element.id) }) {
                return .failure(
                    Refusal(
                        kind: .idInLibrary,
                        message:
                            "\(file): album \(clash.offset + 1): id \(clash.element.id.uuidString) is already in the library"
                    ))
            }
            let imported = kept.map(\.element)
            let first = albums.count + 1
            let text = imported.count == 1 ? "Import “\(imported[0].title)”" : "Import \(imported.count) albums"
            record(text, .importAlbums) { $0 += imported }
            let one = imported.count == 1 ? imported.first : nil
            return .success(
                Result(
                    command: "import", step: text, id: one?.id, title: one?.title, position: first,
                    count: imported.count, skipped: fileAlbums.count - imported.count))
        case .setCover(let reference, let image, _):
            let hash = CheckerWorkload.coverHashes[image]
            return find(reference).flatMap { position, found in
                guard found.storedCover != hash else {
                    return .failure(
                        Refusal(
                            kind: .nothingToChange,
                            message: "“\(found.title)” already has this cover: nothing to change"))
                }
                let text = "Set the cover of “\(found.title)”"
                record(text, .cover(before: found, image: hash)) { $0[position - 1].storedCover = hash }
                return .success(
                    Result(command: "cover", step: text, id: found.id, title: found.title, position: position))
            }
        case .removeCover(let reference):
            return find(reference).flatMap { position, found in
                guard found.storedCover != nil else {
                    return .failure(
                        Refusal(
                            kind: .nothingToChange, message: "“\(found.title)” has no stored cover: nothing to remove"))
                }
                let text = "Remove the cover of “\(found.title)”"
                record(text, .cover(before: found, image: nil)) { $0[position - 1].storedCover = nil }
                return .success(
                    Result(command: "cover", step: text, id: found.id, title: found.title, position: position))
            }
        case .repair:
            return .failure(
                Refusal(kind: .nothingToChange, message: "every step of the history applies: nothing to repair"))
        case .replace(let replacement, let file):
            guard replacement != albums.map(\.withoutStoredCover) else {
                return .failure(
                    Refusal(
                        kind: .nothingToChange,
                        message:
                            "\(file): the library already holds exactly these \(albums.count) albums in this order: "
                            + "nothing to replace"))
            }
            let text = "Replace the library with \(replacement.count) album\(replacement.count == 1 ? "" : "s")"
            record(text, .replace) { $0 = replacement }
            return .success(Result(command: "import", step: text, count: replacement.count))
        }
    }

    /// Records a step that changes the albums as `change` does: a new child of the current state
    /// (the undone steps stay, as a branch).
    mutating func record(_ text: String, _ kind: Change, _ change: (inout [Album]) -> Void) {
        let before = albums
        change(&albums)
        let node = (steps.keys.max() ?? 0) + 1
        steps[node] = Step(text: text, parent: current, before: before, after: albums, author: author, change: kind)
        lastChild[current] = node
        current = node
    }

    /// The album a reference names now, and its position, or the refusal `albums` prints.
    private func find(_ reference: CheckerOperation.Reference) -> Swift.Result<(Int, Album), Refusal> {
        switch reference {
        case .position(let position):
            guard position >= 1, position <= albums.count else {
                return .failure(outOfRange(position, limit: albums.count))
            }
            return .success((position, albums[position - 1]))
        case .id(let id):
            guard let offset = albums.firstIndex(where: { $0.id == id }) else {
                return .failure(Refusal(kind: .albumNotFound, message: "no album has the id \(id.uuidString)"))
            }
            return .success((offset + 1, albums[offset]))
        case .title(let title):
            // The exact title first; else the title with case and accents aside; else suggestions.
            let exact = albums.enumerated().filter { $0.element.title == title }.map { ($0.offset + 1, $0.element) }
            if exact.count > 1 { return .failure(ambiguous(title, exact, rule: " “\(title)”")) }
            if let found = exact.first { return .success(found) }
            let folded = Self.folded(title)
            let like = albums.enumerated().filter { Self.folded($0.element.title) == folded }
                .map { ($0.offset + 1, $0.element) }
            if like.count > 1 {
                return .failure(ambiguous(title, like, rule: " like “\(title)” (case and accents aside)"))
            }
            if let found = like.first { return .success(found) }
            // Within a third of the name's length (at least 1) in edits, nearest first, at most three.
            let query = Array(folded.unicodeScalars)
            let limit = max(1, query.count / 3)
            let near = albums.enumerated()
                .map {
                    (
                        distance: Self.distance(query, Array(Self.folded($0.element.title).unicodeScalars)),
                        $0.offset + 1, $0.element
                    )
                }
                .filter { $0.distance <= limit }
                .sorted { ($0.distance, $0.1) < ($1.distance, $1.1) }
                .prefix(3)
                .map { "“\($0.2.title)” (position \($0.1))" }
            let suggestion =
                near.isEmpty
                ? ""
                : "; did you mean "
                    + (near.count == 1 ? near[0] : near.dropLast().joined(separator: ", ") + " or " + near.last!) + "?"
            return .failure(Refusal(kind: .albumNotFound, message: "no album is titled “\(title)”" + suggestion))
        }
    }

    private func ambiguous(_ title: String, _ found: [(Int, Album)], rule: String) -> Refusal {
        let shown = found.prefix(5).map { "\($0.0) (id \($0.1.id.uuidString))" }
        let more = found.count > 5 ? ", and \(found.count - 5) more" : ""
        return Refusal(
            kind: .ambiguousTitle,
            message: "\(found.count) albums are titled\(rule): positions " + shown.joined(separator: ", ") + more
                + "; name one by position or id")
    }

    /// A title as albums compares titles forgivingly: without case, accents or width.
    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// The Levenshtein distance over Unicode scalars, the whole table (the model's own, plainest form).
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                table[i][j] = min(
                    table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
        }
        return table[a.count][b.count]
    }

    /// "1 album", "3 albums", as the bulk steps' texts count them.
    private static func count(_ number: Int) -> String { number == 1 ? "1 album" : "\(number) albums" }

    /// Whether a query `genre:G` matches: the genre contains G, ignoring ASCII case (the pools'
    /// genres are ASCII, where the library's folding is lowercasing).
    private static func genre(_ album: Album, contains genre: String) -> Bool {
        album.genre.lowercased().contains(genre.lowercased())
    }

    private func noMatch(_ genre: String) -> Refusal {
        Refusal(kind: .albumNotFound, message: "no album matches ‘genre:\(genre)’")
    }

    private func outOfRange(_ position: Int, limit: Int) -> Refusal {
        Refusal(
            kind: .positionOutOfRange,
            message: limit == 0
                ? "position \(position) is out of range: the library is empty"
                : "position \(position) is out of range (1...\(limit))")
    }
}

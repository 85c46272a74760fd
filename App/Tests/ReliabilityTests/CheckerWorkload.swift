import AlbumLibrary
import Foundation
import TestSupport

/// Draws the history checker's scripts: for each process, operations from every mutating
/// subcommand, with every selector kind, from a seed alone (given the library's first albums).
///
/// Values come from small pools so that the interesting cases happen by themselves: titles shared
/// by several albums (an ambiguous title is refused), edits to the values an album already has
/// (refused as no-ops), positions past the end, ids no longer (or never) in the library, undo and
/// redo counts larger than the history, imports of an id the library holds.
struct CheckerWorkload {
    private var generator: SplitMix64
    private let folder: URL
    /// Ids worth naming: the first albums' and every imported album's (drawn here, so known).
    private var ids: [UUID]
    private var titles: [String]
    private var importCount = 0
    private var fileCount = 0
    /// Processes whose next operation is a redo mine: most undo mines are plain undos (the step is
    /// the last), so a redo mine drawn at random rarely finds a revert of its author's to redo.
    private var redoMineNext: Set<Int> = []
    /// The albums `cover set` named so far, for removals worth trying.
    private var covered: [CheckerOperation.Reference] = []

    static let sharedTitles = ["Blue", "Red", "Green"]
    static let artists = ["Ann", "Bob"]
    static let genres = ["", "Pop", "Jazz"]
    /// What bulk changes' queries look for: "o" is in Pop and in no Jazz, "zz" in Jazz only.
    static let queryGenres = ["pop", "Jazz", "o", "zz", "Rock"]
    static let years = ["1999", "2001", ""]
    static let covers = ["https://example.com/a.jpg", ""]
    /// The images `cover set` stores: small, of valid magic numbers (PNG, JPEG, GIF).
    static let coverImages: [Data] = [
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("checker png".utf8)),
        Data([0xFF, 0xD8, 0xFF, 0xE0] + Array("checker jpeg".utf8)),
        Data(Array("GIF89a".utf8) + Array("checker gif".utf8)),
    ]
    /// Their content hashes, as the library names them (`list --json`'s `storedCover.hash`).
    static let coverHashes: [String] = coverImages.map { (try? CoverImage(bytes: $0))?.hash ?? "" }

    init(seed: UInt64, folder: URL, initial: [LibraryModel.Album]) {
        generator = SplitMix64(seed: seed)
        self.folder = folder
        ids = initial.map(\.id)
        titles = initial.map(\.title) + Self.sharedTitles + ["Nowhere"]
    }

    /// Each process's operations, drawn in turns so that a process may name what another imports.
    mutating func scripts(processes: Int, operations: Int) -> [[CheckerOperation]] {
        var scripts = [[CheckerOperation]](repeating: [], count: processes)
        for number in 0..<operations {
            for process in 0..<processes {
                scripts[process].append(operation(process: process, number: number))
            }
        }
        return scripts
    }

    /// Whether the library is on a PostgreSQL server: no operation that needs a library file is drawn.
    var onServer = false

    private mutating func operation(process: Int, number: Int) -> CheckerOperation {
        while true {
            let drawn = draw(process: process, number: number)
            if !onServer || !drawn.needsLibraryFile { return drawn }
        }
    }

    private mutating func draw(process: Int, number: Int) -> CheckerOperation {
        if redoMineNext.remove(process) != nil { return .redoMine }
        // Stored covers: one of a few images (now and then the one the album has: refused), or a removal.
        // A removal names, most of the time, an album a cover was set on (else it is mostly refused).
        if roll(100) < 10 {
            if roll(5) < 2 {
                return .removeCover(!covered.isEmpty && roll(4) > 0 ? pick(covered) : reference())
            }
            let image = roll(Self.coverImages.count)
            let album = reference()
            covered.append(album)
            return .setCover(album, image: image, file: folder.appendingPathComponent("cover-\(image).img").path)
        }
        // Bulk changes, one step each: several references (a repeat now and then), or a query.
        if roll(100) < 10 {
            switch roll(3) {
            case 0: return .deleteAlbums((0..<(2 + roll(2))).map { _ in reference() })
            case 1:
                var fields = CheckerOperation.Fields()
                switch roll(3) {
                case 0: fields.genre = pick(Self.genres)
                case 1: fields.year = pick(Self.years)
                default: fields.artist = pick(Self.artists)
                }
                return .editMatching(genre: pick(Self.queryGenres), fields)
            default: return .moveMatching(genre: pick(Self.queryGenres), to: 1 + roll(9))
            }
        }
        switch roll(100) {
        case 0..<12:
            let title = roll(10) < 6 ? pick(Self.sharedTitles) : "P\(process) \(number)"
            if !titles.contains(title) { titles.append(title) }
            return .add(
                title: title, artist: pick(Self.artists), genre: roll(3) == 0 ? pick(Self.genres) : nil,
                at: roll(2) == 0 ? 1 + roll(9) : nil)
        case 12..<28:
            var fields = CheckerOperation.Fields()
            // One or two fields, each from a small pool: now and then what the album has already.
            for _ in 0..<(1 + roll(2)) {
                switch roll(5) {
                case 0: fields.title = pick(Self.sharedTitles)
                case 1: fields.artist = pick(Self.artists)
                case 2: fields.genre = pick(Self.genres)
                case 3: fields.year = pick(Self.years)
                default: fields.cover = pick(Self.covers)
                }
            }
            return .edit(reference(), fields)
        case 28..<42: return .move(reference(), to: 1 + roll(9))
        case 42..<52: return .delete(reference())
        case 52..<57:
            if roll(5) < 3 { redoMineNext.insert(process) }
            return .undoMine
        case 57..<59: return .redoMine
        case 59..<65: return .undo(count())
        // A step of the tree by number: most exist by then, some not (yet), 0 is the start.
        case 65..<72: return .undoTo(roll(2 + 3 * number))
        case 72..<84: return .redo(count())
        case 84..<86: return .repair
        case 86..<95:
            var albums = (0..<(1 + roll(3))).map { _ in newAlbum() }
            // Now and then an id the library may hold (refused when it does), never twice in a file.
            let known = pick(ids)
            if roll(5) == 0, !albums.contains(where: { $0.id == known }) { albums[roll(albums.count)].id = known }
            // Now and then a duplicate within the file, in other case (skipped, and counted).
            if roll(4) == 0 {
                var copy = albums[0]
                copy.id = uuid()
                copy.title = copy.title.uppercased()
                ids.append(copy.id)
                albums.append(copy)
            }
            return .importAlbums(albums, file: nextFile())
        default:
            // A replacement of 0 to 6 albums; ids may repeat the library's.
            var albums = (0..<roll(7)).map { _ in newAlbum() }
            for offset in albums.indices where roll(4) == 0 {
                albums[offset].id = pick(ids)
            }
            var seen = Set<UUID>()
            albums = albums.filter { seen.insert($0.id).inserted }
            return .replace(albums, file: nextFile())
        }
    }

    private mutating func reference() -> CheckerOperation.Reference {
        switch roll(10) {
        case 0..<4: return .position(1 + roll(9))
        case 4..<7: return roll(6) == 0 ? .id(uuid()) : .id(pick(ids))
        // Half the time a shared title, which several albums may have; now and then in lower case
        // (matched with case aside when no title is exact) or mistyped (refused with suggestions).
        default:
            let title = roll(2) == 0 ? pick(Self.sharedTitles) : pick(titles)
            switch roll(6) {
            case 0: return .title(title.lowercased())
            case 1: return .title(String(title.dropLast()))
            default: return .title(title)
            }
        }
    }

    private mutating func count() -> Int {
        [1, 1, 1, 1, 1, 1, 2, 2, 3][roll(9)]
    }

    private mutating func newAlbum() -> LibraryModel.Album {
        importCount += 1
        let album = LibraryModel.Album(
            id: uuid(), title: roll(3) == 0 ? pick(Self.sharedTitles) : "Imported \(importCount)",
            artist: pick(Self.artists), genre: pick(Self.genres), year: roll(2) == 0 ? 1990 + roll(30) : nil,
            cover: roll(4) == 0 ? Self.covers[0] : nil)
        ids.append(album.id)
        if !titles.contains(album.title) { titles.append(album.title) }
        return album
    }

    private mutating func nextFile() -> String {
        fileCount += 1
        return folder.appendingPathComponent("import-\(fileCount).json").path
    }

    private mutating func roll(_ bound: Int) -> Int {
        Int(generator.next() % UInt64(bound))
    }

    private mutating func pick<T>(_ values: [T]) -> T {
        values[roll(values.count)]
    }

    /// A UUID drawn from the seed (version 4 bits set, as `UUID()` makes them).
    private mutating func uuid() -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for half in 0..<2 {
            let value = generator.next()
            for byte in 0..<8 { bytes[half * 8 + byte] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(byte))) }
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}

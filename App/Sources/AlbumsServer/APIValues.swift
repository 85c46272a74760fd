import AlbumLibrary
import Foundation

// The JSON the API reads and writes (README, "albums serve").

/// An album as the API shows it, with its position.
struct AlbumJSON: Encodable, Sendable {
    var id: String
    var position: Int
    var title: String
    var artist: String
    var genre: String
    var year: Int?
    var cover: String?
    /// The image stored in the library (served at `/covers/{id}`), if any: media type, size, hash.
    var storedCover: CoverSummary?

    init(_ album: Album, position: Int, storedCover: CoverSummary? = nil) {
        id = album.id.uuidString
        self.position = position
        title = album.title
        artist = album.artist
        genre = album.genre
        year = album.year
        cover = album.coverURL?.absoluteString
        self.storedCover = storedCover
    }
}

/// A step the page can undo or redo: its identity (to hand back as `expecting`) and its title.
struct StepJSON: Encodable, Sendable {
    var id: String
    var title: String
    var text: String
    var author: String?
}

/// `GET /api/state`: a window of albums and the history's state, all from one snapshot.
struct StateJSON: Encodable, Sendable {
    var revision: Int
    var count: Int
    var offset: Int
    var albums: [AlbumJSON]
    var undo: StepJSON?
    var redo: StepJSON?
    var author: String
    var search: String?
    var history: [HistoryStepJSON]
    /// What "undo mine" and "redo mine" would do for the author the request names (`mine=1`).
    var mine: MineJSON?
}

/// `GET /api/state`'s `mine`: what the author's own undo and redo would do now (a label only: the
/// real call decides again inside its transaction).
struct MineJSON: Encodable, Sendable {
    var author: String
    var undo: MineStepJSON
    var redo: MineStepJSON
}

/// One "undo mine" or "redo mine" preview: the history text of the change it would take back or
/// do again, or the one-line reason it would be refused (nothing of the author's, or a later
/// change of someone else's that touched the same album parts).
struct MineStepJSON: Encodable, Sendable, Hashable {
    var text: String?
    var refused: String?
    var code: String?

    init(_ preview: LibrarySession.MinePreview) {
        switch preview {
        case .change(let text):
            self.text = text
        case .refused(let error):
            refused = error.message
            code = error.code.rawValue
        }
    }
}

/// One line of the history panel.
struct HistoryStepJSON: Encodable, Sendable {
    var number: Int
    var text: String
    var author: String?
    var time: Double?
    var done: Bool
}

/// What a change did: the step it recorded (or undid), the album, the revision it committed, and
/// who made it.
struct ChangeJSON: Encodable, Sendable {
    var revision: Int
    var message: String
    var steps: [String]
    var album: AlbumJSON?
    /// The author recorded with the change (for the `-mine` routes, whose step it undid or redid).
    var author: String
    /// The `-mine` routes: the history text of the author's step undone or done again, as the
    /// CLI's `undo --mine --json` names it.
    var step: String?
    /// The `-mine` routes: how (`reverted`: a new step taking back an older one, the later ones
    /// kept; `undone`, `redone`: the last step, plainly), and the original step's number when known.
    var how: String?
    var stepNumber: Int?
}

/// `POST /api/albums`.
struct AddRequest: Decodable {
    var title: String
    var artist: String
    var genre: String?
    var year: Int?
    var cover: String?
    /// The album to add it after (its id); at the end when absent.
    var after: String?
    var author: String?
}

/// `PATCH /api/albums/{id}`: only the fields present change; `year` or `cover` null removes it.
struct EditRequest: Decodable {
    var changes = AlbumChanges()
    var coverText: String?
    var author: String?

    private enum Keys: String, CodingKey { case title, artist, genre, year, cover, author }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        changes.title = try container.decodeIfPresent(String.self, forKey: .title)
        changes.artist = try container.decodeIfPresent(String.self, forKey: .artist)
        changes.genre = try container.decodeIfPresent(String.self, forKey: .genre)
        if container.contains(.year) {
            if try container.decodeNil(forKey: .year) {
                changes.removesYear = true
            } else {
                changes.year = try container.decode(Int.self, forKey: .year)
            }
        }
        if container.contains(.cover) {
            if try container.decodeNil(forKey: .cover) {
                changes.removesCoverURL = true
            } else {
                let text = try container.decode(String.self, forKey: .cover)
                if text.isEmpty { changes.removesCoverURL = true } else { coverText = text }
            }
        }
        author = try container.decodeIfPresent(String.self, forKey: .author)
    }
}

/// `POST /api/albums/{id}/move`.
struct MoveRequest: Decodable {
    var to: Int
    var author: String?
}

/// `POST /api/undo`, `/api/redo` (`expecting`: the step the page shows), and the `-mine` forms.
struct StepRequest: Decodable {
    var expecting: String?
    var author: String?
}

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
}

/// One line of the history panel.
struct HistoryStepJSON: Encodable, Sendable {
    var number: Int
    var text: String
    var author: String?
    var time: Double?
    var done: Bool
}

/// What a change did: the step it recorded (or undid), the album, and the revision it committed.
struct ChangeJSON: Encodable, Sendable {
    var revision: Int
    var message: String
    var steps: [String]
    var album: AlbumJSON?
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

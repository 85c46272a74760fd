extension AlbumFile {
    /// One album as the exchange format writes it: every field, `null` when empty (as
    /// `albums list --json` prints it), so an export shows every key a file may carry.
    struct Record: Encodable {
        var album: Album

        enum CodingKeys: String, CodingKey {
            case id, title, artist, genre, year, cover
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(album.id, forKey: .id)
            try container.encode(album.title, forKey: .title)
            try container.encode(album.artist, forKey: .artist)
            try container.encode(album.genre, forKey: .genre)
            try container.encode(album.year, forKey: .year)
            try container.encode(album.coverURL, forKey: .cover)
        }
    }
}

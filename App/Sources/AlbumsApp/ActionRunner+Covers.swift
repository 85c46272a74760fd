import AlbumLibrary
import Foundation

// `albums cover set|remove|export`: the image is read and checked before the change, which
// then resolves its album inside the write transaction (LibrarySession.setCover).

extension ActionRunner {
    func setCover(_ album: AlbumReference, file: String) throws {
        let bytes: Data
        do {
            // Never the library or a companion: not an image, and reading it with a descriptor of
            // this process's own would drop the locks SQLite holds on it.
            try UserFile.requireNotPartOfLibrary(file, library: session.path)
            bytes = try UserFile.contents(
                atPath: file, limit: CoverImage.maximumByteCount,
                tooLarge: { size in
                    "it holds \(UserFile.describeSize(size)), more than the 10 MiB a stored cover may have"
                })
        } catch {
            throw LibraryError(.invalidValue, "cannot read the cover \(file): \(error.reason)")
        }
        let image: CoverImage
        do {
            image = try CoverImage(bytes: bytes)
        } catch {
            throw LibraryError(error.code, "\(file): \(error.message)")
        }
        let change = try session.setCover(album, to: image)
        report(
            ChangeResult(
                command: "cover", step: change.command.text, id: change.album.id, title: change.album.title,
                position: change.position),
            "Set the cover of \(DisplayText.quoted(change.album.title)) (position \(change.position)): "
                + "\(image.mediaType), \(UserFile.describeSize(image.bytes.count))")
    }

    /// Writes the stored image as `export` writes albums: never onto the library or a companion,
    /// only over a regular file, through a temporary file renamed over it (a new file is 0600).
    func exportCover(_ album: AlbumReference, to file: String, force: Bool) throws {
        var found: (album: Album, image: CoverImage?)?
        try session.library.inOneSnapshot {
            let row = try session.library.find(album)
            found = (row.album, try session.library.cover(of: row.album.id))
        }
        guard let found else { return }
        guard let image = found.image else {
            throw LibraryError(.invalidValue, "“\(found.album.title)” has no stored cover to export")
        }
        do {
            try UserFile.checkExportDestination(file, library: session.path, force: force)
            try UserFile.replaceContents(atPath: file, with: image.bytes)
        } catch {
            throw LibraryError(
                .storage, "cannot export the cover to \(file): \(error.reason); the file was not changed")
        }
        if options.json {
            struct Exported: Encodable {
                var command = "cover"
                var file: String
                var id: UUID
                var mediaType: String
                var byteCount: Int
                var hash: String
            }
            console.write(
                AlbumFormatter.json(
                    Exported(
                        file: file, id: found.album.id, mediaType: image.mediaType, byteCount: image.bytes.count,
                        hash: image.hash)))
        } else {
            console.write(
                "Exported the cover of \(DisplayText.quoted(found.album.title)) to \(DisplayText.sanitized(file)) "
                    + "(\(image.mediaType), \(UserFile.describeSize(image.bytes.count)))\n")
        }
    }
}

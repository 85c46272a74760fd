import AlbumLibrary
import Foundation

/// One fuzz case: the input as an import file, read by `AlbumFile.decode`.
///
/// Any bytes must either decode or throw a `LibraryError`; what decodes must survive an export and
/// a second import unchanged (the format's round-trip promise). A crash, a hang or a round trip
/// that changes an album is a bug.
enum AlbumImportFuzzer {
    static func run(_ bytes: [UInt8]) {
        let albums: [Album]
        do {
            albums = try AlbumFile.decode(Data(bytes))
        } catch {
            guard !error.message.isEmpty else { fatalError("a library error without a message") }
            return
        }
        let exported = AlbumFile.encode(albums)
        do {
            let again = try AlbumFile.decode(exported)
            guard again == albums else {
                fatalError("export then import changed the albums:\n\(albums)\n→\n\(again)")
            }
        } catch {
            fatalError("an export does not import again: \(error)\n\(String(decoding: exported, as: UTF8.self))")
        }
    }
}

// The album library across launches: the example of AlbumLibrary's landing page
// (AlbumLibrary.docc/AlbumLibrary.md). Deleted albums stay deleted, and Delete can be undone
// by the next process.
import AlbumLibrary
import Foundation

let folder = FileManager.default.temporaryDirectory.appending(path: "albums-\(UUID().uuidString)")
let path = folder.appending(path: "library.sqlite").path
defer { try? FileManager.default.removeItem(at: folder) }

// The first launch: open (creating the file), add two albums, delete one.
do {
    let session = try LibrarySession.open(path: path)
    try session.add(Album(title: "Blue", artist: "Joni Mitchell", year: 1971))
    try session.add(Album(title: "Kind of Blue", artist: "Miles Davis", year: 1959))
    let deleted = try session.delete(.position(1))
    print(deleted.command.text, try session.library.count())  // Delete “Blue” 1
}

// The next launch: the album is still deleted, and its Delete can still be undone.
do {
    let session = try LibrarySession.open(path: path)
    print(session.undoText ?? "nothing to undo")  // Delete “Blue”
    print(try session.undo())  // ["Delete “Blue”"]
    print(try session.library.albums().map(\.title))  // ["Blue", "Kind of Blue"]
}

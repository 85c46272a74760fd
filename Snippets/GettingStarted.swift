// First steps with CommandKit: the examples of "Getting Started"
// (CommandKit.docc/Articles/GettingStarted.md).
import CommandKit

// MARK: A receiver and a command

final class Library {
    var albums: [String] = []

    func rename(at index: Int, to title: String) { albums[index] = title }
}

struct AddAlbum: Command {
    let library: Library
    let title: String

    func execute() { library.albums.append(title) }
}

// MARK: Running commands

let library = Library()
let report = await Invoker {
    AddAlbum(library: library, title: "Blue")
    AddAlbum(library: library, title: "Kind of Blue")
}.run()
print(report.isSuccess, library.albums)  // true ["Blue", "Kind of Blue"]

// MARK: When a command fails

struct LibraryFull: Error {}

struct AddAlbumChecked: Command {
    let library: Library
    let title: String
    let capacity: Int

    func execute() throws {
        guard library.albums.count < capacity else { throw LibraryFull() }
        library.albums.append(title)
    }
}

let checked = await Invoker {
    AddAlbumChecked(library: library, title: "Hejira", capacity: 3)
    AddAlbumChecked(library: library, title: "Court and Spark", capacity: 3)  // throws: full
    AddAlbum(library: library, title: "Mingus")  // skipped
}.run()
print(checked)
// #0 AddAlbumChecked: succeeded
// #1 AddAlbumChecked: failed (LibraryFull())
// #2 AddAlbum: skipped

// MARK: A method call as a value

var call = Invocation(target: library, method: Library.rename(at:to:), arguments: (0, "Blue (Remastered)"))
call.arguments.1 = "Blue (2007)"  // change an argument before the call is made
try call.invoke()
print(library.albums[0])  // Blue (2007)

// MARK: Undo

struct RenameAlbum: UndoCommand {
    let library: Library
    let index: Int
    let newTitle: String
    var oldTitle = ""

    var text: String { "Rename Album" }

    mutating func redo() throws {
        oldTitle = library.albums[index]
        library.albums[index] = newTitle
    }

    mutating func undo() throws {
        library.albums[index] = oldTitle
    }
}

let history = UndoStack()
try history.push(RenameAlbum(library: library, index: 1, newTitle: "Kind of Blue (Legacy)"))
print(history.undoText, library.albums[1])  // Rename Album Kind of Blue (Legacy)
try history.undo()
print(history.redoText, library.albums[1])  // Rename Album Kind of Blue

// MARK: Work off the caller

struct ExportLibrary: AsyncCommand, Sendable {
    let titles: [String]

    func execute() async throws {
        print("exported \(titles.count) albums")
    }
}

let queue = CommandQueue()
let titles = library.albums  // commands cross into the queue's domain: Sendable values only
let export = queue.enqueue(ExportLibrary(titles: titles))  // returns at once
let count = queue.enqueue { titles.count }  // a closure with a result
try await export.value  // wait for one command (rethrows its error)
print(try await count.value)  // 3
try await queue.waitUntilIdle()  // or for everything enqueued so far

// Undo and redo with CommandKit: the examples of "Undo and Redo"
// (CommandKit.docc/Articles/UndoAndRedo.md) and of the UndoStack half of
// "The Command Pattern in Swift".
import CommandKit

// MARK: Command objects

final class Library {
    var albums = ["Abbey Road", "Blue", "Kind of Blue"]
}

struct DeleteAlbum: UndoCommand {
    let library: Library
    let index: Int
    var deleted = ""

    var text: String { "Delete Album" }
    mutating func redo() throws { deleted = library.albums.remove(at: index) }
    mutating func undo() throws { library.albums.insert(deleted, at: index) }
}

let library = Library()
let stack = UndoStack()
let undoButton = stack.makeUndoControl()  // disabled: nothing to undo

try stack.push(DeleteAlbum(library: library, index: 1))  // runs redo(): "Blue" is deleted
print(undoButton.title, undoButton.isEnabled)  // Undo Delete Album true
undoButton.sendAction()  // undo(): "Blue" is back at index 1
print(undoButton.isEnabled)  // false

try stack.redo()  // "Blue" is deleted again
try stack.push(DeleteAlbum(library: library, index: 0))
print(stack.count, stack.index, stack.undoText)  // 2 2 Delete Album
try stack.setIndex(0)  // undo both: back to the start
print(library.albums)  // ["Abbey Road", "Blue", "Kind of Blue"]

// MARK: Merging consecutive commands

final class Document {
    var text = ""
}

struct Typing: UndoCommand {
    let document: Document
    var typed: String

    var text: String { "Typing" }
    var mergeID: Int? { 1 }  // any non-nil ID shared by commands that may merge

    mutating func redo() throws { document.text += typed }
    mutating func undo() throws { document.text.removeLast(typed.count) }

    mutating func merge(with other: Typing) -> Bool {
        guard other.typed != " ", !typed.hasSuffix(" ") else { return false }  // words are steps
        typed += other.typed
        return true
    }
}

let document = Document()
let editor = UndoStack()
for character in "Hello world" {
    try editor.push(Typing(document: document, typed: String(character)))
}
print(editor.count)  // 3: "Hello", " ", "world"
try editor.undo()
print(document.text)  // "Hello "

// MARK: Macros

editor.beginMacro("Replace All")
try editor.push(Typing(document: document, typed: "big "))
try editor.push(Typing(document: document, typed: "world"))
try editor.endMacro()
print(editor.undoText)  // Replace All
try editor.undo()  // both children, in reverse order: one step

let batch = UndoMacro(
    "Delete 2 Albums",
    children: [
        DeleteAlbum(library: library, index: 2),
        DeleteAlbum(library: library, index: 0),
    ])
try stack.push(batch)
print(library.albums)  // ["Blue"]

// MARK: Clean state and limits

stack.setClean()  // the document was saved here
try stack.undo()
print(stack.isClean)  // false: show "edited" in the title bar
try stack.redo()
print(stack.isClean, stack.cleanIndex ?? -1)  // true 1

let bounded = UndoStack(undoLimit: 100)  // keeps the 100 most recent entries
bounded.setUndoLimit(10)  // may change at any time: the oldest go at once
print(bounded.undoLimit)

// MARK: Registration style (UndoManager's model)

final class Playlist {
    let undo = UndoRegistry()
    private(set) var songs: [String] = []

    func insert(_ song: String, at index: Int) {
        songs.insert(song, at: index)
        undo.registerUndo(withTarget: self) { $0.remove(at: index) }
        undo.setActionName("Add Song")
    }

    func remove(at index: Int) {
        let song = songs.remove(at: index)
        undo.registerUndo(withTarget: self) { $0.insert(song, at: index) }
        undo.setActionName("Remove Song")
    }
}

let playlist = Playlist()
playlist.insert("So What", at: 0)
playlist.undo.beginUndoGrouping()
playlist.insert("Blue in Green", at: 1)
playlist.insert("Freddie Freeloader", at: 1)
try playlist.undo.endUndoGrouping()
print(playlist.undo.undoMenuItemTitle)  // Undo Add Song
try playlist.undo.undo()  // removes both songs of the group
try playlist.undo.redo()  // what undo registered is the redo
print(playlist.songs)  // ["So What", "Freddie Freeloader", "Blue in Green"]

// MARK: Observing a history

let stream = stack.changes  // subscribed now: no change made before the task runs is missed
let changes = Task { @MainActor in
    for await change in stream where change.canUndoChanged {
        print("can undo:", change.new.canUndo)
    }
}
let token = stack.addChangeHandler { change in  // synchronous, after each change
    if change.cleanChanged { print("edited:", !change.new.isClean) }
}
print(stack.model.canUndo, stack.model.undoText)  // an @Observable mirror for SwiftUI
changes.cancel()
stack.removeChangeHandler(token)

let group = UndoGroup()  // one stack per open document, one pair of controls for all
group.addStack(stack)
group.addStack(editor)
group.setActiveStack(editor)
let groupUndo = group.makeUndoControl()
print(groupUndo.title)  // Undo Typing: follows the editor's stack

// MARK: One interface for every history

/// Edit-menu code written once, for an UndoStack or a durable history alike.
func editMenu(for history: some UndoHistory) -> [ActionControl] {
    [
        history.makeUndoControl { print("could not undo:", $0) },
        history.makeRedoControl { print("could not redo:", $0) },
    ]
}

let menu = editMenu(for: stack)
print(menu[0].title, menu[1].title)

func undoTwice(_ history: some UndoHistory) throws {
    let undone = try history.undo(steps: 2)  // both or neither
    print(undone.count)  // 2
}

try stack.push(DeleteAlbum(library: library, index: 0))
try stack.push(DeleteAlbum(library: library, index: 0))
let shown = stack.undoRecord  // what the Undo button shows
try stack.undo(steps: 1, expecting: shown?.id)  // that step, or nothing
try stack.redo()
try undoTwice(stack)

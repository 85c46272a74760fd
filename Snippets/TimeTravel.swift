// Time travel with CommandKit: the example of "Time travel"
// (CommandKit.docc/Articles/TimeTravel.md), compiled.
import CommandKit

final class Setlist {
    var tunes: [String] = []
}

struct AddTune: UndoCommand {
    let setlist: Setlist
    let title: String

    var text: String { "Add \(title)" }
    func redo() throws { setlist.tunes.append(title) }
    func undo() throws { setlist.tunes.removeLast() }
}

let setlist = Setlist()
let stack = UndoStack(keepsBranches: true)
try stack.push(AddTune(setlist: setlist, title: "So What"))  // node 1
try stack.push(AddTune(setlist: setlist, title: "Blue in Green"))  // node 2
try stack.undo()
try stack.push(AddTune(setlist: setlist, title: "All Blues"))  // node 3; node 2 is parked
print(setlist.tunes, stack.currentNode)  // ["So What", "All Blues"] 3
let jump = try stack.jump(to: HistoryNode.ID(2))
print(setlist.tunes)  // ["So What", "Blue in Green"]
print(jump.undone.map(\.text), jump.redone.map(\.text))  // ["Add All Blues"] ["Add Blue in Green"]

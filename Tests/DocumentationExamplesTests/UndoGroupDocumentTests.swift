// The document example of "Undo and Redo" (CommandKit.docc/Articles/UndoAndRedo.md), under
// "Buttons, menus and observers": a document owns its stack, its commands hold it unowned, and a
// closed document's stack leaves its group (issue 25: the examples held their receiver strongly,
// which kept a closed document's stack, active, in the group).
import CommandKit
import Testing

final class Sheet {
    var cells: [String: Double] = [:]
    let undoStack = UndoStack()  // the sheet owns its history
}

struct SetCell: UndoCommand {
    unowned let sheet: Sheet  // not strong: the sheet owns the stack that keeps this command
    let name: String
    let value: Double
    var previous: Double?

    var text: String { "Set \(name)" }

    mutating func redo() {
        previous = sheet.cells[name]
        sheet.cells[name] = value
    }

    func undo() { sheet.cells[name] = previous }
}

@Suite struct UndoGroupDocumentTests {
    @Test func aClosedDocumentsStackLeavesTheGroup() throws {
        let group = UndoGroup()
        let groupUndo = group.makeUndoControl()
        var sheet: Sheet? = Sheet()
        if let open = sheet {
            try open.undoStack.push(SetCell(sheet: open, name: "A1", value: 3))
            group.addStack(open.undoStack)
            group.setActiveStack(open.undoStack)
        }
        print(groupUndo.title)  // Undo Set A1
        sheet = nil  // the document is closed: it and its stack are gone
        print(group.activeStack == nil, groupUndo.isEnabled)  // true false

        #expect(sheet == nil && group.activeStack == nil && group.stacks.isEmpty)
        #expect(!groupUndo.isEnabled && groupUndo.title == "Undo")
    }

    /// What a strong reference did: the stack kept its document, and both stayed in the group.
    @Test func aStrongReceiverWouldKeepTheStackActive() throws {
        final class Holder {
            let undoStack = UndoStack()
        }
        struct Strong: UndoCommand {
            let holder: Holder
            var text: String { "Strong" }
            func redo() {}
            func undo() {}
        }
        let group = UndoGroup()
        weak var closed: Holder?
        do {
            let holder = Holder()
            closed = holder
            try holder.undoStack.push(Strong(holder: holder))
            group.addStack(holder.undoStack)
            group.setActiveStack(holder.undoStack)
        }
        #expect(closed != nil && group.activeStack != nil)  // a cycle: never released
        closed?.undoStack.clear()  // breaking the cycle releases both
        #expect(closed == nil && group.activeStack == nil)
    }
}

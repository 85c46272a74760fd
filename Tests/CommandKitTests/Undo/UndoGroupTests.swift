import Testing

@testable import CommandKit

@Suite struct UndoGroupTests {
    private func makeDocuments() -> (UndoGroup, UndoStack, UndoStack, UndoTestDocument, UndoTestDocument) {
        let group = UndoGroup()
        let letter = UndoStack()
        let invoice = UndoStack()
        group.addStack(letter)
        group.addStack(invoice)
        return (group, letter, invoice, UndoTestDocument(), UndoTestDocument())
    }

    @Test func groupFollowsTheActiveStack() throws {
        let (group, letter, invoice, letterDoc, invoiceDoc) = makeDocuments()
        #expect(group.stacks.count == 2)
        #expect(group.activeStack == nil)
        #expect(group.state == .empty && !group.canUndo && group.isClean)

        try letter.push(AppendLine(letterDoc, "Dear"))
        try invoice.push(AppendLine(invoiceDoc, "Item"))
        try invoice.push(AppendLine(invoiceDoc, "Total"))
        try group.undo()  // no active stack: nothing happens
        #expect(invoiceDoc.lines.count == 2 && letterDoc.lines.count == 1)

        group.setActiveStack(invoice)
        #expect(group.state == invoice.state)
        try group.undo()
        #expect(invoiceDoc.lines == ["Item"])
        #expect(letterDoc.lines == ["Dear"])
        #expect(group.canRedo && group.redoText == "Add Line")

        group.setActiveStack(letter)
        try group.undo()
        #expect(letterDoc.lines.isEmpty)
        try group.redo()
        #expect(letterDoc.lines == ["Dear"])
        #expect(group.undoText == "Add Line" && !group.canRedo && !group.isClean)
    }

    @Test func groupEventsReportActiveChangesAndSwitches() throws {
        let (group, letter, invoice, letterDoc, invoiceDoc) = makeDocuments()
        var events: [UndoChange] = []
        group.addChangeHandler { events.append($0) }

        group.setActiveStack(letter)
        #expect(events.map(\.operation) == [.activate])
        try invoice.push(AppendLine(invoiceDoc, "ignored: not active"))
        #expect(events.count == 1)
        try letter.push(AppendLine(letterDoc, "Dear"))
        #expect(events.map(\.operation) == [.activate, .push])
        #expect(events.last?.new.canUndo == true)

        group.setActiveStack(invoice)
        #expect(events.last?.operation == .activate)
        #expect(events.last?.old.index == 1 && events.last?.new.index == 1)

        group.removeStack(invoice)
        #expect(group.activeStack == nil)
        #expect(events.last?.new == .empty)
        #expect(group.stacks.count == 1)
    }

    @Test func groupModelFollowsTheActiveStack() throws {
        let (group, letter, invoice, letterDoc, _) = makeDocuments()
        let model = group.model
        try letter.push(AppendLine(letterDoc, "Dear"))
        #expect(!model.canUndo)
        group.setActiveStack(letter)
        #expect(model.canUndo && model.undoText == "Add Line")
        group.setActiveStack(invoice)
        #expect(!model.canUndo && model.undoText == "")
    }

    @Test func groupReleasesClosedDocuments() throws {
        let group = UndoGroup()
        var stack: UndoStack? = UndoStack()
        group.addStack(stack!)
        group.setActiveStack(stack)
        stack = nil
        #expect(group.stacks.isEmpty)
        #expect(group.activeStack == nil)
        try group.undo()
    }
}

@Suite struct UndoControlTests {
    @Test func undoAndRedoControlsFollowTheStack() throws {
        let stack = UndoStack()
        let doc = UndoTestDocument()
        let undoButton = stack.makeUndoControl()
        let redoButton = stack.makeRedoControl()
        #expect(undoButton.title == "Undo" && !undoButton.isEnabled)
        #expect(redoButton.title == "Redo" && !redoButton.isEnabled)

        try stack.push(AppendLine(doc, "Abbey Road"))
        #expect(undoButton.title == "Undo Add Line" && undoButton.isEnabled)

        #expect(undoButton.sendAction())  // the user clicks Undo
        #expect(doc.lines.isEmpty)
        #expect(undoButton.title == "Undo" && !undoButton.isEnabled)
        #expect(redoButton.title == "Redo Add Line" && redoButton.isEnabled)
        #expect(!undoButton.sendAction())  // disabled: nothing is sent

        #expect(redoButton.sendAction())
        #expect(doc.lines == ["Abbey Road"])

        stack.beginMacro("Paste")  // disabled while a macro is open
        #expect(!undoButton.isEnabled && undoButton.title == "Undo")
        try stack.endMacro()
        #expect(undoButton.title == "Undo Paste")
    }

    @Test func controlReportsErrorsAndCustomPrefix() throws {
        let stack = UndoStack()
        let doc = UndoTestDocument()
        var errors: [any Error] = []
        let undoButton = stack.makeUndoControl(prefix: "Annuler") { errors.append($0) }
        try stack.push(AppendLine(doc, "a"))
        #expect(undoButton.title == "Annuler Add Line")
        doc.failNextCall = true
        undoButton.sendAction()
        #expect(errors.count == 1 && errors.first is UndoTestFailure)
        #expect(undoButton.isEnabled)  // the failed undo left the step in place
    }

    @Test func controlDoesNotKeepTheStackAlive() throws {
        var stack: UndoStack? = UndoStack()
        let undoButton = stack!.makeUndoControl()
        try stack!.push(AppendLine(UndoTestDocument(), "a"))
        weak let weakStack = stack
        stack = nil
        #expect(weakStack == nil)
        #expect(!undoButton.sendAction())
    }

    @Test func groupControlsFollowTheActiveStack() throws {
        let group = UndoGroup()
        let first = UndoStack()
        let second = UndoStack()
        let doc = UndoTestDocument()
        let undoButton = group.makeUndoControl()
        try first.push(AppendLine(doc, "a"))
        #expect(!undoButton.isEnabled)
        group.setActiveStack(first)
        #expect(undoButton.isEnabled && undoButton.title == "Undo Add Line")
        group.setActiveStack(second)
        #expect(!undoButton.isEnabled && undoButton.title == "Undo")
        group.setActiveStack(first)
        undoButton.sendAction()
        #expect(doc.lines.isEmpty)
        #expect(!undoButton.isEnabled)
    }

    @Test func seedToolbarDeleteAndUndo() throws {
        // The seed: a toolbar with Delete and Undo; Undo is enabled only while there is something
        // to undo, and undoing a delete puts the album back at its index.
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
        let undoButton = stack.makeUndoControl()
        #expect(!undoButton.isEnabled)
        try stack.push(DeleteAlbum(library: library, index: 1))
        #expect(library.albums == ["Abbey Road", "Kind of Blue"])
        #expect(undoButton.isEnabled && undoButton.title == "Undo Delete Album")
        undoButton.sendAction()
        #expect(library.albums == ["Abbey Road", "Blue", "Kind of Blue"])
        #expect(!undoButton.isEnabled)
    }
}

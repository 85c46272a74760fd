import Testing

@testable import CommandKit

/// The seed's album library, written with registration-style undo.
private final class AlbumShelf {
    let undo: UndoRegistry
    private(set) var albums: [String] = []
    /// `isUndoing`/`isRedoing` as seen from inside each handler.
    private(set) var seenPhases: [String] = []

    init(undo: UndoRegistry = UndoRegistry()) {
        self.undo = undo
    }

    func insert(_ album: String, at index: Int) {
        albums.insert(album, at: index)
        undo.registerUndo(withTarget: self) { shelf in
            shelf.notePhase()
            shelf.remove(at: index)
        }
        // As with UndoManager, a name set while undoing names the redo step: the usual idiom.
        if !undo.isUndoing { undo.setActionName("Add Album") }
    }

    func remove(at index: Int) {
        let album = albums.remove(at: index)
        undo.registerUndo(withTarget: self) { shelf in
            shelf.notePhase()
            shelf.insert(album, at: index)
        }
        if !undo.isUndoing { undo.setActionName("Delete Album") }
    }

    private func notePhase() {
        seenPhases.append(undo.isUndoing ? "undoing" : undo.isRedoing ? "redoing" : "idle")
    }
}

@Suite struct UndoRegistryTests {
    @Test func whatIsRegisteredWhileUndoingBecomesTheRedo() throws {
        let shelf = AlbumShelf()
        shelf.insert("Abbey Road", at: 0)
        shelf.insert("Blue", at: 1)
        shelf.remove(at: 0)
        #expect(shelf.albums == ["Blue"])
        #expect(shelf.undo.undoMenuItemTitle == "Undo Delete Album")
        #expect(shelf.undo.redoMenuItemTitle == "Redo")
        #expect(shelf.undo.stack.count == 3)

        try shelf.undo.undo()
        #expect(shelf.albums == ["Abbey Road", "Blue"])
        #expect(shelf.undo.redoMenuItemTitle == "Redo Delete Album")
        #expect(shelf.undo.undoMenuItemTitle == "Undo Add Album")
        #expect(shelf.undo.stack.state == state(index: 2, count: 3, undo: "Add Album", redo: "Delete Album"))

        try shelf.undo.redo()
        #expect(shelf.albums == ["Blue"])
        try shelf.undo.undo()
        try shelf.undo.undo()
        try shelf.undo.undo()
        #expect(shelf.albums.isEmpty)
        #expect(!shelf.undo.canUndo && shelf.undo.canRedo)
        try shelf.undo.redo()
        try shelf.undo.redo()
        try shelf.undo.redo()
        #expect(shelf.albums == ["Blue"])
        #expect(
            shelf.seenPhases == [
                "undoing", "redoing", "undoing", "undoing", "undoing", "redoing", "redoing", "redoing",
            ])
        #expect(!shelf.undo.isUndoing && !shelf.undo.isRedoing)
    }

    /// Regression (issue 25): an undo handler calling `undo()` or `redo()` stopped the process
    /// with SIGILL ("a command called back into the stack that is running it"). It is refused with
    /// `reentrantCall`, and the undo running completes with the history as without the call.
    @Test func undoOrRedoFromInsideAHandlerIsRefusedAndTheHistoryIsUnchanged() throws {
        final class Notes {
            let undo = UndoRegistry()
            var lines: [String] = []
            var refusals: [UndoError.Code] = []

            func add(_ line: String) {
                lines.append(line)
                undo.registerUndo(withTarget: self) { notes in
                    notes.callBack()
                    notes.remove()
                }
                undo.setActionName("Add \(line)")
            }

            func remove() {
                let line = lines.removeLast()
                undo.registerUndo(withTarget: self) { notes in
                    notes.callBack()
                    notes.add(line)
                }
            }

            /// Everything a handler might try against the registry running it.
            func callBack() {
                let calls: [() throws -> Void] = [{ try self.undo.undo() }, { try self.undo.redo() }]
                for call in calls {
                    do { try call() } catch let error as UndoError { refusals.append(error.code) } catch {}
                }
                undo.removeAllActions()  // ignored: the running undo still needs its step
                undo.removeAllActions(withTarget: self)  // ignored
                undo.levelsOfUndo = 1  // ignored
            }
        }
        let notes = Notes()
        notes.add("a")
        notes.add("b")
        try notes.undo.undo()
        #expect(notes.refusals == [.reentrantCall, .reentrantCall])
        #expect(notes.lines == ["a"])
        #expect(notes.undo.stack.state == state(index: 1, count: 2, undo: "Add a", redo: "Add b"))
        #expect(notes.undo.levelsOfUndo == 0 && notes.undo.groupingLevel == 0)
        try notes.undo.redo()
        #expect(notes.refusals.count == 4 && notes.refusals.allSatisfy { $0 == .reentrantCall })
        #expect(notes.lines == ["a", "b"] && notes.undo.stack.index == 2)
        try notes.undo.undo()
        try notes.undo.undo()
        #expect(notes.lines.isEmpty && !notes.undo.canUndo && notes.undo.stack.count == 2)
        notes.undo.removeAllActions()  // its steps hold the notes, which hold it
    }

    /// A command pushed inside a group the caller opened cannot close that group under the push.
    @Test func endingAnOuterGroupFromInsideAPushedCommandIsRefused() throws {
        let registry = UndoRegistry()
        let document = UndoTestDocument()
        var refusal: UndoError.Code?
        registry.beginUndoGrouping()
        // Unowned: the registry's stack holds the command.
        var pushed = RegisteringCommand(document: document) { [unowned registry] in
            do { try registry.endUndoGrouping() } catch let error as UndoError { refusal = error.code } catch {}
        }
        pushed.text = "Import"
        try registry.stack.push(pushed)
        #expect(refusal == .reentrantCall)
        #expect(registry.groupingLevel == 1 && registry.stack.macroDepth == 1)
        try registry.endUndoGrouping()
        #expect(registry.stack.count == 1 && registry.stack.macroDepth == 0 && document.lines == ["imported"])
    }

    @Test func registeringOutsideUndoClearsTheRedoStackButNotDuringRedo() throws {
        let shelf = AlbumShelf()
        shelf.insert("A", at: 0)
        shelf.insert("B", at: 1)
        try shelf.undo.undo()
        #expect(shelf.undo.canRedo)
        try shelf.undo.redo()  // registers during redo: the stack keeps its shape
        #expect(shelf.undo.stack.state == state(index: 2, count: 2, undo: "Add Album"))
        try shelf.undo.undo()
        shelf.insert("C", at: 1)  // a new registration: the redo stack is gone
        #expect(!shelf.undo.canRedo)
        #expect(shelf.undo.stack.state == state(index: 2, count: 2, undo: "Add Album"))
        #expect(shelf.albums == ["A", "C"])
    }

    @Test func nestedGroupsAreOneStep() throws {
        let shelf = AlbumShelf()
        shelf.undo.beginUndoGrouping()
        shelf.insert("A", at: 0)
        shelf.undo.beginUndoGrouping()
        shelf.insert("B", at: 1)
        shelf.insert("C", at: 2)
        try shelf.undo.endUndoGrouping()
        #expect(shelf.undo.groupingLevel == 1)
        #expect(!shelf.undo.canUndo)  // disabled while a group is open
        shelf.undo.setActionName("Import")
        try shelf.undo.endUndoGrouping()
        #expect(shelf.undo.stack.state == state(index: 1, count: 1, undo: "Import"))

        try shelf.undo.undo()
        #expect(shelf.albums.isEmpty)
        #expect(shelf.undo.redoMenuItemTitle == "Redo Import")
        try shelf.undo.redo()
        #expect(shelf.albums == ["A", "B", "C"])

        #expect(throws: UndoError.self) { try shelf.undo.endUndoGrouping() }
    }

    @Test func emptyGroupsLeaveNoStep() throws {
        let registry = UndoRegistry()
        registry.beginUndoGrouping()
        try registry.endUndoGrouping()
        #expect(registry.stack.state == .empty)
    }

    @Test func undoClosesASingleOpenGroupAndRefusesNestedOnes() throws {
        let shelf = AlbumShelf()
        shelf.undo.beginUndoGrouping()
        shelf.insert("A", at: 0)
        try shelf.undo.undo()  // closes the group, then undoes it
        #expect(shelf.albums.isEmpty)
        #expect(shelf.undo.groupingLevel == 0)

        shelf.undo.beginUndoGrouping()
        shelf.undo.beginUndoGrouping()
        shelf.insert("B", at: 0)
        let error = #expect(throws: UndoError.self) { try shelf.undo.undo() }
        #expect(error?.code == .groupOpen)
        #expect(throws: UndoError.self) { try shelf.undo.redo() }
        try shelf.undo.endUndoGrouping()
        try shelf.undo.endUndoGrouping()
        try shelf.undo.undo()
        #expect(shelf.albums.isEmpty)
    }

    @Test func levelsOfUndoDropTheOldestSteps() throws {
        let shelf = AlbumShelf(undo: UndoRegistry(levelsOfUndo: 2))
        for (i, name) in ["A", "B", "C"].enumerated() { shelf.insert(name, at: i) }
        #expect(shelf.undo.levelsOfUndo == 2)
        try shelf.undo.undo()
        try shelf.undo.undo()
        #expect(!shelf.undo.canUndo)
        #expect(shelf.albums == ["A"])
    }

    @Test func disablingRegistrationIsCounted() throws {
        let shelf = AlbumShelf()
        shelf.undo.disableUndoRegistration()
        shelf.undo.disableUndoRegistration()
        shelf.insert("A", at: 0)
        try shelf.undo.enableUndoRegistration()
        shelf.insert("B", at: 1)
        #expect(!shelf.undo.isUndoRegistrationEnabled)
        try shelf.undo.enableUndoRegistration()
        #expect(shelf.undo.isUndoRegistrationEnabled)
        shelf.insert("C", at: 2)
        #expect(shelf.undo.stack.count == 1)
        #expect(throws: UndoError.self) { try shelf.undo.enableUndoRegistration() }
    }

    @Test func removingATargetsActionsRemovesEmptiedSteps() throws {
        let registry = UndoRegistry()
        let first = AlbumShelf(undo: registry)
        let second = AlbumShelf(undo: registry)
        first.insert("A", at: 0)
        second.insert("X", at: 0)
        registry.beginUndoGrouping()
        first.insert("B", at: 1)
        second.insert("Y", at: 1)
        try registry.endUndoGrouping()
        registry.setActionName("Both")
        #expect(registry.stack.count == 3)

        registry.removeAllActions(withTarget: first)
        #expect(registry.stack.state == state(index: 2, count: 2, undo: "Both"))
        try registry.undo()
        #expect(first.albums == ["A", "B"])
        #expect(second.albums == ["X"])
        try registry.undo()
        #expect(second.albums.isEmpty)
        #expect(!registry.canUndo)

        registry.removeAllActions()
        #expect(registry.stack.state == .empty)
    }

    @Test func removingATargetsActionsInsideOpenNestedGroupsKeepsTheOthersInOrder() throws {
        let registry = UndoRegistry()
        let first = AlbumShelf(undo: registry)
        let second = AlbumShelf(undo: registry)
        registry.beginUndoGrouping()
        first.insert("A", at: 0)
        second.insert("X", at: 0)
        registry.beginUndoGrouping()
        first.insert("B", at: 1)
        second.insert("Y", at: 1)
        registry.removeAllActions(withTarget: first)
        // Registered after the removal, into the inner group: it must stay the inner group's.
        second.insert("Z", at: 2)
        try registry.endUndoGrouping()
        try registry.endUndoGrouping()
        #expect(registry.stack.count == 1)

        try registry.undo()
        #expect(second.albums.isEmpty)  // Z, Y, X undone, newest first
        #expect(first.albums == ["A", "B"])  // its actions went
        try registry.redo()
        #expect(second.albums == ["X", "Y", "Z"])
    }

    @Test func actionsOfADeallocatedTargetDoNothing() throws {
        let registry = UndoRegistry()
        var shelf: AlbumShelf? = AlbumShelf(undo: registry)
        shelf?.insert("A", at: 0)
        weak let weakShelf = shelf
        shelf = nil
        #expect(weakShelf == nil)  // the registry does not keep the target alive
        try registry.undo()
        #expect(registry.stack.state == .empty)  // nothing was registered back: the step went
    }

    @Test func registrationStepsAreObservableOnTheStack() throws {
        let shelf = AlbumShelf()
        let events = ChangeRecorder(shelf.undo.stack)
        shelf.insert("A", at: 0)
        // One event for the registration, one for the action name.
        #expect(events.take().map(\.operation) == [.push, .edit])
        try shelf.undo.undo()
        let undo = events.take()
        #expect(undo.map(\.operation) == [.undo])
        #expect(undo.first?.new.redoText == "Add Album")
    }

    @Test func aNameSetWhileUndoingNamesTheRedoStep() throws {
        let registry = UndoRegistry()
        let shelf = AlbumShelf(undo: registry)
        shelf.insert("A", at: 0)
        registry.registerUndo(withTarget: shelf) { shelf in
            registry.registerUndo(withTarget: shelf) { _ in }
            registry.setActionName("Renamed")
        }
        registry.setActionName("Original")
        try registry.undo()
        #expect(registry.redoActionName == "Renamed")
    }

    // MARK: - Parity with UndoManager (issue 13)

    /// Defect 2: a name set while a grouped step is undone names the redo step (it was lost).
    @Test func aNameSetWhileUndoingAGroupNamesTheWholeRedoStep() throws {
        let registry = UndoRegistry()
        let shelf = AlbumShelf(undo: registry)
        registry.beginUndoGrouping()
        registry.registerUndo(withTarget: shelf) { shelf in
            registry.registerUndo(withTarget: shelf) { _ in }
            registry.setActionName("Redo Name")
        }
        registry.registerUndo(withTarget: shelf) { _ in }
        registry.setActionName("Group")
        try registry.endUndoGrouping()
        #expect(registry.undoActionName == "Group")
        try registry.undo()
        #expect(registry.redoActionName == "Redo Name")
    }

    /// Defect 3: registering from inside a command pushed on the same stack joins its step (it trapped).
    @Test func registrationsFromAPushedCommandJoinItsStep() throws {
        let registry = UndoRegistry()
        let shelf = AlbumShelf(undo: registry)
        let document = UndoTestDocument()
        // Weakly: the stack keeps the command, and the shelf keeps the registry (no cycle).
        var pushed = RegisteringCommand(document: document) { [weak shelf] in shelf?.insert("A", at: 0) }
        pushed.text = "Import"
        try registry.stack.push(pushed)
        #expect(shelf.albums == ["A"] && document.lines == ["imported"])
        // One step: the command and what its code registered.
        #expect(registry.stack.undoText == "Import" && registry.stack.count == 2)
        try registry.stack.undo()
        #expect(shelf.albums.isEmpty && document.lines.isEmpty && !registry.canUndo)
        try registry.stack.redo()
        #expect(shelf.albums == ["A"] && document.lines == ["imported"] && registry.stack.index == 2)
        try registry.stack.undo()
        #expect(shelf.albums.isEmpty)
    }

    /// Defect 4: naming before registering (Apple's common order) names the new step, and leaves
    /// the previous step's name alone (it renamed the previous step).
    @Test func aNameGivenBeforeTheRegistrationNamesIt() throws {
        let registry = UndoRegistry()
        let shelf = AlbumShelf(undo: registry)
        registry.setActionName("First")
        registry.registerUndo(withTarget: shelf) { _ in }
        registry.setActionName("Second")
        registry.registerUndo(withTarget: shelf) { _ in }
        #expect(registry.undoActionName == "Second")
        try registry.undo()
        #expect(registry.undoActionName == "First")
        // Register-then-name still names the step just registered.
        registry.registerUndo(withTarget: shelf) { _ in }
        registry.setActionName("Third")
        #expect(registry.undoActionName == "Third")
        // Inside a group, a name given before the registrations names the group.
        registry.setActionName("Grouped")
        registry.beginUndoGrouping()
        registry.registerUndo(withTarget: shelf) { _ in }
        try registry.endUndoGrouping()
        #expect(registry.undoActionName == "Grouped")
    }
}

/// A command object whose code registers undo through a registry while it runs (mixed styles).
private struct RegisteringCommand: UndoCommand {
    let document: UndoTestDocument
    let registering: () -> Void
    var text = "Registering"

    init(document: UndoTestDocument, registering: @escaping () -> Void) {
        self.document = document
        self.registering = registering
    }

    mutating func redo() throws {
        document.lines.append("imported")
        registering()
    }

    mutating func undo() throws {
        document.lines.removeLast()
    }
}

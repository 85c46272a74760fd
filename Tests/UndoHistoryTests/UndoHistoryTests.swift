import CommandKit
import CommandStore
import Testing

/// Every ``UndoHistory`` requirement, once per conformer: the same calls must mean the same on an
/// in-memory stack and on a durable history.
@Suite struct UndoHistoryTests {
    static let conformers = Conformer.available

    @Test(arguments: conformers) func stateFollowsPushUndoAndRedo(_ conformer: Conformer) throws {
        try conformer.withFixture { try Self.stateFollowsPushUndoAndRedo($0) }
    }

    static func stateFollowsPushUndoAndRedo(_ f: some HistoryFixture) throws {
        let h = f.history
        #expect(h.state == .empty && h.isClean && h.cleanIndex == 0 && !h.canUndo && !h.canRedo)
        try f.push("a")
        try f.push("b")
        #expect(h.index == 2 && h.count == 2 && h.canUndo && !h.canRedo)
        #expect(h.undoText == "Add Line" && h.redoText == "" && !h.isClean)
        try h.undo()
        #expect(try f.lines() == ["a"])
        #expect(h.index == 1 && h.canRedo && h.redoText == "Add Line")
        try h.redo()
        #expect(try f.lines() == ["a", "b"])
        #expect(
            h.state == UndoState(index: 2, count: 2, cleanIndex: 0, isClean: false, canUndo: true, undoText: "Add Line")
        )
    }

    @Test(arguments: conformers) func recordsNameTheNextSteps(_ conformer: Conformer) throws {
        try conformer.withFixture { try Self.recordsNameTheNextSteps($0) }
    }

    static func recordsNameTheNextSteps(_ f: some HistoryFixture) throws {
        let h = f.history
        #expect(h.undoRecord == nil && h.redoRecord == nil)
        try f.push("a")
        let first = try #require(h.undoRecord)
        try h.undo()
        #expect(h.undoRecord == nil)
        #expect(h.redoRecord?.id == first.id)
        try h.redo()
        try f.push("b")
        #expect(h.undoRecord?.id != first.id)
        // An entry recorded again at the same position is another step.
        try h.undo()
        try f.push("c")
        #expect(h.undoRecord != nil)
    }

    @Test(arguments: conformers) func undoAndRedoByStepsAreAllOrNothing(_ conformer: Conformer) throws {
        try conformer.withFixture { try Self.undoAndRedoByStepsAreAllOrNothing($0) }
    }

    static func undoAndRedoByStepsAreAllOrNothing(_ f: some HistoryFixture) throws {
        let h = f.history
        for line in ["a", "b", "c"] { try f.push(line) }
        #expect(throws: (any Error).self) { try h.undo(steps: 4) }
        #expect(try f.lines() == ["a", "b", "c"] && h.index == 3)
        do {
            try h.undo(steps: 4)
        } catch {
            #expect(code(of: error) == .nothingToUndo)
        }
        let undone = try h.undo(steps: 2)
        #expect(try undone.count == 2 && f.lines() == ["a"] && h.index == 1)
        do {
            try h.redo(steps: 3)
            Issue.record("redo(steps: 3) of 2 steps succeeded")
        } catch {
            #expect(code(of: error) == .nothingToRedo)
        }
        #expect(h.index == 1)
        let redone = try h.redo(steps: 2)
        #expect(try redone.count == 2 && f.lines() == ["a", "b", "c"])
        // A command failing part of the way: no step stays undone.
        f.failUndo(after: 2)
        #expect(throws: LineFailure.self) { try h.undo(steps: 3) }
        #expect(try f.lines() == ["a", "b", "c"] && h.index == 3)
    }

    @Test(arguments: conformers) func stepsCountSignificantEntries(_ conformer: Conformer) throws {
        try conformer.withFixture { try Self.stepsCountSignificantEntries($0) }
    }

    static func stepsCountSignificantEntries(_ f: some HistoryFixture) throws {
        let h = f.history
        try f.push("a")
        try f.push("selection", significant: false)
        try f.push("b")
        let undone = try h.undo(steps: 2)
        #expect(try undone.map(\.id).count == 2 && f.lines().isEmpty && h.index == 0)
        try h.redo(steps: 1)
        #expect(try f.lines() == ["a", "selection"] && h.index == 2)
    }

    @Test(arguments: conformers) func anExpectationThatNoLongerHoldsIsRefused(_ conformer: Conformer) throws {
        try conformer.withFixture { try Self.anExpectationThatNoLongerHoldsIsRefused($0) }
    }

    static func anExpectationThatNoLongerHoldsIsRefused(_ f: some HistoryFixture) throws {
        let h = f.history
        try f.push("a")
        let shown = try #require(h.undoRecord)
        try f.push("b")
        do {
            try h.undo(steps: 1, expecting: shown.id)
            Issue.record("an undo expecting a step that is no longer on top succeeded")
        } catch {
            #expect(code(of: error) == .historyChanged)
        }
        #expect(try f.lines() == ["a", "b"])
        try h.undo(steps: 1, expecting: h.undoRecord?.id)
        let redoShown = try #require(h.redoRecord)
        try h.redo(steps: 1, expecting: redoShown.id)
        #expect(try f.lines() == ["a", "b"])
    }

    @Test(arguments: conformers) func refusalsMatchOneCodeOnEveryHistory(_ conformer: Conformer) throws {
        try conformer.withFixture { try Self.refusalsMatchOneCodeOnEveryHistory($0) }
    }

    /// Issue 25: generic code matches a refusal by `UndoError.Code`, whichever error type the
    /// history raises (`UndoError` from a stack, `StoreError` from a durable history).
    static func refusalsMatchOneCodeOnEveryHistory(_ f: some HistoryFixture) throws {
        let h = f.history
        try f.push("a")
        let shown = try #require(h.undoRecord)
        try f.push("b")
        var matched: [String] = []
        for attempt in 0..<4 {
            do {
                switch attempt {
                case 0: try h.undo(steps: 1, expecting: shown.id)
                case 1: try h.undo(steps: 3, expecting: nil)
                case 2: try h.redo(steps: 1, expecting: nil)
                default:
                    try h.beginMacro("m")
                    defer { try? h.endMacro() }
                    try h.undo(steps: 1, expecting: nil)
                }
                matched.append("done")
            } catch UndoError.Code.historyChanged {
                matched.append("historyChanged")
            } catch UndoError.Code.nothingToUndo {
                matched.append("nothingToUndo")
            } catch UndoError.Code.nothingToRedo {
                matched.append("nothingToRedo")
            } catch UndoError.Code.macroOpen {
                matched.append("macroOpen")
            }
        }
        #expect(matched == ["historyChanged", "nothingToUndo", "nothingToRedo", "macroOpen"])
        #expect(try f.lines() == ["a", "b"])
        do {
            try h.endMacro()  // the macro closed by the defer above
            Issue.record("endMacro() without an open macro succeeded")
        } catch UndoError.Code.unbalancedGrouping {
        } catch {
            Issue.record("endMacro() without an open macro: \(error)")
        }
    }

    @Test(arguments: conformers) func aStepThatTurnedObsoleteIsSkippedAndRemoved(_ conformer: Conformer) throws {
        try conformer.withFixture { try Self.aStepThatTurnedObsoleteIsSkippedAndRemoved($0) }
    }

    /// Issue 25: a durable history ran a stored step that had turned obsolete once more (redoing
    /// it) before removing it, where a stack skips it. Both now skip it, in either direction.
    static func aStepThatTurnedObsoleteIsSkippedAndRemoved(_ f: some HistoryFixture) throws {
        let h = f.history
        for line in ["a", "b", "c"] { try f.push(line) }
        try h.undo(steps: 2, expecting: nil)
        try f.retire("b")
        try h.redo()
        #expect(try f.lines() == ["a"])  // b was not run again
        #expect(try h.index == 1 && h.count == 2 && h.redoRecord != nil && h.text(at: 1) == "Add c")
        try h.redo()
        #expect(try f.lines() == ["a", "c"] && h.index == 2)
        try f.retire("c")
        try h.undo()
        #expect(try f.lines() == ["a", "c"])  // c's undo was not run
        #expect(try h.index == 1 && h.count == 1 && h.text(at: 0) == "Add a" && !h.canRedo)
    }

    @Test(arguments: conformers) func setIndexJumps(_ conformer: Conformer) throws {
        try conformer.withFixture { try Self.setIndexJumps($0) }
    }

    static func setIndexJumps(_ f: some HistoryFixture) throws {
        let h = f.history
        for line in ["a", "b", "c"] { try f.push(line) }
        try h.setIndex(0)
        #expect(try f.lines().isEmpty && h.index == 0)
        try h.setIndex(99)
        #expect(try f.lines() == ["a", "b", "c"] && h.index == 3)
    }

    /// Defect 5 of issue 13: an open macro counts, as in Qt.
    @Test(arguments: conformers) func aMacroIsOneStepAndCountsWhileOpen(_ conformer: Conformer) throws {
        try conformer.withFixture { try Self.aMacroIsOneStepAndCountsWhileOpen($0) }
    }

    static func aMacroIsOneStepAndCountsWhileOpen(_ f: some HistoryFixture) throws {
        let h = f.history
        try f.push("a")
        try h.beginMacro("Both")
        #expect(h.count == 2 && h.index == 1 && h.macroDepth == 1)
        #expect(try h.text(at: 1) == "Both")
        try f.push("b")
        try f.push("c")
        #expect(h.count == 2 && !h.canUndo && h.undoText == "")
        #expect(try f.text(of: h.command(at: 1)) == "Both")
        try h.endMacro()
        #expect(h.count == 2 && h.index == 2 && h.undoText == "Both" && h.macroDepth == 0)
        try h.undo()
        #expect(try f.lines() == ["a"])
        #expect(throws: (any Error).self) { try h.endMacro() }
    }

    @Test(arguments: conformers) func cleanState(_ conformer: Conformer) throws {
        try conformer.withFixture { try Self.cleanState($0) }
    }

    static func cleanState(_ f: some HistoryFixture) throws {
        let h = f.history
        try f.push("a")
        try h.setClean()
        #expect(h.isClean && h.cleanIndex == 1)
        try h.undo()
        #expect(!h.isClean)
        try h.redo()
        #expect(h.isClean)
        try h.resetClean()
        #expect(!h.isClean && h.cleanIndex == nil)
    }

    @Test(arguments: conformers) func limitAndClear(_ conformer: Conformer) throws {
        try conformer.withFixture { try Self.limitAndClear($0) }
    }

    static func limitAndClear(_ f: some HistoryFixture) throws {
        let h = f.history
        for line in ["a", "b", "c"] { try f.push(line) }
        try h.setUndoLimit(2)
        #expect(h.undoLimit == 2 && h.count == 2 && h.index == 2)
        #expect(try h.text(at: 0) == "Add b")
        try f.push("d")
        #expect(try h.count == 2 && h.text(at: 1) == "Add d")
        try h.clear()
        #expect(try h.count == 0 && h.index == 0 && h.isClean && f.lines() == ["a", "b", "c", "d"])
    }

    @Test(arguments: conformers) func entriesAreListed(_ conformer: Conformer) throws {
        try conformer.withFixture { try Self.entriesAreListed($0) }
    }

    static func entriesAreListed(_ f: some HistoryFixture) throws {
        let h = f.history
        try f.push("a")
        try f.push("b")
        #expect(try (0..<h.count).map { try h.text(at: $0) } == ["Add a", "Add b"])
        #expect(try (0..<h.count).map { f.text(of: try h.command(at: $0)) } == ["Add a", "Add b"])
    }

    @Test(arguments: conformers) func theStreamIsSubscribedWhenTaken(_ conformer: Conformer) async throws {
        try await conformer.withFixtureAsync { try await Self.theStreamIsSubscribedWhenTaken($0) }
    }

    static func theStreamIsSubscribedWhenTaken(_ f: some HistoryFixture) async throws {
        let changes = f.history.changes
        // Made before anyone iterates: still delivered.
        try f.push("a")
        try f.history.undo()
        var iterator = changes.makeAsyncIterator()
        let first = await iterator.next()
        let second = await iterator.next()
        #expect(first?.operation == .push && first?.new.index == 1)
        #expect(second?.operation == .undo && second?.new.index == 0)
    }

    @Test(arguments: conformers) func theModelMirrorsTheState(_ conformer: Conformer) throws {
        try conformer.withFixture { try Self.theModelMirrorsTheState($0) }
    }

    static func theModelMirrorsTheState(_ f: some HistoryFixture) throws {
        let model = f.history.model
        try f.push("a")
        #expect(model.canUndo && model.undoText == "Add Line" && model.count == 1)
        try f.history.undo()
        #expect(!model.canUndo && model.canRedo && model.redoText == "Add Line")
    }

    @Test(arguments: conformers) func changeHandlersRunSynchronouslyUntilRemoved(_ conformer: Conformer) throws {
        try conformer.withFixture { try Self.changeHandlersRunSynchronouslyUntilRemoved($0) }
    }

    static func changeHandlersRunSynchronouslyUntilRemoved(_ f: some HistoryFixture) throws {
        let h = f.history
        var seen: [UndoChange] = []
        let token = h.addChangeHandler { change in
            seen.append(change)
            // The operation is over: the handler may read the history.
            #expect(h.index == change.new.index)
        }
        try f.push("a")
        #expect(seen.map(\.operation) == [.push])
        try h.undo()
        #expect(seen.map(\.operation) == [.push, .undo] && seen[1].old.index == 1)
        h.removeChangeHandler(token)
        try h.redo()
        #expect(seen.count == 2)
    }

    @Test(arguments: conformers) func controlsFollowAndAct(_ conformer: Conformer) throws {
        try conformer.withFixture { try Self.controlsFollowAndAct($0) }
    }

    static func controlsFollowAndAct(_ f: some HistoryFixture) throws {
        let h = f.history
        let undo = h.makeUndoControl()
        let redo = h.makeRedoControl(prefix: "Again")
        #expect(undo.title == "Undo" && !undo.isEnabled && redo.title == "Again" && !redo.isEnabled)
        try f.push("a")
        #expect(undo.title == "Undo Add Line" && undo.isEnabled)
        #expect(undo.sendAction())
        #expect(try f.lines().isEmpty && redo.title == "Again Add Line" && !undo.isEnabled)
        #expect(redo.sendAction())
        #expect(try f.lines() == ["a"])
    }

    /// Defect 1 of issue 13: a group announces that its active history went away.
    @Test(arguments: conformers) func aGroupAnnouncesThatItsActiveHistoryWentAway(_ conformer: Conformer) throws {
        let group = UndoGroup()
        let control = group.makeUndoControl()
        var events: [UndoChange] = []
        group.addChangeHandler { events.append($0) }
        let model = group.model
        try conformer.withFixture { fixture in
            group.setActiveStack(fixture.history)
            try fixture.push("a")
            #expect(control.isEnabled && model.canUndo)
        }
        // The fixture (and its history) is gone.
        #expect(group.activeStack == nil && group.stacks.isEmpty)
        #expect(!group.canUndo && !control.isEnabled && control.title == "Undo" && !model.canUndo)
        #expect(events.last?.operation == .activate && events.last?.new == .empty)
    }
}

extension Conformer {
    /// ``withFixture(_:)`` for async bodies.
    func withFixtureAsync(_ body: (any HistoryFixture) async throws -> Void) async throws {
        switch self {
        case .undoStack, .branchingUndoStack:
            try await body(MemoryFixture(keepsBranches: keepsBranches))
        case .durableHistory, .branchingDurableHistory:
            let fixture = try DurableFixture(keepsBranches: keepsBranches)
            defer { fixture.remove() }
            try await body(fixture)
        #if PostgreSQL
        case .postgreSQLHistory, .branchingPostgreSQLHistory:
            let fixture = try PostgreSQLFixture(keepsBranches: keepsBranches)
            defer { fixture.remove() }
            try await body(fixture)
        #endif
        }
    }
}

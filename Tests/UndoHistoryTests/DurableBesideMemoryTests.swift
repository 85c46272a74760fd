import CommandKit
import CommandStore
import Testing

/// What only a history shared between connections can show: the controls undo the step they show
/// or nothing, and a group holds a durable history beside in-memory stacks.
@Suite struct DurableBesideMemoryTests {
    @Test func aControlRefusesAStepAnotherConnectionPushedAndShowsTheNewState() throws {
        let fixture = try DurableFixture()
        defer { fixture.remove() }
        var errors: [any Error] = []
        let undo = fixture.history.makeUndoControl { errors.append($0) }
        try fixture.push("mine")
        #expect(undo.title == "Undo Add Line")
        let elsewhere = try fixture.openAnother()
        try elsewhere.push(StoredLine(line: "theirs"))
        // The control still shows this connection's step; pressing it must not undo theirs.
        #expect(undo.sendAction())
        #expect(errors.count == 1 && errors.first.flatMap(code(of:)) == .historyChanged)
        #expect(try fixture.lines() == ["mine", "theirs"])
        // Refreshed: the control now shows (and undoes) the step on top, theirs.
        #expect(fixture.history.index == 2 && undo.isEnabled)
        #expect(undo.sendAction())
        #expect(try errors.count == 1 && fixture.lines() == ["mine"])
    }

    @Test func aGroupHoldsADurableHistoryBesideAStack() throws {
        let durable = try DurableFixture()
        defer { durable.remove() }
        let memory = MemoryFixture()
        let group = UndoGroup()
        group.addStack(memory.history)
        group.addStack(durable.history)
        let undo = group.makeUndoControl()
        try memory.push("in memory")
        try durable.push("on disk")
        group.setActiveStack(memory.history)
        #expect(undo.isEnabled && group.undoText == "Add Line")
        #expect(undo.sendAction())
        #expect(try memory.lines().isEmpty && durable.lines() == ["on disk"])
        group.setActiveStack(durable.history)
        #expect(undo.isEnabled)
        #expect(undo.sendAction())
        #expect(try durable.lines().isEmpty)
        #expect(group.stacks.count == 2)
        group.removeStack(durable.history)
        #expect(group.activeStack == nil && !undo.isEnabled)
    }

    @Test func aGroupControlRefusesAStaleDurableStep() throws {
        let fixture = try DurableFixture()
        defer { fixture.remove() }
        let group = UndoGroup()
        group.setActiveStack(fixture.history)
        var errors: [any Error] = []
        let undo = group.makeUndoControl { errors.append($0) }
        try fixture.push("mine")
        try fixture.openAnother().push(StoredLine(line: "theirs"))
        #expect(undo.sendAction())
        #expect(try errors.map(code(of:)) == [.historyChanged] && fixture.lines() == ["mine", "theirs"])
    }

    @Test func commandAtDecodesTheStoredCommand() throws {
        let fixture = try DurableFixture()
        defer { fixture.remove() }
        try fixture.push("a")
        try fixture.history.beginMacro("Pair")
        try fixture.push("b")
        try fixture.history.endMacro()
        let reopened = try fixture.openAnother()
        guard case .command(let first) = try reopened.command(at: 0), let line = first as? StoredLine else {
            Issue.record("entry 0 is not a StoredLine")
            return
        }
        #expect(line.line == "a")
        guard case .macro(let text, let children) = try reopened.command(at: 1) else {
            Issue.record("entry 1 is not a macro")
            return
        }
        #expect(text == "Pair" && children.map(\.text) == ["Add b"])
    }
}

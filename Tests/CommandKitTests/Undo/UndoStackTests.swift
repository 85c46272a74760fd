import Observation
import Testing

@testable import CommandKit

/// Scenario tests walking the anchors' documented behaviour (Qt QUndoStack, Swing) step by step.
@Suite struct UndoStackTests {
    private func makeStack(undoLimit: Int = 0) -> (UndoStack, UndoTestDocument, ChangeRecorder) {
        let stack = UndoStack(undoLimit: undoLimit)
        return (stack, UndoTestDocument(), ChangeRecorder(stack))
    }

    @Test func pushUndoRedoWalksTheHistory() throws {
        let (stack, doc, events) = makeStack()
        #expect(stack.state == .empty)

        try stack.push(AppendLine(doc, "a"))
        #expect(doc.lines == ["a"])
        #expect(stack.state == state(index: 1, count: 1, undo: "Add Line"))
        let push = events.take()
        #expect(push.count == 1)
        #expect(push.first?.operation == .push)
        #expect(push.first?.indexChanged == true)
        #expect(push.first?.canUndoChanged == true)
        #expect(push.first?.cleanChanged == true)

        try stack.push(AppendLine(doc, "b"))
        #expect(stack.state == state(index: 2, count: 2, undo: "Add Line"))
        #expect(texts(stack) == ["Add a", "Add b"])
        let second = events.take()
        #expect(second.count == 1)
        #expect(second.first?.canUndoChanged == false)
        #expect(second.first?.cleanChanged == false)

        try stack.undo()
        #expect(doc.lines == ["a"])
        #expect(stack.state == state(index: 1, count: 2, undo: "Add Line", redo: "Add Line"))
        let undo = events.take()
        #expect(undo.map(\.operation) == [.undo])
        #expect(undo.first?.canRedoChanged == true)

        try stack.undo()
        #expect(doc.lines.isEmpty)
        #expect(stack.state == state(index: 0, count: 2, redo: "Add Line"))
        #expect(events.take().first?.cleanChanged == true)

        try stack.undo()  // nothing left: no effect, no event
        #expect(stack.state == state(index: 0, count: 2, redo: "Add Line"))
        #expect(events.take().isEmpty)

        try stack.redo()
        try stack.redo()
        #expect(doc.lines == ["a", "b"])
        #expect(stack.state == state(index: 2, count: 2, undo: "Add Line"))
        #expect(events.take().count == 2)

        try stack.redo()  // nothing to redo
        #expect(events.take().isEmpty)
    }

    @Test func pushDiscardsTheRedoTail() throws {
        let (stack, doc, events) = makeStack()
        for line in ["a", "b", "c"] { try stack.push(AppendLine(doc, line)) }
        try stack.undo()
        try stack.undo()
        _ = events.take()

        try stack.push(AppendLine(doc, "d"))
        #expect(doc.lines == ["a", "d"])
        #expect(texts(stack) == ["Add a", "Add d"])
        #expect(stack.state == state(index: 2, count: 2, clean: 0, undo: "Add Line"))
        let change = try #require(events.take().first)
        #expect(change.old.count == 3 && change.new.count == 2)
        #expect(change.canRedoChanged)
    }

    @Test func jumpMovesAnywhereClampedWithOneEvent() throws {
        let (stack, doc, events) = makeStack()
        for line in ["a", "b", "c", "d"] { try stack.push(AppendLine(doc, line)) }
        _ = events.take()

        try stack.setIndex(1)
        #expect(doc.lines == ["a"])
        #expect(stack.state == state(index: 1, count: 4, undo: "Add Line", redo: "Add Line"))
        let jump = events.take()
        #expect(jump.map(\.operation) == [.jump])
        #expect(jump.first?.old.index == 4)

        try stack.setIndex(99)
        #expect(doc.lines == ["a", "b", "c", "d"])
        #expect(stack.index == 4)
        try stack.setIndex(-5)
        #expect(doc.lines.isEmpty)
        #expect(stack.state == state(index: 0, count: 4, redo: "Add Line"))
        #expect(events.take().count == 2)

        try stack.setIndex(0)  // already there
        #expect(events.take().isEmpty)
    }

    @Test func cleanStateLifecycle() throws {
        let (stack, doc, events) = makeStack()
        #expect(stack.isClean && stack.cleanIndex == 0)

        try stack.push(AppendLine(doc, "a"))
        #expect(!stack.isClean)
        try stack.push(AppendLine(doc, "b"))
        _ = events.take()

        stack.setClean()  // "saved" at 2
        #expect(stack.state == state(index: 2, count: 2, clean: 2, undo: "Add Line"))
        #expect(events.take().map(\.cleanChanged) == [true])
        stack.setClean()  // again: nothing changes
        #expect(events.take().isEmpty)

        try stack.undo()
        #expect(!stack.isClean && stack.cleanIndex == 2)
        #expect(events.take().first?.cleanChanged == true)
        try stack.redo()
        #expect(stack.isClean)
        #expect(events.take().first?.cleanChanged == true)

        try stack.undo()
        try stack.push(AppendLine(doc, "c"))  // truncates the clean state away
        #expect(stack.state == state(index: 2, count: 2, clean: nil, undo: "Add Line"))
        try stack.setIndex(0)
        #expect(!stack.isClean)

        stack.setClean()
        #expect(stack.state == state(index: 0, count: 2, clean: 0, redo: "Add Line"))
        stack.resetClean()
        #expect(stack.state == state(index: 0, count: 2, clean: nil, redo: "Add Line"))
        #expect(events.take().last?.operation == .resetClean)

        stack.clear()
        #expect(stack.state == .empty)
        #expect(doc.lines.isEmpty)  // clear runs nothing
        #expect(events.take().map(\.operation) == [.clear])
    }

    @Test func consecutiveTypingMergesIntoOneStep() throws {
        let (stack, doc, events) = makeStack()
        try stack.push(AppendLine(doc, "x"))
        stack.setClean()
        try stack.push(TypeText(document: doc, typed: "h"))  // index 1 is clean: no merge into it
        try stack.push(TypeText(document: doc, typed: "i"))  // merges into "h"
        try stack.push(TypeText(document: doc, typed: "!"))
        #expect(doc.lines == ["xhi!"])
        #expect(texts(stack) == ["Add x", "Type hi!"])
        #expect(stack.state == state(index: 2, count: 2, clean: 1, undo: "Type hi!"))
        // A merge changes the document without moving the index: still one event each.
        #expect(events.take().map(\.operation) == [.push, .setClean, .push, .push, .push])

        try stack.push(TypeText(document: doc, typed: "?", refuseMerge: true))
        #expect(texts(stack) == ["Add x", "Type hi!", "Type ?"])

        try stack.undo()
        try stack.undo()
        #expect(doc.lines == ["x"])
        #expect(stack.isClean)

        try stack.push(TypeText(document: doc, typed: "y"))  // at the clean index: no merge
        try stack.push(AppendLine(doc, "z"))  // different merge ID: no merge
        try stack.push(TypeText(document: doc, typed: "w"))  // not directly after typing: no merge
        #expect(texts(stack) == ["Add x", "Type y", "Add z", "Type w"])
    }

    @Test func mergeThatCancelsOutRemovesTheCommand() throws {
        let (stack, doc, _) = makeStack()
        try stack.push(AppendLine(doc, "x"))
        try stack.push(TypeText(document: doc, typed: "ab"))
        var erase = TypeText(document: doc, typed: "")  // types nothing: obsolete on its own
        erase.refuseMerge = false
        try stack.push(erase)  // merged: "ab" + "" is not empty, stays
        #expect(stack.count == 2)

        // A command that is obsolete after its own redo is dropped, after truncating.
        try stack.undo()
        try stack.push(TypeText(document: doc, typed: ""))
        #expect(stack.state == state(index: 1, count: 1, undo: "Add Line"))
        #expect(doc.lines == ["x"])
    }

    @Test func mergedCommandTurningObsoleteIsRemoved() throws {
        struct Move: UndoCommand {
            let document: UndoTestDocument
            var delta: Int
            var text: String { "Move \(delta)" }
            var mergeID: Int? { 1 }
            var isObsolete: Bool { delta == 0 }
            mutating func redo() throws { document.lines.append("move \(delta)") }
            mutating func undo() throws { document.lines.removeLast() }
            mutating func merge(with other: Move) -> Bool {
                delta += other.delta
                return true
            }
        }
        let (stack, doc, events) = makeStack()
        try stack.push(AppendLine(doc, "a"))
        try stack.push(Move(document: doc, delta: 3))
        _ = events.take()
        try stack.push(Move(document: doc, delta: -3))  // back where it started: obsolete
        #expect(stack.state == state(index: 1, count: 1, undo: "Add Line"))
        #expect(texts(stack) == ["Add a"])
        #expect(events.take().first?.indexChanged == true)
    }

    @Test func macrosAreOneStepAndDisableTheStack() throws {
        let (stack, doc, events) = makeStack()
        try stack.push(AppendLine(doc, "a"))
        try stack.push(AppendLine(doc, "b"))
        try stack.undo()
        _ = events.take()

        stack.beginMacro("Paste")
        // Opening the outermost macro truncates the redo tail and disables the stack; the open
        // macro counts, as in Qt (issue 13, defect 5).
        #expect(stack.state == state(index: 1, count: 2, macroDepth: 1))
        #expect(stack.text(at: 1) == "Paste")
        #expect(events.take().first?.canUndoChanged == true)
        try stack.push(AppendLine(doc, "p1"))
        stack.beginMacro("Inner")
        try stack.push(AppendLine(doc, "p2"))
        try stack.push(AppendLine(doc, "p3"))
        try stack.endMacro()
        #expect(stack.state == state(index: 1, count: 2, macroDepth: 1))
        #expect((stack.command(at: 1) as? UndoMacro)?.children.map(\.text) == ["Add p1", "Inner"])

        // Ignored while a macro is open.
        try stack.undo()
        try stack.redo()
        try stack.setIndex(0)
        stack.setClean()
        #expect(doc.lines == ["a", "p1", "p2", "p3"])
        #expect(stack.cleanIndex == 0)

        try stack.endMacro()
        #expect(stack.state == state(index: 2, count: 2, undo: "Paste"))
        #expect(texts(stack) == ["Add a", "Paste"])
        #expect(events.take().last?.operation == .endMacro)

        let macro = try #require(stack.command(at: 1) as? UndoMacro)
        #expect(macro.children.map(\.text) == ["Add p1", "Inner"])

        try stack.undo()
        #expect(doc.lines == ["a"])
        #expect(stack.state == state(index: 1, count: 2, undo: "Add Line", redo: "Paste"))
        try stack.redo()
        #expect(doc.lines == ["a", "p1", "p2", "p3"])

        #expect(throws: UndoError.self) { try stack.endMacro() }
    }

    @Test func emptyMacroIsAnEmptyStep() throws {
        let (stack, doc, _) = makeStack()
        stack.beginMacro("Nothing")
        try stack.endMacro()
        #expect(stack.state == state(index: 1, count: 1, undo: "Nothing"))
        try stack.undo()
        try stack.redo()
        #expect(doc.lines.isEmpty)
        #expect(stack.index == 1)
    }

    @Test func typingMergesInsideAMacroEvenWhenClean() throws {
        let (stack, doc, _) = makeStack()
        stack.beginMacro("Edit")
        try stack.push(TypeText(document: doc, typed: "a"))
        try stack.push(TypeText(document: doc, typed: "b"))
        try stack.endMacro()
        let macro = try #require(stack.command(at: 0) as? UndoMacro)
        #expect(macro.children.map(\.text) == ["Type ab"])
    }

    @Test func macroCountsOnceAgainstTheLimitAtItsEnd() throws {
        let (stack, doc, _) = makeStack(undoLimit: 2)
        try stack.push(AppendLine(doc, "a"))
        try stack.push(AppendLine(doc, "b"))
        stack.beginMacro("Many")
        for line in ["c", "d", "e"] { try stack.push(AppendLine(doc, line)) }
        #expect(stack.count == 3)  // the open macro counts; nothing is trimmed while it is open
        try stack.endMacro()
        #expect(texts(stack) == ["Add b", "Many"])
        #expect(stack.state == state(index: 2, count: 2, clean: nil, undo: "Many"))
        try stack.undo()
        try stack.undo()
        #expect(!stack.canUndo)
        #expect(doc.lines == ["a"])  // the trimmed step is never undone
    }

    @Test func limitTrimsOldestAndSlidesTheCleanIndex() throws {
        let (stack, doc, events) = makeStack(undoLimit: 3)
        for line in ["a", "b"] { try stack.push(AppendLine(doc, line)) }
        stack.setClean()  // clean at 2
        try stack.push(AppendLine(doc, "c"))
        try stack.push(AppendLine(doc, "d"))  // trims "a": clean slides to 1
        #expect(texts(stack) == ["Add b", "Add c", "Add d"])
        #expect(stack.state == state(index: 3, count: 3, clean: 1, undo: "Add Line"))
        try stack.setIndex(1)
        #expect(stack.isClean)
        #expect(doc.lines == ["a", "b"])
        try stack.setIndex(3)
        _ = events.take()

        try stack.push(AppendLine(doc, "e"))
        try stack.push(AppendLine(doc, "f"))  // the clean entry is gone
        #expect(stack.state == state(index: 3, count: 3, clean: nil, undo: "Add Line"))

        stack.setUndoLimit(1)  // lowering it trims at once
        #expect(texts(stack) == ["Add f"])
        #expect(stack.state == state(index: 1, count: 1, clean: nil, undo: "Add Line"))
        #expect(events.take().last?.operation == .setUndoLimit)
    }

    @Test func loweringTheLimitKeepsTheRedoTail() throws {
        let (stack, doc, _) = makeStack()
        for line in ["a", "b", "c", "d"] { try stack.push(AppendLine(doc, line)) }
        try stack.setIndex(2)
        stack.setUndoLimit(1)  // removes done entries only: a and b; the redo tail waits for a push
        #expect(texts(stack) == ["Add c", "Add d"])
        #expect(stack.state == state(index: 0, count: 2, clean: nil, redo: "Add Line"))
        try stack.push(AppendLine(doc, "e"))
        #expect(texts(stack) == ["Add e"])
    }

    @Test(arguments: [SelfRemovingCommand.When.onUndo, .onRedoAfterPush])
    func obsoleteCommandsAreRemovedAfterTheyRun(when: SelfRemovingCommand.When) throws {
        let (stack, doc, _) = makeStack()
        try stack.push(AppendLine(doc, "a"))
        try stack.push(SelfRemovingCommand(document: doc, when: when))
        try stack.push(AppendLine(doc, "b"))
        stack.setClean()  // clean at 3, above the self-removing command
        #expect(stack.count == 3)

        try stack.undo()
        try stack.undo()
        if when == .onUndo {
            #expect(texts(stack) == ["Add a", "Add b"])
            #expect(stack.state == state(index: 1, count: 2, clean: nil, undo: "Add Line", redo: "Add Line"))
        } else {
            try stack.redo()  // the second run makes it obsolete: removed, the index stays
            #expect(texts(stack) == ["Add a", "Add b"])
            #expect(stack.state == state(index: 1, count: 2, clean: nil, undo: "Add Line", redo: "Add Line"))
            #expect(doc.lines == ["a", "x"])  // its effect stays; it is just no longer undoable
        }
    }

    @Test func obsoleteOnPushIsDroppedAndJumpRemovesObsoleteOnTheWay() throws {
        let (stack, doc, _) = makeStack()
        try stack.push(SelfRemovingCommand(document: doc, when: .onPush))
        #expect(stack.state == .empty)
        #expect(doc.lines == ["x"])

        try stack.push(AppendLine(doc, "a"))
        try stack.push(SelfRemovingCommand(document: doc, when: .onRedoAfterPush))
        try stack.push(AppendLine(doc, "b"))
        try stack.setIndex(0)
        try stack.setIndex(3)  // the middle command removes itself on the way: target moves to 2
        #expect(texts(stack) == ["Add a", "Add b"])
        #expect(stack.state == state(index: 2, count: 2, clean: 0, undo: "Add Line"))
    }

    @Test func insignificantCommandsRideWithTheSignificantOneBefore() throws {
        let (stack, doc, events) = makeStack()
        try stack.push(AppendLine(doc, "s0", significant: false))  // a leading step of its own
        try stack.push(AppendLine(doc, "a"))
        try stack.push(AppendLine(doc, "s1", significant: false))
        try stack.push(AppendLine(doc, "s2", significant: false))
        try stack.push(AppendLine(doc, "b"))
        try stack.push(AppendLine(doc, "s3", significant: false))
        _ = events.take()

        try stack.undo()  // s3 and b
        #expect(doc.lines == ["s0", "a", "s1", "s2"])
        #expect(stack.index == 4)
        #expect(events.take().count == 1)
        try stack.undo()  // s2, s1 and a
        #expect(doc.lines == ["s0"])
        #expect(stack.state == state(index: 1, count: 6, undo: "Add Line", redo: "Add Line"))
        try stack.undo()  // the leading insignificant step
        #expect(doc.lines.isEmpty)
        try stack.redo()
        #expect(doc.lines == ["s0"])
        try stack.redo()  // a, s1, s2
        #expect(doc.lines == ["s0", "a", "s1", "s2"])
        try stack.redo()
        #expect(stack.index == 6)
        try stack.setIndex(3)  // a jump is exact
        #expect(doc.lines == ["s0", "a", "s1"])
    }

    @Test func failingPushRecordsNothing() throws {
        let (stack, doc, events) = makeStack()
        try stack.push(AppendLine(doc, "a"))
        try stack.undo()
        _ = events.take()
        doc.failNextCall = true
        #expect(throws: UndoTestFailure.self) { try stack.push(AppendLine(doc, "b")) }
        // The redo tail survives: the failed command never happened.
        #expect(stack.state == state(index: 0, count: 1, redo: "Add Line"))
        #expect(events.take().isEmpty)
    }

    @Test func failingUndoAndRedoLeaveTheIndexAtTheFailingCommand() throws {
        let (stack, doc, events) = makeStack()
        for line in ["a", "b", "c"] { try stack.push(AppendLine(doc, line)) }
        _ = events.take()

        doc.failNextCall = true
        #expect(throws: UndoTestFailure.self) { try stack.undo() }
        #expect(stack.state == state(index: 3, count: 3, undo: "Add Line"))
        #expect(doc.lines == ["a", "b", "c"])
        try stack.undo()  // retrying works
        #expect(stack.index == 2)

        doc.failNextCall = true
        #expect(throws: UndoTestFailure.self) { try stack.redo() }
        #expect(stack.index == 2)

        // A jump stops at the failing command; everything below the index is done.
        try stack.setIndex(0)
        _ = events.take()
        var calls = 0
        doc.failNextCall = false
        struct CountingFailure: UndoCommand {
            let document: UndoTestDocument
            var text: String { "Fails on redo" }
            mutating func redo() throws {
                if document.lines.count == 2 { throw UndoTestFailure(message: "third") }
                document.lines.append("ok")
            }
            mutating func undo() throws { document.lines.removeLast() }
        }
        stack.clear()
        doc.lines = []
        for _ in 0..<3 {
            // Entries are pushed on purpose while the document is short.
            try stack.push(CountingFailure(document: doc))
            calls += 1
            if calls == 2 { break }
        }
        try stack.push(AppendLine(doc, "z"))
        try stack.setIndex(0)
        doc.lines = ["pad"]
        _ = events.take()
        let failure = #expect(throws: UndoTestFailure.self) { try stack.setIndex(3) }
        #expect(failure?.message == "third")
        #expect(stack.index == 1)  // the second command failed: only the first is done
        #expect(events.take().map(\.new.index) == [1])  // one event for the partial jump
    }

    @Test func macroIsAtomicWhenAChildFails() throws {
        let (stack, doc, _) = makeStack()
        stack.beginMacro("Three")
        for line in ["a", "b", "c"] { try stack.push(AppendLine(doc, line)) }
        try stack.endMacro()
        try stack.undo()

        struct FailOnThird: UndoCommand {
            let document: UndoTestDocument
            var text: String { "Fail" }
            mutating func redo() throws {
                if document.lines.count == 2 { throw UndoTestFailure() }
                document.lines.append("-")
            }
            mutating func undo() throws { document.lines.removeLast() }
        }
        let macro = UndoMacro(
            "Mixed",
            children: [AppendLine(doc, "a"), AppendLine(doc, "b"), FailOnThird(document: doc)]
        )
        #expect(throws: UndoTestFailure.self) { try stack.push(macro) }
        #expect(doc.lines.isEmpty)  // a and b were reverted
        #expect(stack.state == state(index: 0, count: 1, redo: "Three"))
    }

    /// Regression (issue 25): a command calling back into the stack running it stopped the
    /// process (SIGILL). Now each call is refused (or, for those that cannot throw, ignored) and the
    /// operation running goes on as if nothing had been called.
    @Test func aCommandCallingBackIntoItsStackIsRefusedAndChangesNothing() throws {
        final class Holder {
            var stack: UndoStack?
            var errors: [UndoError.Code] = []
        }
        struct Reentrant: UndoCommand {
            let holder: Holder
            let document: UndoTestDocument
            var text: String { "Reentrant" }
            mutating func redo() throws {
                callBack()
                document.lines.append("r")
            }
            mutating func undo() throws {
                callBack()
                document.lines.removeLast()
            }
            func callBack() {
                guard let stack = holder.stack else { return }
                let calls: [() throws -> Void] = [
                    { try stack.undo() }, { try stack.redo() }, { try stack.undo(steps: 1) },
                    { try stack.redo(steps: 1) }, { try stack.setIndex(0) }, { try stack.endMacro() },
                    { try stack.push(AppendLine(document, "x")) }, { try stack.jump(to: .root) },
                ]
                for call in calls {
                    do { try call() } catch let error as UndoError { holder.errors.append(error.code) } catch {}
                }
                // Those that cannot throw do nothing.
                stack.record(AppendLine(document, "y"))
                stack.beginMacro("m")
                stack.setClean()
                stack.resetClean()
                stack.clear()
                stack.setUndoLimit(1)
            }
        }
        let holder = Holder()
        let (stack, doc, events) = makeStack()
        try stack.push(AppendLine(doc, "a"))
        holder.stack = stack
        defer { holder.stack = nil }  // the stack holds the command, which holds the holder
        try stack.push(Reentrant(holder: holder, document: doc))
        #expect(holder.errors == Array(repeating: .reentrantCall, count: 8))
        #expect(doc.lines == ["a", "r"])
        #expect(stack.state == state(index: 2, count: 2, undo: "Reentrant"))
        #expect(stack.undoLimit == 0)
        #expect(events.take().map(\.operation) == [.push, .push])

        holder.errors = []
        try stack.undo()
        #expect(holder.errors.count == 8 && holder.errors.allSatisfy { $0 == .reentrantCall })
        #expect(doc.lines == ["a"])
        #expect(stack.state == state(index: 1, count: 2, undo: "Add Line", redo: "Reentrant"))
        try stack.redo()
        #expect(doc.lines == ["a", "r"] && stack.index == 2)
        #expect(events.take().map(\.operation) == [.undo, .redo])
    }

    @Test func recordAddsAnAlreadyPerformedChange() throws {
        let (stack, doc, events) = makeStack()
        try stack.push(AppendLine(doc, "a"))
        try stack.undo()
        _ = events.take()
        doc.lines.append("done by hand")
        stack.record(AppendLine(doc, "done by hand"))  // not executed again
        #expect(doc.lines == ["done by hand"])
        #expect(stack.state == state(index: 1, count: 1, undo: "Add Line"))  // the redo tail is gone
        #expect(events.take().map(\.operation) == [.push])
        try stack.undo()
        #expect(doc.lines.isEmpty)
    }

    @Test func userBuiltMacrosNestAndRunInOrder() throws {
        let (stack, doc, _) = makeStack()
        let inner = UndoMacro("Inner", children: [AppendLine(doc, "b"), AppendLine(doc, "c")])
        let outer = UndoMacro("Outer", actionText: "Paste All", children: [AppendLine(doc, "a"), inner])
        try stack.push(outer)
        #expect(doc.lines == ["a", "b", "c"])
        #expect(stack.state == state(index: 1, count: 1, undo: "Paste All"))
        #expect(texts(stack) == ["Outer"])
        try stack.undo()
        #expect(doc.lines.isEmpty)
        try stack.redo()
        #expect(doc.lines == ["a", "b", "c"])
    }

    @Test func negativeLimitMeansNoLimit() throws {
        let (stack, doc, _) = makeStack(undoLimit: -3)
        #expect(stack.undoLimit == 0)
        for line in ["a", "b", "c"] { try stack.push(AppendLine(doc, line)) }
        #expect(stack.count == 3)
    }

    @Test func changesStreamDeliversEventsInOrder() async throws {
        let stack = UndoStack()
        let doc = UndoTestDocument()
        var iterator = stack.changes.makeAsyncIterator()
        try stack.push(AppendLine(doc, "a"))
        stack.setClean()
        try stack.undo()
        let first = await iterator.next()
        let second = await iterator.next()
        let third = await iterator.next()
        #expect(first?.operation == .push)
        #expect(first?.new == state(index: 1, count: 1, undo: "Add Line"))
        #expect(second?.operation == .setClean)
        #expect(second?.cleanChanged == true)
        #expect(third?.operation == .undo)
        #expect(third?.new == state(index: 0, count: 1, clean: 1, redo: "Add Line"))
    }

    @Test func changesStreamFinishesWithTheStack() async throws {
        var stack: UndoStack? = UndoStack()
        let stream = stack!.changes
        try stack!.push(AppendLine(UndoTestDocument(), "a"))
        stack = nil
        var received: [UndoChange.Operation] = []
        for await change in stream { received.append(change.operation) }
        #expect(received == [.push])
    }

    @Test func observableModelFollowsTheStack() throws {
        let (stack, doc, _) = makeStack()
        let model = stack.model
        #expect(!model.canUndo && model.undoText == "" && model.isClean)

        let fired = UndoTestFlag()
        withObservationTracking {
            _ = model.canUndo
        } onChange: {
            fired.set()
        }
        try stack.push(AppendLine(doc, "a"))
        #expect(fired.isSet)
        #expect(model.canUndo && model.undoText == "Add Line" && !model.isClean && model.index == 1)

        // Only properties that change are written: reading canUndo is not disturbed by a push
        // that leaves it true.
        let firedAgain = UndoTestFlag()
        withObservationTracking {
            _ = model.canUndo
        } onChange: {
            firedAgain.set()
        }
        try stack.push(AppendLine(doc, "b"))
        #expect(!firedAgain.isSet)
        #expect(model.count == 2)
    }

    @Test func commandAtAndTextAtExposeTheHistory() throws {
        let (stack, doc, _) = makeStack()
        try stack.push(AppendLine(doc, "a"))
        let command = try #require(stack.command(at: 0) as? AppendLine)
        #expect(command.line == "a")
        #expect(stack.text(at: 0) == "Add a")
    }
}

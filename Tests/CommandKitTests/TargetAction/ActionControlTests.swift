import CommandKit
import Observation
import Testing

/// A target that counts the actions it receives.
private final class Receiver {
    var plainCount = 0
    var senders: [String] = []
    func press() { plainCount += 1 }
    func pressed(_ sender: ActionControl) { senders.append(sender.title) }
}

/// A view-like owner holding its control, which targets the owner: the classic cycle risk.
private final class Toolbar {
    let button = ActionControl(title: "Delete")
    var deletions = 0
    var redraws = 0
    init() {
        button.setTarget(self, action: Toolbar.delete)
        button.addObserver { [weak self] _, _ in self?.redraws += 1 }
    }
    func delete() { deletions += 1 }
}

@Suite struct ActionControlTests {
    @Test func enabledControlSendsItsActionToTheTarget() {
        let receiver = Receiver()
        let control = ActionControl(title: "Press")
        control.setTarget(receiver, action: Receiver.press)

        #expect(control.sendAction())
        #expect(control.sendAction())
        #expect(receiver.plainCount == 2)
        #expect(control.target === receiver)
    }

    @Test func actionWithSenderReceivesTheSendingControl() {
        let receiver = Receiver()
        let first = ActionControl(title: "First")
        let second = ActionControl(title: "Second")
        first.setTarget(receiver, action: Receiver.pressed)
        second.setTarget(receiver, action: Receiver.pressed)

        second.sendAction()
        first.sendAction()

        #expect(receiver.senders == ["Second", "First"])
    }

    @Test func disabledControlSendsNothing() {
        let receiver = Receiver()
        let control = ActionControl(title: "Undo", isEnabled: false)
        control.setTarget(receiver, action: Receiver.press)

        #expect(!control.sendAction())
        #expect(receiver.plainCount == 0)

        control.isEnabled = true
        #expect(control.sendAction())
        control.isEnabled = false
        #expect(!control.sendAction())
        #expect(receiver.plainCount == 1)
    }

    @Test func controlWithoutTargetSendsNothing() {
        let control = ActionControl(title: "Orphan")
        #expect(!control.sendAction())
        #expect(control.target == nil)

        let receiver = Receiver()
        control.setTarget(receiver, action: Receiver.press)
        control.removeTarget()
        #expect(!control.sendAction())
        #expect(receiver.plainCount == 0)
    }

    @Test func deallocatedTargetSendsNothingAndIsNotKeptAlive() {
        let control = ActionControl(title: "Press")
        weak var weakReceiver: Receiver?
        do {
            let receiver = Receiver()
            weakReceiver = receiver
            control.setTarget(receiver, action: Receiver.press)
            #expect(control.sendAction())
        }
        #expect(weakReceiver == nil, "the control must hold its target weakly")
        #expect(control.target == nil)
        #expect(!control.sendAction())
    }

    @Test func controlTargetingItsOwnerFormsNoRetainCycle() {
        weak var weakToolbar: Toolbar?
        weak var weakButton: ActionControl?
        do {
            let toolbar = Toolbar()
            weakToolbar = toolbar
            weakButton = toolbar.button
            toolbar.button.sendAction()
            toolbar.button.title = "Delete Album"
            #expect(toolbar.deletions == 1)
            #expect(toolbar.redraws == 1)
        }
        #expect(weakToolbar == nil)
        #expect(weakButton == nil)
    }

    @Test func observersLearnOfRealChangesOnly() {
        let control = ActionControl(title: "Undo", isEnabled: false)
        var seen: [(String, Bool, ActionControl.Property)] = []
        control.addObserver { control, property in
            seen.append((control.title, control.isEnabled, property))
        }

        control.isEnabled = false  // unchanged: no event
        control.title = "Undo"  // unchanged: no event
        control.isEnabled = true
        control.title = "Undo Delete Album"

        #expect(seen.count == 2)
        #expect(seen.first?.2 == .isEnabled)
        #expect(seen.first?.1 == true)
        #expect(seen.last?.2 == .title)
        #expect(seen.last?.0 == "Undo Delete Album")
    }

    @Test func observationTracksTitleAndEnabledState() {
        let control = ActionControl(title: "Undo", isEnabled: false)
        let changes = Recorder<String>()  // onChange is @Sendable
        withObservationTracking {
            _ = control.isEnabled
        } onChange: {
            changes.append("isEnabled")
        }
        control.title = "Undo Add"  // not read in the tracking closure: no change reported
        #expect(changes.elements.isEmpty)
        control.isEnabled = true
        #expect(changes.elements == ["isEnabled"])

        withObservationTracking {
            _ = control.title
        } onChange: {
            changes.append("title")
        }
        control.title = "Undo Delete"
        #expect(changes.elements == ["isEnabled", "title"])
    }

    @Test func removedObserverIsNotCalled() {
        let control = ActionControl(title: "Redo")
        var first = 0
        var second = 0
        let id = control.addObserver { _, _ in first += 1 }
        control.addObserver { _, _ in second += 1 }

        control.title = "Redo Move"
        control.removeObserver(id)
        control.removeObserver(id)  // already gone: no effect
        control.title = "Redo Add"

        #expect(first == 1)
        #expect(second == 2)
    }
}

/// A target whose action can fail, like an undo stack's `undo()`.
private final class FallibleReceiver {
    struct Failure: Error, Equatable {}
    var fails = false
    var calls = 0
    func perform() throws {
        calls += 1
        if fails { throw Failure() }
    }
    func perform(from sender: ActionControl) throws {
        try perform()
    }
}

@Suite struct ActionControlThrowingActionTests {
    @Test func throwingActionErrorGoesToTheErrorHandler() {
        let receiver = FallibleReceiver()
        let control = ActionControl(title: "Undo")
        control.setTarget(receiver, action: FallibleReceiver.perform as (FallibleReceiver) -> () throws -> Void)
        var errors: [(String, any Error)] = []
        control.errorHandler = { control, error in errors.append((control.title, error)) }

        #expect(control.sendAction())
        #expect(errors.isEmpty)

        receiver.fails = true
        #expect(control.sendAction(), "the action was sent, even though it threw")
        #expect(receiver.calls == 2)
        #expect(errors.count == 1)
        #expect(errors.first?.0 == "Undo")
        #expect(errors.first?.1 is FallibleReceiver.Failure)
    }

    @Test func throwingActionWithSenderIsNotSentWhileDisabledOrWhenTargetIsGone() {
        let control = ActionControl(title: "Redo", isEnabled: false)
        var errors = 0
        control.errorHandler = { _, _ in errors += 1 }
        weak var weakReceiver: FallibleReceiver?
        do {
            let receiver = FallibleReceiver()
            receiver.fails = true
            weakReceiver = receiver
            control.setTarget(receiver, action: FallibleReceiver.perform(from:))
            #expect(!control.sendAction())
            #expect(receiver.calls == 0)
            control.isEnabled = true
            #expect(control.sendAction())
            #expect(errors == 1)
        }
        #expect(weakReceiver == nil)
        #expect(!control.sendAction())
        #expect(errors == 1)
    }
}

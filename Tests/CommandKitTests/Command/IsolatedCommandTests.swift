import CommandKit
import Testing

@MainActor private final class MainActorModel {
    var titles: [String] = []
}

/// A command whose receiver lives on the main actor, conforming with an isolated conformance.
private struct AddTitle: @MainActor Command {
    let model: MainActorModel
    let title: String
    var fails = false

    @MainActor func execute() throws {
        if fails { throw TestError(tag: title) }
        model.titles.append(title)
    }
}

@Suite struct IsolatedCommandTests {
    @Test @MainActor func mainActorCommandsRunInAnInvokerOnTheMainActor() async {
        let model = MainActorModel()
        let report = await Invoker(failurePolicy: .continueAfterFailure) {
            AddTitle(model: model, title: "Low")
            AddTitle(model: model, title: "Heroes", fails: true)
            ClosureCommand { model.titles.append("Lodger") }  // a closure formed on the main actor
            AsyncClosureCommand { model.titles.append("Scary Monsters") }
        }.run()

        #expect(model.titles == ["Low", "Lodger", "Scary Monsters"])
        #expect(report.failed.map(\.index) == [1])
        #expect(report.failed.first?.error as? TestError == TestError(tag: "Heroes"))
    }

    @Test @MainActor func mainActorCommandsComposeSynchronously() throws {
        let model = MainActorModel()
        try CompositeCommand {
            AddTitle(model: model, title: "A")
            AddTitle(model: model, title: "B")
        }.execute()
        #expect(model.titles == ["A", "B"])
    }
}

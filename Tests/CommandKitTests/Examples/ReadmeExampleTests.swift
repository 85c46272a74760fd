import CommandKit
import Testing

/// README.md's "Requests as objects" example, kept compiling and checked.
@Suite struct ReadmeExampleTests {
    private final class LibraryAPI {  // the receiver
        private(set) var albums: [String] = []
        func add(_ album: String, at index: Int) { albums.insert(album, at: index) }
        @discardableResult func delete(at index: Int) -> String { albums.remove(at: index) }
    }

    @Test func requestsAsObjectsExampleWorksAsDocumented() async throws {
        let library = LibraryAPI()

        let report = await Invoker {
            ClosureCommand("Add Blue") { library.add("Blue", at: 0) }
            Invocation(target: library, method: LibraryAPI.add(_:at:), arguments: ("Low", 1))
        }.run()
        #expect(report.succeeded.count == 2 && report.failed.isEmpty && report.skipped.isEmpty)
        #expect(library.albums == ["Blue", "Low"])

        let deleted = library.delete(at: 0)
        var undo: [AnyInvocation] = [
            AnyInvocation(
                Invocation(
                    target: library, method: LibraryAPI.add(_:at:), arguments: (deleted, 0), retention: .weak))
        ]
        #expect(library.albums == ["Low"])
        try undo.popLast()?.invoke()
        #expect(library.albums == ["Blue", "Low"])
    }
}

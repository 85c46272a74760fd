import CommandKit
import Testing

/// The seed's receiver, reduced to what the tests need.
private final class LibraryAPI {
    struct Album: Equatable {
        let title: String
    }

    enum Failure: Error, Equatable {
        case indexOutOfRange(Int)
    }

    private(set) var albums: [Album]

    init(albums: [Album]) {
        self.albums = albums
    }

    func add(_ album: Album, at index: Int) throws {
        guard albums.indices.contains(index) || index == albums.count else {
            throw Failure.indexOutOfRange(index)
        }
        albums.insert(album, at: index)
    }

    @discardableResult
    func delete(at index: Int) -> Album {
        albums.remove(at: index)
    }

    func prepend(_ album: Album, at index: Int) throws {
        albums.insert(album, at: 0)
    }

    func count() -> Int {
        albums.count
    }

    func title(at index: Int) -> String {
        albums[index].title
    }
}

private func makeLibrary() -> LibraryAPI {
    LibraryAPI(albums: ["Blue", "Kind of Blue", "Abbey Road", "Hunky Dory"].map(LibraryAPI.Album.init))
}

@Suite struct InvocationTests {
    @Test func seedUndoFlowPutsTheDeletedAlbumBack() throws {
        // Given a library, delete its third album and record how to put it back.
        let library = makeLibrary()
        let before = library.albums
        let index = 2
        let deleted = library.delete(at: index)
        var undoStack: [AnyInvocation] = []
        undoStack.append(
            AnyInvocation(Invocation(target: library, method: LibraryAPI.add(_:at:), arguments: (deleted, index)))
        )
        #expect(library.albums.count == 3)
        #expect(!library.albums.contains(deleted))

        // When the stored invocation is popped and invoked,
        try undoStack.popLast()?.invoke()

        // then the album is back where it was.
        #expect(library.albums == before)
        #expect(undoStack.isEmpty)
    }

    @Test func invokeReturnsTheMethodsResult() throws {
        let library = makeLibrary()
        let count = Invocation(target: library, method: LibraryAPI.count, arguments: ())
        let title = Invocation(target: library, method: LibraryAPI.title(at:), arguments: 1)
        #expect(try count.invoke() == 4)
        #expect(try title.invoke() == "Kind of Blue")
    }

    @Test func eachArgumentCanBeReplacedBeforeInvoking() throws {
        let library = makeLibrary()
        var invocation = Invocation(
            target: library,
            method: LibraryAPI.add(_:at:),
            arguments: (LibraryAPI.Album(title: "Low"), 3)
        )
        invocation.arguments.1 = 4
        invocation.arguments.0 = LibraryAPI.Album(title: "Heroes")
        try invocation.invoke()
        #expect(library.albums.last == LibraryAPI.Album(title: "Heroes"))

        invocation.arguments = (LibraryAPI.Album(title: "Station to Station"), 0)
        try invocation.invoke()
        #expect(library.albums.first == LibraryAPI.Album(title: "Station to Station"))
        #expect(library.albums.count == 6)
    }

    @Test func targetAndMethodCanBeReplacedBeforeInvoking() throws {
        let first = makeLibrary()
        let second = LibraryAPI(albums: [])
        var invocation = Invocation(
            target: first,
            method: LibraryAPI.add(_:at:),
            arguments: (LibraryAPI.Album(title: "Low"), 0)
        )
        invocation.target = second
        try invocation.invoke()
        #expect(second.albums == [LibraryAPI.Album(title: "Low")])
        #expect(first.albums.count == 4)

        invocation.target = first
        invocation.setMethod(LibraryAPI.prepend(_:at:))
        invocation.arguments.1 = 99  // ignored by prepend, rejected by add
        try invocation.invoke()
        #expect(first.albums.first == LibraryAPI.Album(title: "Low"))
    }

    @Test func methodErrorIsRethrownUnchanged() {
        let library = makeLibrary()
        let invocation = Invocation(
            target: library,
            method: LibraryAPI.add(_:at:),
            arguments: (LibraryAPI.Album(title: "Low"), 9)
        )
        #expect(throws: LibraryAPI.Failure.indexOutOfRange(9)) { try invocation.invoke() }
        #expect(throws: LibraryAPI.Failure.indexOutOfRange(9)) { try AnyInvocation(invocation).invoke() }
        #expect(library.albums.count == 4)
    }

    @Test func strongInvocationKeepsItsTargetAlive() throws {
        weak var weakLibrary: LibraryAPI?
        let invocation: Invocation<LibraryAPI, (), Int>
        do {
            let library = makeLibrary()
            weakLibrary = library
            invocation = Invocation(target: library, method: LibraryAPI.count, arguments: ())
        }
        #expect(weakLibrary != nil)
        #expect(invocation.retention == .strong)
        #expect(try invocation.invoke() == 4)
    }

    @Test func weakInvocationWhoseTargetIsGoneThrowsInsteadOfCalling() {
        weak var weakLibrary: LibraryAPI?
        let invocation: Invocation<LibraryAPI, (LibraryAPI.Album, Int), Void>
        do {
            let library = makeLibrary()
            weakLibrary = library
            invocation = Invocation(
                target: library,
                method: LibraryAPI.add(_:at:),
                arguments: (LibraryAPI.Album(title: "Low"), 0),
                retention: .weak
            )
            #expect(invocation.target === library)
        }
        #expect(weakLibrary == nil, "a weak invocation must not keep its target alive")
        #expect(invocation.target == nil)
        #expect(throws: InvocationError(code: .targetDeallocated, targetType: "LibraryAPI")) {
            try invocation.invoke()
        }
        do {
            try AnyInvocation(invocation).invoke()
            Issue.record("invoking a dead target must throw")
        } catch InvocationError.targetDeallocated {
            // expected
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func removedTargetThrowsMissingTarget() throws {
        let library = makeLibrary()
        var invocation = Invocation(target: library, method: LibraryAPI.count, arguments: (), retention: .weak)
        invocation.target = nil
        let error = #expect(throws: InvocationError.self) { try invocation.invoke() }
        #expect(error?.code == .missingTarget)
        #expect(error?.description.contains("no target") == true)

        invocation.setTarget(library, retention: .strong)
        #expect(invocation.retention == .strong)
        #expect(try invocation.invoke() == 4)
    }

    @Test func invocationsOfDifferentTypesAreStoredTogether() throws {
        let library = makeLibrary()
        let actions: [AnyInvocation] = [
            AnyInvocation(Invocation(target: library, method: LibraryAPI.delete(at:), arguments: 0)),
            AnyInvocation(Invocation(target: library, method: LibraryAPI.count, arguments: ())),
            AnyInvocation(
                Invocation(
                    target: library, method: LibraryAPI.add(_:at:), arguments: (LibraryAPI.Album(title: "Low"), 0))
            ),
        ]

        #expect(try actions[0].invoke(returning: LibraryAPI.Album.self) == LibraryAPI.Album(title: "Blue"))
        #expect(try actions[1].invoke(returning: Int.self) == 3)
        #expect(try actions[2].invoke() is Void)
        #expect(library.albums.first == LibraryAPI.Album(title: "Low"))
        #expect(actions.allSatisfy { $0.target === library })
        #expect(actions[1].base is Invocation<LibraryAPI, (), Int>)
    }

    @Test func askingForTheWrongResultTypeThrows() {
        let library = makeLibrary()
        let count = AnyInvocation(Invocation(target: library, method: LibraryAPI.count, arguments: ()))
        let error = #expect(throws: InvocationError.self) { try count.invoke(returning: String.self) }
        #expect(error?.code == .resultTypeMismatch)
    }

    @Test func erasedCopyIsIndependentOfLaterChanges() throws {
        let library = makeLibrary()
        var invocation = Invocation(target: library, method: LibraryAPI.title(at:), arguments: 0)
        let erased = AnyInvocation(invocation)
        invocation.arguments = 3
        #expect(try erased.invoke(returning: String.self) == "Blue")
        #expect(try invocation.invoke() == "Hunky Dory")
    }

    @Test func invocationsRunInAnInvoker() async {
        let library = makeLibrary()
        let report = await Invoker {
            Invocation(target: library, method: LibraryAPI.delete(at:), arguments: 0)
            Invocation(target: library, method: LibraryAPI.add(_:at:), arguments: (LibraryAPI.Album(title: "Low"), 42))
            AnyInvocation(Invocation(target: library, method: LibraryAPI.delete(at:), arguments: 0))
        }.run()
        #expect(report.succeeded.map(\.index) == [0])
        #expect(report.failed.first?.error as? LibraryAPI.Failure == .indexOutOfRange(42))
        #expect(report.skipped.map(\.index) == [2])
        #expect(library.albums.count == 3)
    }
}

/// A receiver isolated to the main actor, as a user-interface model usually is.
@MainActor private final class MainActorLibrary {
    private(set) var albums: [String] = ["Low", "Heroes"]
    func add(_ album: String, at index: Int) { albums.insert(album, at: index) }
    func delete(at index: Int) -> String { albums.remove(at: index) }
}

@Suite struct MainActorInvocationTests {
    @Test @MainActor func invocationsOfMainActorMethodsWorkOnTheMainActor() throws {
        let library = MainActorLibrary()
        let deleted = try Invocation(target: library, method: MainActorLibrary.delete(at:), arguments: 1).invoke()
        let undo = AnyInvocation(
            Invocation(target: library, method: MainActorLibrary.add(_:at:), arguments: (deleted, 1), retention: .weak))
        #expect(library.albums == ["Low"])
        try undo.invoke()
        #expect(library.albums == ["Low", "Heroes"])
    }
}

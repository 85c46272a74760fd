// The examples of "Testing Code That Uses CommandKit" (CommandKit.docc/Articles/TestingCommandKit.md),
// kept compiling and passing here. Each test asserts real behaviour, failure paths included.
import CommandKit
import Testing

// MARK: The code under test

struct LibraryError: Error, Equatable {
    var message: String
}

final class Library {
    var albums: [String]
    init(albums: [String]) { self.albums = albums }

    func append(_ title: String) { albums.append(title) }
}

struct DeleteAlbum: UndoCommand {
    let library: Library
    let index: Int
    var deleted = ""

    var text: String { "Delete Album" }

    mutating func redo() throws {
        guard library.albums.indices.contains(index) else {
            throw LibraryError(message: "no album at \(index)")
        }
        deleted = library.albums.remove(at: index)
    }

    mutating func undo() throws { library.albums.insert(deleted, at: index) }
}

struct AppendAlbum: UndoCommand {
    let library: Library
    let title: String

    var text: String { "Add Album" }
    mutating func redo() throws { library.albums.append(title) }
    mutating func undo() throws { library.albums.removeLast() }
}

// MARK: Commands are values: test them without an invoker

@Suite struct DeleteAlbumTests {
    @Test func redoDeletesAndUndoPutsTheAlbumBack() throws {
        let library = Library(albums: ["Abbey Road", "Blue", "Kind of Blue"])
        var command = DeleteAlbum(library: library, index: 1)

        try command.redo()
        #expect(library.albums == ["Abbey Road", "Kind of Blue"])
        try command.undo()
        #expect(library.albums == ["Abbey Road", "Blue", "Kind of Blue"])
    }

    @Test func aFailedPushRecordsNothing() throws {
        let library = Library(albums: ["Blue"])
        let stack = UndoStack()

        #expect(throws: LibraryError(message: "no album at 5")) {
            try stack.push(DeleteAlbum(library: library, index: 5))
        }
        #expect(library.albums == ["Blue"])
        #expect(stack.count == 0 && !stack.canUndo)
    }

    @Test(arguments: [0, 1, 2])
    func undoRestoresEveryPosition(index: Int) throws {
        let original = ["Abbey Road", "Blue", "Kind of Blue"]
        let library = Library(albums: original)
        let stack = UndoStack()

        try stack.push(DeleteAlbum(library: library, index: index))
        #expect(library.albums.count == 2)
        try stack.undo()
        #expect(library.albums == original)
        try stack.redo()
        #expect(!library.albums.contains(original[index]))
    }
}

// MARK: The user interface's logic, without a user interface

@Suite struct UndoButtonTests {
    @Test func theUndoButtonFollowsTheStack() throws {
        let library = Library(albums: ["Abbey Road", "Blue"])
        let stack = UndoStack()
        let undoButton = stack.makeUndoControl()
        #expect(!undoButton.isEnabled)

        try stack.push(DeleteAlbum(library: library, index: 1))
        #expect(undoButton.isEnabled)
        #expect(undoButton.title == "Undo Delete Album")

        undoButton.sendAction()  // what a tap does
        #expect(library.albums == ["Abbey Road", "Blue"])
        #expect(!undoButton.isEnabled)
    }
}

// MARK: Invokers report; tests read the report

struct SyncFailed: Error {}

@Suite struct InvokerTests {
    @Test func aFailureSkipsTheCommandsAfterIt() async {
        let library = Library(albums: [])
        let report = await Invoker {
            ClosureCommand("add") { library.append("Blue") }
            ClosureCommand("sync") { throw SyncFailed() }
            ClosureCommand("add again") { library.append("Hejira") }
        }.run()

        #expect(report.succeeded.map(\.name) == ["add"])
        #expect(report.failed.map(\.name) == ["sync"])
        #expect(report.skipped.map(\.name) == ["add again"])
        #expect(throws: SyncFailed.self) { try report.checkSuccess() }
        #expect(library.albums == ["Blue"])
    }

    @Test func aWeakInvocationOutlivingItsTargetThrows() {
        var library: Library? = Library(albums: [])
        let invocation = Invocation(target: library!, method: Library.append(_:), arguments: "Blue", retention: .weak)
        library = nil

        let error = #expect(throws: InvocationError.self) { try invocation.invoke() }
        #expect(error?.code == .targetDeallocated)
    }

    @Test func queuedWorkIsAwaitedNotSlept() async throws {
        let queue = CommandQueue()
        let first = queue.enqueue { 1 }
        let second = queue.enqueue { () async throws -> Int in throw SyncFailed() }

        #expect(try await first.value == 1)
        await #expect(throws: SyncFailed.self) { try await second.value }
        try await queue.waitUntilIdle()
        #expect(queue.isIdle)
    }
}

// MARK: Random sequences against a reference model, with a fixed, printed seed

/// SplitMix64: a tiny seeded generator, so a failing sequence can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct UndoModelTests {
    @Test func randomEditsUndosAndRedosMatchTheModel() throws {
        let seed: UInt64 = 0x5EED_0001
        var random = SplitMix64(state: seed)
        let library = Library(albums: [])
        let stack = UndoStack(undoLimit: 0)
        // The model: snapshots[i] is what the library holds when the stack's index is i.
        var snapshots: [[String]] = [[]]

        for step in 0..<2_000 {
            switch random.next() % 4 {
            case 0, 1:
                try stack.push(AppendAlbum(library: library, title: "Album \(step)"))
                snapshots = Array(snapshots[...(stack.index - 1)]) + [library.albums]
            case 2:
                try stack.undo()
            default:
                try stack.redo()
            }
            let expected = snapshots[stack.index]
            #expect(library.albums == expected, "seed \(seed), step \(step)")
            #expect(stack.count == snapshots.count - 1, "seed \(seed), step \(step)")
            if library.albums != expected { return }  // the first divergence is the one to read
        }
    }
}

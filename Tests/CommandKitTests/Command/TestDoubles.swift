import CommandKit

/// Records what commands did, in order.
final class Journal {
    var lines: [String] = []
}

struct TestError: Error, Equatable {
    let tag: String
}

/// A synchronous command that writes its tag to a journal, or throws when told to.
struct Record: Command, CustomStringConvertible {
    let tag: String
    let journal: Journal
    var fails = false

    func execute() throws {
        if fails { throw TestError(tag: tag) }
        journal.lines.append(tag)
    }

    var description: String { tag }
}

/// An asynchronous command that suspends before writing its tag.
struct AsyncRecord: AsyncCommand {
    let tag: String
    let journal: Journal
    var fails = false

    func execute() async throws {
        await Task.yield()
        if fails { throw TestError(tag: tag) }
        journal.lines.append(tag)
    }
}

import Foundation
import Synchronization
import Testing

@testable import AlbumsApp

@Suite struct ProgressBarTests {
    @Test(arguments: [
        (0, 100, "Importing [..........]   0% 0/100"), (45, 100, "Importing [####......]  45% 45/100"),
        (100, 100, "Importing [##########] 100% 100/100"), (150, 100, "Importing [##########] 100% 100/100"),
    ])
    func drawsTheBar(done: Int, total: Int, expected: String) {
        #expect(ProgressBar.line(done: done, total: total, width: 10) == expected)
    }

    @Test func redrawsOnlyWhenThePercentageChangesAndClearsAtTheEnd() {
        let written = Mutex<[String]>([])
        let console = Console(
            write: { _ in },
            writeError: { text in written.withLock { $0.append(text) } },
            readInput: { Data() },
            outputIsTerminal: false,
            errorIsTerminal: true,
            inputIsTerminal: false
        )
        let bar = ProgressBar(total: 1000, console: console)
        for done in stride(from: 0, through: 1000, by: 5) { bar.update(done) }
        bar.finish()
        let lines = written.withLock { $0 }
        #expect(lines.count == 101 + 1)
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("\r") })
        #expect(lines.last == "\r\u{1B}[2K")
    }
}

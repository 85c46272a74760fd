import CommandKit
import Testing

@Suite struct InvokerTests {
    @Test func runsCommandsFromAnArrayInOrder() async {
        let journal = Journal()
        let invoker = Invoker(commands: [
            Record(tag: "firebase", journal: journal),
            AsyncRecord(tag: "onesignal", journal: journal),
        ])

        let report = await invoker.run()

        #expect(journal.lines == ["firebase", "onesignal"])
        #expect(report.isSuccess)
        #expect(report.succeeded.map(\.index) == [0, 1])
        #expect(report.entries.map(\.name) == ["firebase", "AsyncRecord"])
        #expect(report.failed.isEmpty && report.skipped.isEmpty && !report.wasCancelled)
        #expect(throws: Never.self) { try report.checkSuccess() }
    }

    @Test(arguments: [false, true])
    func builderSupportsConditionsLoopsOptionalsAndArrays(flag: Bool) async {
        let journal = Journal()
        let maybe: Record? = flag ? Record(tag: "optional", journal: journal) : nil
        let invoker = Invoker {
            Record(tag: "first", journal: journal)
            if flag { Record(tag: "if", journal: journal) }
            if flag {
                Record(tag: "then", journal: journal)
            } else {
                AsyncRecord(tag: "else", journal: journal)
            }
            for number in 1...2 { Record(tag: "for\(number)", journal: journal) }
            maybe
            [Record(tag: "array", journal: journal)]
        }

        _ = await invoker.run()

        let expected =
            flag
            ? ["first", "if", "then", "for1", "for2", "optional", "array"]
            : ["first", "else", "for1", "for2", "array"]
        #expect(journal.lines == expected)
        #expect(invoker.commands.count == expected.count)
    }

    @Test func stopAtFirstFailureSkipsTheRest() async {
        let journal = Journal()
        let invoker = Invoker {
            Record(tag: "a", journal: journal)
            Record(tag: "b", journal: journal, fails: true)
            Record(tag: "c", journal: journal)
            AsyncRecord(tag: "d", journal: journal)
        }

        let report = await invoker.run()

        #expect(journal.lines == ["a"])
        #expect(!report.isSuccess)
        #expect(report.ran.map(\.index) == [0, 1])
        #expect(report.succeeded.map(\.index) == [0])
        #expect(report.failed.map(\.index) == [1])
        #expect(report.failed.first?.error as? TestError == TestError(tag: "b"))
        #expect(report.skipped.map(\.index) == [2, 3])
        #expect(throws: TestError(tag: "b")) { try report.checkSuccess() }
        #expect(
            report.description == """
                #0 a: succeeded
                #1 b: failed (TestError(tag: "b"))
                #2 c: skipped
                #3 AsyncRecord: skipped
                """)
    }

    @Test func continueAfterFailureRunsEverythingAndCollectsEachError() async {
        let journal = Journal()
        var invoker = Invoker(
            commands: [
                Record(tag: "a", journal: journal, fails: true),
                Record(tag: "b", journal: journal),
                AsyncRecord(tag: "c", journal: journal, fails: true),
            ],
            failurePolicy: .continueAfterFailure
        )
        invoker.append(Record(tag: "d", journal: journal))

        let report = await invoker.run()

        #expect(journal.lines == ["b", "d"])
        #expect(report.skipped.isEmpty)
        #expect(report.failed.map(\.index) == [0, 2])
        #expect(report.failed.compactMap { $0.error as? TestError } == [TestError(tag: "a"), TestError(tag: "c")])
        #expect(report.succeeded.map(\.index) == [1, 3])
        #expect(report.entries.map(\.description)[0].hasPrefix("#0 a: failed"))
    }

    @Test func cancelledRunSkipsCommandsNotYetStarted() async {
        // The run happens in a task of its own, which its second command cancels.
        let (report, lines) = await Task { () -> (Invoker.Report, [String]) in
            let journal = Journal()
            let invoker = Invoker {
                Record(tag: "a", journal: journal)
                ClosureCommand("cancel") { withUnsafeCurrentTask { $0?.cancel() } }
                Record(tag: "b", journal: journal)
            }
            return (await invoker.run(), journal.lines)
        }.value

        #expect(lines == ["a"])
        #expect(report.wasCancelled)
        #expect(report.succeeded.map(\.index) == [0, 1])
        #expect(report.skipped.map(\.index) == [2])
        #expect(throws: CancellationError.self) { try report.checkSuccess() }
    }

    @Test func runsCommandsOnTheCallersActor() async {
        // Given a caller isolated to an actor, commands (sync, and async after a suspension) run
        // on that actor too: an invoker can drive receivers the actor owns.
        let caller = InvokingActor()
        let (succeeded, onCaller) = await caller.runInvoker()
        #expect(succeeded)
        #expect(onCaller == [true, true])
        #expect(!caller.recognizer.executor.isCurrent)
    }

    @Test func emptyInvokerSucceeds() async {
        let report = await Invoker(commands: []).run()
        #expect(report.entries.isEmpty)
        #expect(report.isSuccess)
    }
}

/// An actor that runs an invoker; its commands touch the actor's own state, as real ones would.
private actor InvokingActor {
    let recognizer = RecognizableActor()
    private var onCaller: [Bool] = []

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        recognizer.unownedExecutor
    }

    /// Runs an invoker whose commands record whether they run on this actor.
    func runInvoker() async -> (succeeded: Bool, onCaller: [Bool]) {
        let report = await Invoker {
            ClosureCommand { self.onCaller.append(self.recognizer.executor.isCurrent) }
            AsyncClosureCommand {
                await Task.yield()
                self.onCaller.append(self.recognizer.executor.isCurrent)
            }
        }.run()
        return (report.isSuccess, onCaller)
    }
}

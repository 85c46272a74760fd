import Foundation
import Testing

/// Replays each fuzz target's committed seed corpus and crashers through its plain build.
///
/// `Fuzz/<target>/crashers/` holds every input that once crashed a target (kept after the fix): the
/// replay must now exit 0. The corpus replay shows the seeds still run clean.
@Suite struct FuzzRegressionTests {
    static let targets = ["stored-commands", "cli-arguments", "album-import", "album-query"]

    @Test(arguments: targets)
    func corpusAndCrashersReplayCleanly(target: String) async throws {
        let fuzz = ChildProcess.repositoryRoot.appendingPathComponent("Fuzz/\(target)")
        var inputs = [fuzz.appendingPathComponent("corpus").path]
        let crashers = fuzz.appendingPathComponent("crashers").path
        if FileManager.default.fileExists(atPath: crashers) { inputs.append(crashers) }
        let result = try await ChildProcess.run("fuzz-\(target)", inputs)
        #expect(!result.timedOut && !result.wasSignaled && result.status == 0, "\(result)")
        #expect(result.output.contains("replayed"), "\(result)")
        let seeds = try FileManager.default.contentsOfDirectory(atPath: inputs[0]).count
        #expect(seeds > 0, "Fuzz/\(target)/corpus is empty")
    }

    @Test func replayRefusesAMissingInput() async throws {
        let result = try await ChildProcess.run("fuzz-stored-commands", ["/nonexistent/input"])
        #expect(result.status == 2, "\(result)")
        #expect(result.error.contains("cannot read /nonexistent/input"), "\(result)")
    }
}

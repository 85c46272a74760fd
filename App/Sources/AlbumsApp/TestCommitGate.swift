import AlbumLibrary
import Foundation

/// A pause inside every write transaction, for the tests of races between processes.
///
/// When `ALBUMS_TEST_COMMIT_GATE` names a folder, each commit of a change to the library (a file
/// or a server) first creates `waiting-<pid>` in that folder, then waits, holding the write lock,
/// until a file named `go` appears there (at most ten minutes). A test can thus stop one `albums` process inside its
/// transaction, start another against the same library, and let the first commit when it chooses:
/// the order of the two transactions is then the test's, not the scheduler's. Without the variable
/// nothing is installed.
enum TestCommitGate {
    /// The environment variable naming the gate's folder.
    static let variable = "ALBUMS_TEST_COMMIT_GATE"

    /// Installs the gate on the session's library (a file or a server) when the environment asks
    /// for it.
    static func installIfRequested(on session: LibrarySession, environment: [String: String]) throws {
        guard let folder = environment[variable], !folder.isEmpty else { return }
        let waiting = URL(fileURLWithPath: folder).appendingPathComponent("waiting-\(getpid())").path
        let go = URL(fileURLWithPath: folder).appendingPathComponent("go").path
        try session.setCommitHook {
            _ = FileManager.default.createFile(atPath: waiting, contents: nil)
            let deadline = ContinuousClock.now + .seconds(600)
            while !FileManager.default.fileExists(atPath: go), ContinuousClock.now < deadline {
                usleep(2_000)
            }
        }
    }
}

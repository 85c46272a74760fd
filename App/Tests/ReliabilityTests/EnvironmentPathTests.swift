import Foundation
import Testing

/// The library's place from the environment, with the real binary (issue 27): `HOME` naming a
/// folder that does not exist once made albums create that folder chain at `/`.
@Suite struct EnvironmentPathTests {
    @Test func aHomeThatDoesNotExistIsRefusedAndNothingIsCreated() async throws {
        let missing = "/nonexistent-\(UUID().uuidString)/x"
        let result = try await ChildProcess.run(
            "albums", ["list"], environment: ["HOME": missing, "XDG_DATA_HOME": "", "ALBUMS_DB": ""])
        HostileEnvironmentTests.expectOneLineFailure(
            result, containing: "HOME=\(missing): \(missing) is not an existing folder", "HOME=\(missing)")
        #expect(!FileManager.default.fileExists(atPath: (missing as NSString).deletingLastPathComponent))
    }

    @Test func aRelativeXdgDataHomeIsIgnoredForTheHomeFolder() async throws {
        let home = try ChildProcess.makeFolder("relative-xdg")
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try await ChildProcess.run(
            "albums", ["info"], environment: ["HOME": home.path, "XDG_DATA_HOME": "data", "ALBUMS_DB": ""])
        #expect(result.status == 0, "\(result)")
        #expect(result.output.contains("\(home.path)/.local/share/albums/library.sqlite"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/data/albums"))
    }
}

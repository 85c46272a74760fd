import Foundation
import Testing

/// Issue 27, C1: `ulimit -v 150000; albums list` (also `export`, `--json list`, `--sort title`) on
/// 300,005 albums aborted with "failed to allocate": every album, every table cell and the whole
/// text were held at once. They now read and write a batch at a time, so the same limit lists and
/// exports the library whole. The fast form uses 100,005 albums; `RELIABILITY_LONG=1` the issue's
/// 300,005.
@Suite struct BoundedMemoryTests {
    static var albumCount: Int { ConcurrentWritersTests.isLong ? 300_000 : 100_000 }
    /// The issue's limit: `ulimit -v 150000` (KiB).
    static let limitKiB = 150_000

    // Not under a sanitizer: AddressSanitizer reserves terabytes of shadow memory at start.
    @Test(.enabled(if: HostileEnvironmentTests.hasPrlimit && !DamagedLibraryTests.isSanitized))
    func aWholeLibraryIsListedAndExportedUnderTheIssuesAddressSpaceLimit() async throws {
        let (folder, cli) = try await HostileEnvironmentTests.makeLibrary("bounded-memory", count: Self.albumCount)
        defer { try? FileManager.default.removeItem(at: folder) }
        let total = Self.albumCount + 5
        func limited(_ arguments: [String]) async throws -> ChildProcess.Result {
            let result = try await ChildProcess.run(
                "/usr/bin/prlimit",
                ["--as=\(Self.limitKiB * 1024)", HostileEnvironmentTests.albumsPath, "--db", cli.database] + arguments)
            #expect(!result.timedOut && !result.wasSignaled, "\(arguments): \(result.error)")
            #expect(result.status == 0 && result.error.isEmpty, "\(arguments): \(result.error)")
            return result
        }
        func lines(_ result: ChildProcess.Result) -> Int { result.output.utf8.count { $0 == UInt8(ascii: "\n") } }

        #expect(lines(try await limited(["list"])) == total)
        let sorted = try await limited(["list", "--sort", "title"])
        #expect(lines(sorted) == total)
        // "Album 0" (position 6, after the five defaults) sorts first, "Staring at the Sun" last.
        let first = sorted.output.prefix { $0 != "\n" }
        #expect(first.hasSuffix("6  Album 0  Artist 0  1950") || first.contains(" 6  Album 0  "), "\(first)")
        #expect(sorted.output.dropLast().split(separator: "\n").last?.contains("Staring at the Sun") == true)
        let json = try await limited(["--json", "list"])
        let rows = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
        #expect(rows?.count == total && rows?.last?["position"] as? Int == total)
        let exported = try await limited(["export"])
        #expect(
            try JSONDecoder().decode([ResourceLimitTests.Export].self, from: Data(exported.output.utf8)).count == total)
        let file = folder.appendingPathComponent("export.json")
        #expect(try await limited(["export", file.path]).output == "Exported \(total) albums to \(file.path)\n")
        #expect(try Data(contentsOf: file) == Data(exported.output.utf8))
        // "Album 1", "Album 1x", "Album 1xx"…: a ninth of them, with their positions found.
        let searched = try await limited(["list", "--search", "album 1"])
        #expect(lines(searched) > Self.albumCount / 10)
    }
}

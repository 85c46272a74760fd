import CommandStore
import Foundation
import SQLiteDatabase
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A full disk, a read-only library, huge values, invalid UTF-8 and control characters.
@Suite struct ResourceLimitTests {
    struct Export: Decodable, Equatable {
        var title: String
        var artist: String
        var genre: String?
    }

    static func exported(_ cli: AlbumsCLI) async throws -> [Export] {
        let result = try await cli("export")
        #expect(result.status == 0, "\(result)")
        return try JSONDecoder().decode([Export].self, from: Data(result.output.utf8))
    }

    static func historyText(_ cli: AlbumsCLI) async throws -> String {
        try await cli("history").output
    }

    /// A library with the defaults and 40 imported albums.
    static func makeLibrary(in folder: URL) async throws -> AlbumsCLI {
        let cli = AlbumsCLI(database: folder.path + "/library.db")
        let seed = folder.appendingPathComponent("seed.json")
        try AlbumsCLI.importFile(count: 40).write(to: seed)
        #expect(try await cli("import", seed.path).status == 0)
        return cli
    }

    /// `albums` under `prlimit --fsize`, SIGXFSZ ignored: writes past `limit` bytes fail with EFBIG,
    /// as on a full disk.
    static func runLimited(_ cli: AlbumsCLI, limit: Int, _ arguments: [String]) async throws -> ChildProcess.Result {
        let albums = ChildProcess.productsFolder.appendingPathComponent("albums").path
        return try await ChildProcess.run(
            "/usr/bin/prlimit",
            [
                "--fsize=\(limit):\(limit)", "--", "/bin/sh", "-c", "trap '' XFSZ; exec \"$0\" \"$@\"", albums, "--db",
                cli.database,
            ] + arguments
        )
    }

    /// The ThreadSanitizer build (`Scripts/sanitize.sh`'s scratch path): under a file-size limit the
    /// ThreadSanitizer runtime itself dies with SIGBUS in `albums`, before our code reports
    /// anything; the test runs in the plain build.
    static var isSanitizerBuild: Bool {
        let path = ChildProcess.productsFolder.path
        return path.contains(".build-tsan")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") && !isSanitizerBuild))
    func fullDiskFailsClearlyAndDamagesNothing() async throws {
        let folder = try ChildProcess.makeFolder("full-disk")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = try await Self.makeLibrary(in: folder)
        let before = try await Self.exported(cli)
        let history = try await Self.historyText(cli)
        let big = folder.appendingPathComponent("big.json")
        try AlbumsCLI.importFile(count: 3000, prefix: "Big", padding: 200).write(to: big)
        let size = FileManager.default.fileSize(cli.database)
        for limit in [size + 32 * 1024, size + 256 * 1024] {
            let result = try await Self.runLimited(cli, limit: limit, ["import", big.path])
            AlbumsCLI.expectNoCrash(result, "import with a \(limit)-byte file limit")
            AlbumsCLI.expectClearFailure(result, "import with a \(limit)-byte file limit")
            #expect(result.error.contains("library.db"), "\(result)")
            #expect(try await Self.exported(cli) == before, "the library changed")
            #expect(try await Self.historyText(cli) == history)
        }
        let db = try Database.openStore(path: cli.database, schemas: [])
        defer { db.close() }
        try db.checkIntegrity()
        #expect(try await cli("add", "--title", "After", "--artist", "Full disk").status == 0)
    }

    @Test func readOnlyLibraryRefusesWritesClearlyAndStaysUnchanged() async throws {
        let folder = try ChildProcess.makeFolder("read-only")
        defer {
            _ = chmod(folder.path, 0o700)
            try? FileManager.default.removeItem(at: folder)
        }
        let cli = try await Self.makeLibrary(in: folder)
        let isRoot = getuid() == 0
        // Root writes through file modes: run the commands as `nobody` instead (the file stays root's).
        _ = chmod(cli.database, 0o444)
        _ = chmod(folder.path, 0o555)
        let before = try DamagedStoreTests.contents(of: folder.path)
        func run(_ arguments: [String]) async throws -> ChildProcess.Result {
            guard isRoot else { return try await cli.run(arguments) }
            let albums = ChildProcess.productsFolder.appendingPathComponent("albums").path
            return try await ChildProcess.run(
                "/usr/bin/setpriv",
                ["--reuid=65534", "--regid=65534", "--clear-groups", albums, "--db", cli.database] + arguments
            )
        }
        for arguments in [
            ["add", "--title", "T", "--artist", "A"], ["delete", "1"], ["undo"], ["edit", "1", "--title", "X"],
        ] {
            let result = try await run(arguments)
            AlbumsCLI.expectNoCrash(result, "read-only \(arguments)")
            AlbumsCLI.expectClearFailure(result, "read-only \(arguments)")
        }
        for arguments in [["list"], ["history"], ["export"]] {
            let result = try await run(arguments)
            AlbumsCLI.expectNoCrash(result, "read-only \(arguments)")
            if result.status != 0 { AlbumsCLI.expectClearFailure(result, "read-only \(arguments)") }
        }
        #expect(try DamagedStoreTests.contents(of: folder.path) == before, "a read-only library changed")
    }

    @Test func megabyteTitlesAreRefusedClearly() async throws {
        let folder = try ChildProcess.makeFolder("huge")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = try await Self.makeLibrary(in: folder)
        let before = try await Self.exported(cli)
        let huge = String(repeating: "x", count: 1 << 20)
        let file = folder.appendingPathComponent("huge.json")
        try JSONSerialization.data(withJSONObject: [["title": huge, "artist": "A"]]).write(to: file)
        let imported = try await cli("import", file.path)
        AlbumsCLI.expectClearFailure(imported, "1 MB title import")
        // argv holds at most 128 KiB per argument: the largest title a command line can carry.
        let long = String(repeating: "y", count: 100_000)
        for arguments in [
            ["add", "--title", long, "--artist", "A"], ["edit", "1", "--title", long],
            ["add", "--title", "T", "--artist", long],
        ] {
            let result = try await cli.run(arguments)
            AlbumsCLI.expectNoCrash(result, "100 kB field")
            AlbumsCLI.expectClearFailure(result, "100 kB field")
            #expect(result.error.count < 2000, "the refusal echoes the whole value")
        }
        #expect(try await Self.exported(cli) == before)
    }

    @Test func invalidUTF8IsRefusedOrRepairedNeverStoredRaw() async throws {
        let folder = try ChildProcess.makeFolder("utf8")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = try await Self.makeLibrary(in: folder)
        let before = try await Self.exported(cli)
        // In an import file: refused, nothing changes.
        let file = folder.appendingPathComponent("bad.json")
        try Data("[{\"title\":\"ok \u{FF}".utf8.dropLast(2) + [0xFF, 0xFE] + Data("\",\"artist\":\"A\"}]".utf8)).write(
            to: file)
        let imported = try await cli("import", file.path)
        AlbumsCLI.expectClearFailure(imported, "invalid UTF-8 import")
        #expect(try await Self.exported(cli) == before)
        // On the command line (through a shell, since Process takes Swift strings): the runtime
        // decodes argv with U+FFFD for bad bytes, so the library holds valid UTF-8.
        let albums = ChildProcess.productsFolder.appendingPathComponent("albums").path
        let added = try await ChildProcess.run(
            "/bin/sh",
            [
                "-c", "exec \"$0\" --db \"$1\" add --title \"$(printf 'bad\\377\\376title')\" --artist A", albums,
                cli.database,
            ]
        )
        AlbumsCLI.expectNoCrash(added, "invalid UTF-8 argument")
        if added.status == 0 {
            let titles = try await Self.exported(cli).map(\.title)
            #expect(titles.contains("bad\u{FFFD}\u{FFFD}title"), "\(titles.suffix(2))")
        } else {
            AlbumsCLI.expectClearFailure(added, "invalid UTF-8 argument")
        }
    }

    @Test func controlCharactersAreStoredFaithfullyAndNeverReachTheTerminal() async throws {
        let folder = try ChildProcess.makeFolder("control")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = AlbumsCLI(database: folder.path + "/library.db")
        let hostile = "Clear\u{1B}[2J\u{1B}]0;owned\u{07}Bell\rReturn\nLine\u{0}Nul\u{7F}Del\u{9B}31mCSI\u{202E}RTL"
        let added = try await cli(
            "add", "--title", hostile.replacingOccurrences(of: "\u{0}", with: ""), "--artist", "Tab\there")
        #expect(added.status == 0, "\(added)")
        for arguments in [["list"], ["show", "6"], ["history"], ["undo"], ["redo"]] {
            let result = try await cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
            let unsafe = result.output.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}"
            }
            #expect(
                unsafe.isEmpty, "\(arguments) printed control characters: \(unsafe.map { String($0.value, radix: 16) })"
            )
        }
        let stored = try await Self.exported(cli).last
        #expect(
            stored?.title == hostile.replacingOccurrences(of: "\u{0}", with: ""),
            "not stored faithfully: \(String(describing: stored))")
        #expect(stored?.artist == "Tab\there")
    }
}

extension FileManager {
    func fileSize(_ path: String) -> Int {
        ((try? attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}

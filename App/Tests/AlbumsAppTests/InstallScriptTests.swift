import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `Scripts/install.sh`, run for real as a child process, installing the debug `albums` these tests
/// already use (`ALBUMS_INSTALL_BINARY`: the script's own release build takes minutes) into a
/// temporary PREFIX.
@Suite struct InstallScriptTests {
    /// The repository's root folder (App/Tests/AlbumsAppTests/ is three below it).
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The completion scripts under PREFIX: what registers each with its shell, and how each
    /// spells `list --search`.
    static let completions = [
        ("share/bash-completion/completions/albums", "\ncomplete -o filenames -F _albums albums\n", "--search"),
        ("share/zsh/site-functions/_albums", "#compdef albums\n", "{-s,--search}"),
        ("share/fish/vendor_completions.d/albums.fish", "complete -c 'albums' ", "-l 'search'"),
    ]

    /// A PATH with the usual tools and, when given, `extra` first.
    static func path(with extra: String? = nil) -> String {
        ([extra].compactMap { $0 } + ["/usr/local/bin", "/usr/bin", "/bin"]).joined(separator: ":")
    }

    /// Runs `bash Scripts/install.sh` in `folder` with `environment` (PATH, PREFIX, …) on top of the
    /// test's own, the debug `albums` as the binary unless `environment` names another.
    static func install(
        in folder: URL, _ environment: [String: String], umask: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> AlbumsProcess.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        let script = repositoryRoot.appendingPathComponent("Scripts/install.sh").path
        // With `umask`, the script runs under that umask, as from a shell that set it.
        process.arguments = umask.map { ["-c", "umask \($0) && exec /bin/bash \"$0\"", script] } ?? [script]
        process.currentDirectoryURL = folder
        var merged = ProcessInfo.processInfo.environment
        merged["ALBUMS_INSTALL_BINARY"] = AlbumsProcess.executable.path
        merged.merge(environment) { $1 }
        process.environment = merged
        let outputURL = folder.appendingPathComponent("install-stdout")
        let errorURL = folder.appendingPathComponent("install-stderr")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        let exit = try await ProcessExit.run(process, timeout: Patience.childProcess)
        try output.close()
        try error.close()
        let result = AlbumsProcess.Result(
            status: process.terminationStatus, output: try String(contentsOf: outputURL, encoding: .utf8),
            error: try String(contentsOf: errorURL, encoding: .utf8), timedOut: exit.timedOut)
        try FileManager.default.removeItem(at: outputURL)
        try FileManager.default.removeItem(at: errorURL)
        #expect(!result.timedOut, "\(result)", sourceLocation: sourceLocation)
        return result
    }

    /// Every file under `folder`, as paths relative to it.
    static func files(under folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        return (enumerator?.allObjects as? [String] ?? []).sorted()
    }

    static func attributes(_ path: String) throws -> (mode: Int, inode: UInt64) {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let mode = try #require(attributes[.posixPermissions] as? NSNumber).intValue
        let inode = try #require(attributes[.systemFileNumber] as? NSNumber).uint64Value
        return (mode, inode)
    }

    @Test func installsARunnableBinaryAndThreeCompletionScripts() async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A space in PREFIX: every path in the script is quoted.
        let prefix = folder.appendingPathComponent("my prefix")
        let result = try await Self.install(in: folder, ["PREFIX": prefix.path, "PATH": Self.path()])
        #expect(result.status == 0, "\(result)")
        #expect(result.error.isEmpty, "\(result)")

        let binary = prefix.appendingPathComponent("bin/albums")
        #expect(try Self.attributes(binary.path).mode == 0o755)
        let version = try await AlbumsProcess(database: "").run(["--version"], executable: binary)
        let expected = try await AlbumsProcess(database: "").run(["--version"])
        #expect(version.status == 0 && !version.output.isEmpty, "\(version)")
        #expect(version.output == expected.output)
        #expect(try Data(contentsOf: binary) == Data(contentsOf: AlbumsProcess.executable))

        for (path, registration, searchOption) in Self.completions {
            let text = try String(contentsOf: prefix.appendingPathComponent(path), encoding: .utf8)
            #expect(text.contains(registration), "\(path) does not look like its shell's completion")
            #expect(text.contains(searchOption), "\(path) does not complete list's options")
        }
        #expect(
            try String(contentsOf: prefix.appendingPathComponent(Self.completions[1].0), encoding: .utf8).hasPrefix(
                "#compdef albums\n"))
        #expect(
            Self.files(under: prefix) == [
                "bin", "bin/albums", "share", "share/bash-completion", "share/bash-completion/completions",
                "share/bash-completion/completions/albums", "share/fish", "share/fish/vendor_completions.d",
                "share/fish/vendor_completions.d/albums.fish", "share/zsh", "share/zsh/site-functions",
                "share/zsh/site-functions/_albums",
            ])

        // The summary names what was installed, and the hint the PATH that lacks it.
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(
            lines.first == "install: \(version.output.trimmingCharacters(in: .newlines)) in \(binary.path), "
                + "completions under \(prefix.path)/share")
        #expect(lines.count == 2 && lines[1].hasPrefix("install: \(prefix.path)/bin is not on your PATH"), "\(result)")
    }

    /// Under `umask 000` (a shell that set it), nothing installed is writable by others: a
    /// world-writable folder or completion script on a PATH would be anyone's program. A stricter
    /// umask is kept for what the script creates.
    @Test(arguments: [("000", 0o755, 0o644), ("077", 0o700, 0o600)])
    func theCallersUmaskNeverMakesAnInstalledFileWritableByOthers(
        umask: String, folderMode: Int, fileMode: Int
    )
        async throws
    {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let prefix = folder.appendingPathComponent("prefix")
        let result = try await Self.install(in: folder, ["PREFIX": prefix.path, "PATH": Self.path()], umask: umask)
        #expect(result.status == 0, "\(result)")
        for path in Self.files(under: prefix) {
            let full = prefix.appendingPathComponent(path).path
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isFolder)
            let expected = isFolder.boolValue ? folderMode : path == "bin/albums" ? 0o755 : fileMode
            #expect(try Self.attributes(full).mode == expected, "\(path) under umask \(umask)")
        }
        #expect(Self.files(under: prefix).count == 12)
    }

    @Test func aSecondInstallRenamesTheNewBinaryOverTheOld() async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let prefix = folder.appendingPathComponent("prefix")
        let bin = prefix.appendingPathComponent("bin")
        let onPath = ["PREFIX": prefix.path, "PATH": Self.path(with: bin.path)]
        let first = try await Self.install(in: folder, onPath)
        #expect(first.status == 0, "\(first)")
        // PREFIX/bin is on the PATH: no hint.
        #expect(!first.output.contains("not on your PATH"), "\(first)")
        #expect(first.output.split(separator: "\n").count == 1, "\(first)")

        // A running albums holds the old file open; a stale temporary from an interrupted install.
        let binary = bin.appendingPathComponent("albums")
        let old = try Self.attributes(binary.path)
        let running = try FileHandle(forReadingFrom: binary)
        defer { try? running.close() }
        try Data("stale".utf8).write(to: bin.appendingPathComponent(".albums.new"))

        let second = try await Self.install(in: folder, onPath)
        #expect(second.status == 0, "\(second)")
        let new = try Self.attributes(binary.path)
        #expect(new.inode != old.inode, "the binary was written in place, not renamed over the old")
        #expect(new.mode == 0o755)
        #expect(try running.readToEnd() == Data(contentsOf: AlbumsProcess.executable), "the old file changed")
        #expect(try Data(contentsOf: binary) == Data(contentsOf: AlbumsProcess.executable))
        #expect(try FileManager.default.contentsOfDirectory(atPath: bin.path) == ["albums"])
        #expect(!Self.files(under: prefix).contains { $0.hasSuffix(".new") })
    }

    @Test func aRelativePrefixIsTakenFromTheCallersFolder() async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await Self.install(in: folder, ["PREFIX": "relative/", "PATH": Self.path()])
        #expect(result.status == 0, "\(result)")
        let binary = folder.appendingPathComponent("relative/bin/albums").path
        #expect(FileManager.default.isExecutableFile(atPath: binary), "\(result)")
        #expect(result.output.contains(" in \(binary), "), "\(result)")
    }

    /// A refusal: one line on standard error naming `text`, a non-zero exit, nothing installed.
    static func expectRefusal(
        _ result: AlbumsProcess.Result, containing text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status != 0, "\(result)", sourceLocation: sourceLocation)
        #expect(result.error.hasPrefix("install: "), "\(result)", sourceLocation: sourceLocation)
        #expect(
            result.error.filter { $0 == "\n" }.count == 1, "not one line: \(result)", sourceLocation: sourceLocation)
        #expect(result.error.contains(text), "expected \"\(text)\": \(result)", sourceLocation: sourceLocation)
        #expect(!result.output.contains("install: albums"), "\(result)", sourceLocation: sourceLocation)
    }

    @Test func aFileInThePrefixsWayIsRefusedBeforeAnythingIsWritten() async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // PREFIX itself a file, a file below it, PREFIX/bin a file.
        let file = folder.appendingPathComponent("file")
        try Data("a file\n".utf8).write(to: file)
        let prefix = folder.appendingPathComponent("prefix")
        try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: false)
        try Data("not a folder\n".utf8).write(to: prefix.appendingPathComponent("bin"))
        let cases = [
            (file.path, file.path), (file.path + "/below", file.path), (prefix.path, prefix.path + "/bin"),
        ]
        for (given, blocker) in cases {
            let before = Self.files(under: folder)
            let result = try await Self.install(in: folder, ["PREFIX": given, "PATH": Self.path()])
            Self.expectRefusal(result, containing: "\(blocker) is a file, not a folder")
            #expect(result.error.contains("choose another PREFIX"), "\(result)")
            #expect(Self.files(under: folder) == before, "PREFIX=\(given): files changed")
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "a file\n")
    }

    @Test func aFolderWhereTheBinaryGoesIsRefused() async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let prefix = folder.appendingPathComponent("prefix")
        try FileManager.default.createDirectory(
            at: prefix.appendingPathComponent("bin/albums"), withIntermediateDirectories: true)
        let result = try await Self.install(in: folder, ["PREFIX": prefix.path, "PATH": Self.path()])
        Self.expectRefusal(result, containing: "cannot install \(prefix.path)/bin/albums: a folder is in the way")
        #expect(try FileManager.default.contentsOfDirectory(atPath: prefix.path + "/bin/albums").isEmpty)
    }

    @Test func aMissingBinaryIsRefused() async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let prefix = folder.appendingPathComponent("prefix")
        let missing = folder.appendingPathComponent("no-such-albums").path
        let result = try await Self.install(
            in: folder, ["PREFIX": prefix.path, "PATH": Self.path(), "ALBUMS_INSTALL_BINARY": missing])
        Self.expectRefusal(result, containing: "ALBUMS_INSTALL_BINARY: \(missing) is not an executable file")
        #expect(!FileManager.default.fileExists(atPath: prefix.path))
    }

    // Root writes through a folder's mode: only an unprivileged run can see the refusal.
    @Test(.enabled(if: getuid() != 0, "root writes into read-only folders"))
    func aReadOnlyPrefixIsRefusedWithTheReason() async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer {
            _ = chmod(folder.path + "/read-only", 0o700)
            try? FileManager.default.removeItem(at: folder)
        }
        let prefix = folder.appendingPathComponent("read-only")
        try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: false)
        #expect(chmod(prefix.path, 0o500) == 0)
        let result = try await Self.install(in: folder, ["PREFIX": prefix.path, "PATH": Self.path()])
        Self.expectRefusal(result, containing: "cannot create \(prefix.path)/bin: Permission denied")
        #expect(try FileManager.default.contentsOfDirectory(atPath: prefix.path).isEmpty)
    }
}

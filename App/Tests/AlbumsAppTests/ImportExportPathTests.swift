import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Black-box tests: `albums import` and `albums export` named a path that is not a regular file
/// (a directory, a device, a FIFO, a socket, nothing at all). Each run exits 1 at once with one
/// clear line, and neither the library nor the named path changes.
@Suite struct ImportExportPathTests {
    /// Something at a path, made in the test's own folder (or a fixed system path).
    enum Thing: String, CaseIterable, CustomTestStringConvertible {
        case directory, rootDirectory, linkToDirectory, characterDevice, fifo, linkToFIFO, socket
        case missingFile, missingFolder, underARegularFile

        var testDescription: String { rawValue }

        /// Creates the thing under `folder` and returns its path.
        func make(in folder: URL) throws -> String {
            let path = folder.appendingPathComponent("thing").path
            switch self {
            case .directory:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            case .rootDirectory:
                return "/"
            case .linkToDirectory:
                try FileManager.default.createDirectory(atPath: path + "-target", withIntermediateDirectories: false)
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path + "-target")
            case .characterDevice:
                return "/dev/zero"
            case .fifo:
                try #require(mkfifo(path, 0o600) == 0, "mkfifo: errno \(errno)")
            case .linkToFIFO:
                try #require(mkfifo(path + "-target", 0o600) == 0, "mkfifo: errno \(errno)")
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path + "-target")
            case .socket:
                try makeSocket(at: path)
            case .missingFile:
                return path + ".json"
            case .missingFolder:
                return path + "/albums.json"
            case .underARegularFile:
                try Data("[]".utf8).write(to: URL(fileURLWithPath: path))
                return path + "/albums.json"
            }
            return path
        }
    }

    /// The reason `albums import` gives after "cannot import PATH: ".
    static func importReason(_ thing: Thing) -> String {
        switch thing {
        case .directory, .rootDirectory, .linkToDirectory: "it is a directory"
        case .characterDevice: "it is a character device, not a regular file"
        case .fifo, .linkToFIFO: "it is a FIFO (named pipe), not a regular file"
        case .socket: "it is a socket, not a regular file"
        case .missingFile, .missingFolder, .underARegularFile: "no such file"
        }
    }

    /// The reason `albums export` gives after "cannot export to PATH: " (`folder/thing` is the path's parent).
    static func exportReason(_ thing: Thing, parent: String) -> String {
        switch thing {
        case .directory, .rootDirectory, .linkToDirectory: "it is a directory"
        case .characterDevice: "it is a character device, not a regular file"
        case .fifo, .linkToFIFO: "it is a FIFO (named pipe), not a regular file"
        case .socket: "it is a socket, not a regular file"
        case .missingFile: "unused"
        case .missingFolder: "\(parent) does not exist"
        case .underARegularFile: "\(parent) is not a directory"
        }
    }

    private func withLibrary(_ body: (AlbumsProcess, URL) async throws -> Void) async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let albums = AlbumsProcess(database: folder.appendingPathComponent("library.sqlite").path)
        // Two steps in the history, so an import that slipped through would show in it.
        _ = try await albums("add", "--title", "Setup", "--artist", "A")
        _ = try await albums("delete", "1")
        try await body(albums, folder)
    }

    /// What a path is, without following a final link, to see that a command left it alone.
    private static func identity(_ path: String) -> String {
        var status = stat()
        guard lstat(path, &status) == 0 else { return "absent" }
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? ""
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted() ?? []
        return
            "mode \(String(status.st_mode, radix: 8)) inode \(status.st_ino) size \(status.st_size) link \(target) entries \(entries)"
    }

    @Test(arguments: Thing.allCases)
    func importOfAPathThatIsNotARegularFileChangesNothing(thing: Thing) async throws {
        try await withLibrary { albums, folder in
            let path = try thing.make(in: folder)
            let before = try await albums.snapshot()
            let identity = Self.identity(path)
            // The timeout only turns a regression (a read that blocks on the FIFO) into a failure.
            let result = try await albums("import", path)
            #expect(!result.timedOut, "\(result)")
            #expect(result.status == 1, "\(result)")
            #expect(result.output.isEmpty, "\(result)")
            #expect(result.error == "albums: cannot import \(path): \(Self.importReason(thing))\n", "\(result)")
            #expect(Self.identity(path) == identity)
            #expect(try await albums.snapshot() == before)
        }
    }

    @Test(arguments: Thing.allCases.filter { $0 != .missingFile && $0 != .characterDevice })
    func exportToAPathThatIsNotARegularFileChangesNothing(thing: Thing) async throws {
        // No real device here: a broken check would replace it with a file (as root, /dev/null).
        try await withLibrary { albums, folder in
            let path = try thing.make(in: folder)
            let before = try await albums.snapshot()
            let identity = Self.identity(path)
            let result = try await albums("export", path)
            #expect(!result.timedOut, "\(result)")
            #expect(result.status == 1, "\(result)")
            #expect(result.output.isEmpty, "\(result)")
            let parent = (path as NSString).deletingLastPathComponent
            #expect(
                result.error == "albums: cannot export to \(path): \(Self.exportReason(thing, parent: parent))\n",
                "\(result)")
            #expect(Self.identity(path) == identity)
            #expect(Self.identity(parent + "/albums.json") == "absent")
            #expect(try await albums.snapshot() == before)
        }
    }

    /// As root every file is readable, so the refusal cannot be seen there.
    @Test(.enabled(if: geteuid() != 0, "root reads files without read permission"))
    func importOfAFileWithoutReadPermissionChangesNothing() async throws {
        try await withLibrary { albums, folder in
            let path = folder.appendingPathComponent("secret.json").path
            try Data(#"[{"title": "Hidden", "artist": "A"}]"#.utf8).write(to: URL(fileURLWithPath: path))
            try #require(chmod(path, 0) == 0)
            defer { _ = chmod(path, 0o600) }
            let before = try await albums.snapshot()
            let result = try await albums("import", path)
            #expect(result.status == 1, "\(result)")
            #expect(result.error == "albums: cannot import \(path): permission denied\n", "\(result)")
            #expect(try await albums.snapshot() == before)
        }
    }

    /// Links are followed: a link to a regular file imports that file, and exporting over a link
    /// to a regular file replaces the link (the file it named keeps its bytes).
    @Test func aLinkToARegularFileImportsAndExports() async throws {
        try await withLibrary { albums, folder in
            let file = folder.appendingPathComponent("new.json").path
            try Data(#"[{"title": "Linked", "artist": "A"}]"#.utf8).write(to: URL(fileURLWithPath: file))
            let link = folder.appendingPathComponent("link.json").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
            let imported = try await albums("import", link)
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.output == "Imported 1 album (position 6)\n", "\(imported)")
            let exported = try await albums("export", link)
            #expect(exported.status == 0, "\(exported)")
            #expect(try String(contentsOfFile: link, encoding: .utf8).contains("\"Linked\""))
            #expect(try String(contentsOfFile: file, encoding: .utf8) == #"[{"title": "Linked", "artist": "A"}]"#)
        }
    }

    /// An empty regular file is read and refused as JSON, as before: the check lets regular files through.
    @Test func anEmptyRegularFileIsReadAndRefusedAsJSON() async throws {
        try await withLibrary { albums, folder in
            let path = folder.appendingPathComponent("empty.json").path
            _ = FileManager.default.createFile(atPath: path, contents: Data())
            let before = try await albums.snapshot()
            let result = try await albums("import", path)
            #expect(result.status == 1, "\(result)")
            #expect(result.error.hasPrefix("albums: \(path): not valid JSON"), "\(result)")
            #expect(try await albums.snapshot() == before)
        }
    }
}

/// Binds a Unix-domain socket at `path` and closes it: the socket file stays behind.
private func makeSocket(at path: String) throws {
    #if canImport(Glibc)
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    try #require(descriptor >= 0, "socket: errno \(errno)")
    defer { close(descriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path), "socket path too long: \(path)")
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        buffer.copyBytes(from: bytes)
        buffer[bytes.count] = 0
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    try #require(bound == 0, "bind \(path): errno \(errno)")
}

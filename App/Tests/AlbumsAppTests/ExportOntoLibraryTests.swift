import AlbumLibrary
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Black-box tests: `albums export` named the library it exports, or one of its companion files,
/// under any name (the same path, a symbolic link, a hard link, `folder/../library.sqlite`, a
/// linked folder). Each run exits 1 with one line, and the library still opens with all its albums
/// and its history.
///
/// Regression: `albums --db lib.sqlite export lib.sqlite` replaced the library with its own JSON
/// and exited 0; `export lib.sqlite-wal` deleted the log.
@Suite struct ExportOntoLibraryTests {
    /// A way to name the library, or a companion, as an export's destination.
    enum Destination: String, CaseIterable, CustomTestStringConvertible {
        case samePath, dotSlash, symbolicLink, hardLink, throughParentFolder, throughLinkedFolder
        case log, index, journal, journalThroughLinkedFolder, danglingLinkToJournal
        case openLogByHardLink, openIndexBySymbolicLink

        var testDescription: String { rawValue }

        /// The companion the destination is, "" for the library itself.
        var suffix: String {
            switch self {
            case .log, .openLogByHardLink: "-wal"
            case .index, .openIndexBySymbolicLink: "-shm"
            case .journal, .journalThroughLinkedFolder, .danglingLinkToJournal: "-journal"
            default: ""
            }
        }

        /// Whether the library must be open in another connection, so its `-wal` and `-shm` exist.
        var needsOpenLibrary: Bool { self == .openLogByHardLink || self == .openIndexBySymbolicLink }

        /// Makes what the destination needs in `folder` (the library is `folder/library.sqlite`)
        /// and returns the destination as the user would type it.
        func make(in folder: String) throws -> String {
            let library = folder + "/library.sqlite"
            let files = FileManager.default
            switch self {
            case .samePath: return library
            case .dotSlash: return folder + "/./library.sqlite"
            case .symbolicLink:
                try files.createSymbolicLink(atPath: folder + "/link.sqlite", withDestinationPath: "library.sqlite")
                return folder + "/link.sqlite"
            case .hardLink:
                try #require(link(library, folder + "/hard.sqlite") == 0, "link: errno \(errno)")
                return folder + "/hard.sqlite"
            case .throughParentFolder:
                try files.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: false)
                return folder + "/sub/../library.sqlite"
            case .throughLinkedFolder:
                try files.createSymbolicLink(atPath: folder + "/same", withDestinationPath: folder)
                return folder + "/same/library.sqlite"
            case .log, .index, .journal: return library + suffix
            case .journalThroughLinkedFolder:
                try files.createSymbolicLink(atPath: folder + "/same", withDestinationPath: folder)
                return folder + "/same/library.sqlite-journal"
            case .danglingLinkToJournal:
                try files.createSymbolicLink(
                    atPath: folder + "/journal-link", withDestinationPath: "library.sqlite-journal")
                return folder + "/journal-link"
            case .openLogByHardLink:
                try #require(link(library + "-wal", folder + "/log-copy") == 0, "link: errno \(errno)")
                return folder + "/log-copy"
            case .openIndexBySymbolicLink:
                try files.createSymbolicLink(atPath: folder + "/index-link", withDestinationPath: library + "-shm")
                return folder + "/index-link"
            }
        }
    }

    /// What each companion is called in the refusal.
    static func name(ofSuffix suffix: String) -> String {
        switch suffix {
        case "-wal": "the library's write-ahead log"
        case "-shm": "the library's shared-memory index"
        case "-journal": "the library's rollback journal"
        default: "the library itself"
        }
    }

    @Test(arguments: Destination.allCases)
    func exportOntoTheLibraryOrACompanionIsRefused(destination: Destination) async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.path + "/library.sqlite"
        let albums = AlbumsProcess(database: library)
        // Two steps in the history, so a library replaced by its JSON (or a lost log) would show.
        _ = try await albums("add", "--title", "Kept", "--artist", "A")
        _ = try await albums("delete", "1")
        let before = try await albums.snapshot()
        let listed = try await albums("list")
        // Read before the holder opens: closing a descriptor of the file would drop its locks.
        let libraryBytes = try Data(contentsOf: URL(fileURLWithPath: library))
        // Holding the library open keeps its -wal and -shm on disk, as a running terminal UI does.
        let holder = destination.needsOpenLibrary ? try LibrarySession.open(path: library) : nil
        let path = try destination.make(in: folder.path)

        let result = try await albums("export", path, timeout: 60)
        holder?.close()

        #expect(result.status == 1, "\(result)")
        #expect(result.output.isEmpty, "\(result)")
        #expect(
            result.error
                == "albums: cannot export to \(path): it is \(Self.name(ofSuffix: destination.suffix)) "
                + "(\(library + destination.suffix)); nothing was changed\n",
            "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: library)) == libraryBytes)
        #expect(try await albums.snapshot() == before)
        let history = try await albums("history")
        #expect(history.status == 0 && history.output.contains("Delete “Best of Bowie”"), "\(history)")
        #expect(try await albums("list").output == listed.output)
        // No temporary export file was left beside it.
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!entries.contains { $0.contains(".exporting-") }, "\(entries)")
    }

    /// `--db` a link: SQLite keeps the log beside the file the link points to, and so does the check.
    @Test func exportOntoTheLogOfALinkedLibraryIsRefused() async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(atPath: folder.path + "/real", withIntermediateDirectories: false)
        let target = folder.path + "/real/library.sqlite"
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link.sqlite", withDestinationPath: target)
        let albums = AlbumsProcess(database: folder.path + "/link.sqlite")
        _ = try await albums("delete", "1")
        let holder = try LibrarySession.open(path: target)
        defer { holder.close() }
        let before = try await albums.snapshot()

        let result = try await albums("export", target + "-wal")

        #expect(result.status == 1, "\(result)")
        #expect(
            result.error
                == "albums: cannot export to \(target)-wal: it is the library's write-ahead log (\(target)-wal); "
                + "nothing was changed\n",
            "\(result)")
        #expect(try await albums.snapshot() == before)
    }

    /// `import` of the library or its index: not an album file, and reading it with a descriptor
    /// of its own would unlock this process's connection on it (SecondOpenKeepsLocksTests).
    @Test(arguments: ["", "-shm"])
    func importOfTheLibraryOrItsIndexIsRefused(suffix: String) async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.path + "/library.sqlite"
        let albums = AlbumsProcess(database: library)
        _ = try await albums("delete", "1")
        let holder = try LibrarySession.open(path: library)
        defer { holder.close() }
        let before = try await albums.snapshot()

        let result = try await albums("import", library + suffix)

        #expect(result.status == 1 && result.output.isEmpty, "\(result)")
        #expect(
            result.error.hasPrefix("albums: cannot import \(library + suffix): it is \(Self.name(ofSuffix: suffix)) ("),
            "\(result)")
        #expect(try await albums.snapshot() == before)
    }

    /// A file beside the library whose name only starts like it is an ordinary destination.
    /// A backup its owner made read-only is replaced only with `--force`, as `cp` refuses it.
    @Test func aReadOnlyBackupIsReplacedOnlyWithForce() async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let albums = AlbumsProcess(database: folder.appendingPathComponent("library.sqlite").path)
        let backup = folder.appendingPathComponent("backup.json").path
        #expect(FileManager.default.createFile(atPath: backup, contents: Data("kept".utf8)))
        #expect(chmod(backup, 0o400) == 0)
        let refused = try await albums("export", backup)
        #expect(refused.status == 1 && refused.output.isEmpty, "\(refused)")
        #expect(refused.error.contains("it is read-only (mode 0400); add --force to replace it"), "\(refused)")
        #expect(try String(contentsOfFile: backup, encoding: .utf8) == "kept")
        let forced = try await albums("export", "--force", backup)
        #expect(forced.status == 0, "\(forced)")
        #expect(try String(contentsOfFile: backup, encoding: .utf8) == (try await albums("export").output))
    }

    @Test func aFileNamedLikeTheLibraryIsExportedTo() async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let albums = AlbumsProcess(database: folder.path + "/library.sqlite")
        let result = try await albums("export", folder.path + "/library.sqlite-backup.json")
        #expect(result.status == 0, "\(result)")
        #expect(result.output == "Exported 5 albums to \(folder.path)/library.sqlite-backup.json\n")
    }
}

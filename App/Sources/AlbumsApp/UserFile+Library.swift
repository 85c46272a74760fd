import Foundation
import SQLiteDatabase

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension UserFile {
    /// The files beside a library that are part of it, with what each is: SQLite finds them by name.
    static let libraryCompanions = [
        ("-wal", "write-ahead log"), ("-shm", "shared-memory index"), ("-journal", "rollback journal"),
    ]

    /// Refuses a destination that is the library at `library` or one of its companion files.
    ///
    /// Compared by identity, not by spelling: an existing destination is looked up with links
    /// followed and its device and inode compared with the library's and each companion's, so a
    /// symbolic link, a hard link or `folder/../library.sqlite` is caught. A companion that does not
    /// exist yet (there is a `-journal` only during some writes) has no identity: the destination's
    /// folder, links followed, and its name are compared with the companion's instead, and a dangling
    /// link is followed one step to the name it points at. When the library's path is a link, the
    /// companions beside the file it points to count too (SQLite puts them there).
    ///
    /// - Parameters:
    ///   - destination: The file the user named.
    ///   - library: The library's path.
    /// - Throws: ``Refusal`` naming the library file the destination is.
    static func requireNotPartOfLibrary(_ destination: String, library: String) throws(Refusal) {
        let parts = [("", "the library itself")] + libraryCompanions.map { ($0.0, "the library's " + $0.1) }
        // SQLite puts the companions beside the file a linked library path points to.
        let bases = Set([library, resolvedPath(library)])
        if let target = FileIdentity(path: destination) {
            for base in bases {
                for (suffix, what) in parts where FileIdentity(path: base + suffix) == target {
                    throw refusal(what, base + suffix)
                }
            }
        }
        let candidates = [destination] + (danglingLinkTarget(destination).map { [$0] } ?? [])
        for base in bases {
            let libraryName = (base as NSString).lastPathComponent
            guard let libraryFolder = FileIdentity(path: folderOf(base)) else { continue }
            for candidate in candidates where FileIdentity(path: folderOf(candidate)) == libraryFolder {
                let name = (candidate as NSString).lastPathComponent
                for (suffix, what) in parts where name == libraryName + suffix {
                    throw refusal(what, base + suffix)
                }
            }
        }
    }

    /// `path` with its symbolic links resolved (its folder's, when it does not exist).
    private static func resolvedPath(_ path: String) -> String {
        func real(_ path: String) -> String? {
            guard let resolved = realpath(path, nil) else { return nil }
            defer { free(resolved) }
            return String(cString: resolved)
        }
        if let resolved = real(path) { return resolved }
        guard let folder = real(folderOf(path)) else { return path }
        return (folder as NSString).appendingPathComponent((path as NSString).lastPathComponent)
    }

    private static func refusal(_ what: String, _ path: String) -> Refusal {
        Refusal(reason: "it is \(what) (\(path)); nothing was changed")
    }

    /// The folder part of `path` ("." for a bare name), which `stat` then resolves through links.
    private static func folderOf(_ path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// Where a symbolic link at `path` points, as a path, when nothing is there.
    private static func danglingLinkTarget(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK, stat(path, &status) != 0 else {
            return nil
        }
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { return nil }
        return target.hasPrefix("/") ? target : folderOf(path) + "/" + target
    }
}

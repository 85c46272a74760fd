import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Everything in a folder, to check a command changed nothing: each regular file's bytes and mode,
/// and for anything else (a FIFO, a socket, a folder, a link) its kind and mode, never opened, so
/// taking a snapshot cannot block on a FIFO.
struct FolderSnapshot: Equatable, CustomStringConvertible {
    var entries: [String: String]
    var contents: [String: Data]

    init(_ folder: String) throws {
        entries = [:]
        contents = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0 else { continue }
            let mode = String(info.st_mode & 0o7777, radix: 8)
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
                entries[name] = "file \(mode) \(bytes.count) bytes"
                contents[name] = bytes
            case S_IFIFO: entries[name] = "fifo \(mode)"
            case S_IFSOCK: entries[name] = "socket \(mode)"
            case S_IFDIR: entries[name] = "folder \(mode)"
            case S_IFLNK:
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + name)
                entries[name] = "link \(target ?? "?")"
            default: entries[name] = "other \(mode)"
            }
        }
    }

    var description: String {
        entries.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
    }
}

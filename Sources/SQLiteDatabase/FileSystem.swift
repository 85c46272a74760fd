#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// POSIX file helpers: private modes at creation, sizes, existence.
package enum FileSystem {
    /// Creates the missing folders of `path` (mode 0700) and the file itself (mode 0600), empty.
    ///
    /// An existing file is left alone, whatever its mode.
    package static func createFileIfMissing(at path: String) throws {
        try createParentDirectories(of: path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw systemError("cannot create \(path)", path: path)
        }
    }

    /// Creates each missing folder on the way to `path`'s parent with mode 0700.
    package static func createParentDirectories(of path: String) throws {
        var components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        components.removeLast()
        var current = ""
        for (offset, component) in components.enumerated() {
            current += offset == 0 ? component : "/" + component
            if current.isEmpty || component.isEmpty || component == "." || component == ".." { continue }
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw systemError("cannot create the folder \(current)", path: path)
            }
        }
    }

    /// A name in the same folder as `path` for building a file before linking it into place.
    package static func temporarySibling(of path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return folder + ".\(name).creating-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// Whether something exists at `path` (a dangling link counts as absent).
    package static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The size in bytes of the file at `path`, or `nil` when it cannot be read.
    package static func size(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// What changes when a file is written: its size and change times. Two equal stamps taken
    /// around a read mean (within the clock's granularity) that nobody wrote the file meanwhile.
    package struct Stamp: Equatable {
        let size: Int64
        let modified: Int64
        let modifiedNanoseconds: Int
        let changed: Int64
        let changedNanoseconds: Int
    }

    /// The stamp of the file at `path`, or `nil` when it cannot be read.
    package static func stamp(of path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        return Stamp(
            size: Int64(info.st_size),
            modified: Int64(info.st_mtimespec.tv_sec),
            modifiedNanoseconds: Int(info.st_mtimespec.tv_nsec),
            changed: Int64(info.st_ctimespec.tv_sec),
            changedNanoseconds: Int(info.st_ctimespec.tv_nsec)
        )
        #else
        return Stamp(
            size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec),
            modifiedNanoseconds: Int(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec),
            changedNanoseconds: Int(info.st_ctim.tv_nsec)
        )
        #endif
    }

    package static func systemError(_ message: String, path: String) -> DatabaseError {
        let reason = String(cString: strerror(errno))
        return DatabaseError(resultCode: .cantOpen, message: "\(message): \(reason)", path: path)
    }
}

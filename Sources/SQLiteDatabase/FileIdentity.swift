#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a path names: the device and inode number the system gives it, whatever it is called.
///
/// Two paths name the same file when their identities are equal: a symbolic link and its target, two
/// hard links, `folder/../file` and `file`. A file moved over another one (`mv backup.sqlite
/// library.sqlite`) gives the path a new identity; a file copied over another one (`cp`) keeps the old.
///
/// ```swift
/// if FileIdentity(path: destination) == FileIdentity(path: database.path) {
///     // the destination is the database itself
/// }
/// ```
public struct FileIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The device (file system) holding the file.
    public let device: UInt64
    /// The file's inode number on that device.
    public let inode: UInt64

    /// Creates an identity from its parts.
    ///
    /// - Parameters:
    ///   - device: The device number.
    ///   - inode: The inode number.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The identity of the file `path` names now, symbolic links followed.
    ///
    /// - Parameter path: A path to anything: a file, a folder, a device.
    /// - Returns: `nil` when nothing is at `path` (or the system cannot say: a folder on the way
    ///   that cannot be searched).
    public init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// The identity of the file an open descriptor refers to.
    ///
    /// - Parameter descriptor: An open file descriptor.
    /// - Returns: `nil` when the descriptor is not open.
    public init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    init(_ status: stat) {
        self.init(device: UInt64(truncatingIfNeeded: status.st_dev), inode: UInt64(truncatingIfNeeded: status.st_ino))
    }

    /// "device:inode", as `stat -c %d:%i` prints them.
    public var description: String { "\(device):\(inode)" }
}

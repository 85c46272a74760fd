#if canImport(Glibc)
import CExtendedAttributes
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystem {
    /// The text of extended attribute `name` on `path` (links followed), or `nil` when it is absent,
    /// longer than 128 bytes, or extended attributes are not supported there.
    package static func extendedAttribute(_ name: String, of path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { bytes in
            #if canImport(Darwin)
            getxattr(path, name, bytes.baseAddress, bytes.count, 0, 0)
            #else
            getxattr(path, name, bytes.baseAddress, bytes.count)
            #endif
        }
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }

    /// Sets extended attribute `name` on `path` to `value`; a failure (no support, no permission)
    /// is ignored: the attributes only spare work or guard against others' mistakes.
    package static func setExtendedAttribute(_ name: String, to value: String, of path: String) {
        _ = Array(value.utf8).withUnsafeBytes { bytes in
            #if canImport(Darwin)
            setxattr(path, name, bytes.baseAddress, bytes.count, 0, 0)
            #else
            setxattr(path, name, bytes.baseAddress, bytes.count, 0)
            #endif
        }
    }
}

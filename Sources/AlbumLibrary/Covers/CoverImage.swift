public import Foundation

/// An album's cover image stored in the library: the bytes, their media type and a content hash.
///
/// Made only by ``init(bytes:)``, which checks the bytes themselves (PNG, JPEG, WebP or GIF by
/// their magic numbers, at most ``maximumByteCount``), whatever a file's name says. The stored
/// image is apart from ``Album/coverURL``, a link to an image elsewhere that albums never fetches.
public struct CoverImage: Sendable, Hashable {
    /// The image file's bytes.
    public let bytes: Data
    /// `image/png`, `image/jpeg`, `image/webp` or `image/gif`.
    public let mediaType: String
    /// The SHA-256 of ``bytes`` as 64 lowercase hexadecimal digits (a server's `ETag`).
    public let hash: String

    /// The largest image accepted: 10 MiB (10,485,760 bytes).
    public static let maximumByteCount = 10 << 20

    /// The media types accepted, in the order they are checked.
    public static let mediaTypes = ["image/png", "image/jpeg", "image/webp", "image/gif"]

    /// Checks `bytes` and makes a cover of them.
    ///
    /// - Parameter bytes: The image file's contents.
    /// - Throws: ``LibraryError/Code/invalidValue`` with one line when the bytes are empty, larger
    ///   than ``maximumByteCount``, or not a PNG, JPEG, WebP or GIF image.
    public init(bytes: Data) throws(LibraryError) {
        guard !bytes.isEmpty else { throw LibraryError(.invalidValue, "the cover image is empty") }
        guard bytes.count <= Self.maximumByteCount else {
            throw LibraryError(
                .invalidValue,
                "the cover image is \(bytes.count) bytes; at most \(Self.maximumByteCount) bytes (10 MiB) are accepted")
        }
        guard let mediaType = Self.mediaType(of: bytes) else {
            throw LibraryError(.invalidValue, "the cover is not a PNG, JPEG, WebP or GIF image (checked by its bytes)")
        }
        self.init(bytes: bytes, mediaType: mediaType, hash: SHA256.hexDigest(of: bytes))
    }

    /// A cover read back from the library, checked when it was stored.
    init(bytes: Data, mediaType: String, hash: String) {
        self.bytes = bytes
        self.mediaType = mediaType
        self.hash = hash
    }

    /// The media type the bytes' magic numbers say, or `nil` for none of the four.
    static func mediaType(of bytes: Data) -> String? {
        let head = [UInt8](bytes.prefix(12))
        func starts(with magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        }
        if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(with: Array("RIFF".utf8)) && starts(with: Array("WEBP".utf8), at: 8) { return "image/webp" }
        if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) { return "image/gif" }
        return nil
    }
}

/// What the library stores about an album's cover image besides its bytes: enough to say
/// whether there is one, name it (its hash, for an `ETag`) and size it, without reading the image.
public struct CoverSummary: Sendable, Hashable, Codable {
    /// The image's media type.
    public var mediaType: String
    /// The SHA-256 of its bytes, in hexadecimal.
    public var hash: String
    /// Its size in bytes.
    public var byteCount: Int

    /// Creates a summary.
    ///
    /// - Parameters:
    ///   - mediaType: The media type.
    ///   - hash: The content hash.
    ///   - byteCount: The size in bytes.
    public init(mediaType: String, hash: String, byteCount: Int) {
        self.mediaType = mediaType
        self.hash = hash
        self.byteCount = byteCount
    }
}

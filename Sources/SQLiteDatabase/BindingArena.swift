/// Memory for a statement's text and blob arguments, which SQLite reads in place until the
/// statement is bound again (`SQLITE_STATIC`).
///
/// Why: bound with `SQLITE_TRANSIENT`, each text or blob cost SQLite an allocation, a copy and a
/// free (a twentieth of a durable push, which binds four texts and a blob). Here the bytes are
/// copied once into chunks that live as long as the statement: a full chunk is never moved (a
/// bound pointer into it stays valid), and a new bind reuses the largest one.
struct BindingArena: ~Copyable {
    private var chunks: [UnsafeMutableRawBufferPointer] = []
    private var used = 0

    /// Chunks above this size are freed at the next ``reset()``, so one huge blob does not stay.
    private static let keptCapacity = 64 * 1024
    private static let minimumChunk = 256

    init() {}

    deinit {
        for chunk in chunks { chunk.deallocate() }
    }

    /// Forgets the bytes of the previous bind (call before binding a statement anew).
    mutating func reset() {
        used = 0
        guard chunks.count > 1 || (chunks.first?.count ?? 0) > Self.keptCapacity else { return }
        // Keep one chunk of reasonable size for the next bind.
        let keep = chunks.lastIndex { $0.count <= Self.keptCapacity }
        for (index, chunk) in chunks.enumerated() where index != keep { chunk.deallocate() }
        chunks = keep.map { [chunks[$0]] } ?? []
    }

    /// A copy of `bytes` that stays put until the next ``reset()``.
    mutating func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer {
        if let last = chunks.last, last.count - used >= bytes.count {
            let destination = last.baseAddress! + used
            destination.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            used += bytes.count
            return UnsafeRawPointer(destination)
        }
        let size = max(bytes.count, Self.minimumChunk, 2 * (chunks.last?.count ?? 0))
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        chunk.baseAddress!.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        chunks.append(chunk)
        used = bytes.count
        return UnsafeRawPointer(chunk.baseAddress!)
    }
}

import Foundation

/// ``PayloadEncoder``'s fast path: writes JSON while the value encodes, with no tree in between.
///
/// Works for values that fill each container before going back to an outer one and write each
/// key once — what synthesized `Codable` conformances and most hand-written ones do. Anything
/// else (a nested container filled after its parent moved on, a key written twice, a single value
/// container written twice) throws ``Fallback``, and the encoder starts again with Foundation's
/// `JSONEncoder`, which handles every order. A fallback is also recorded in ``failed``, so a value
/// that swallows the error with `try?` cannot leave a wrong result behind. Each container is a
/// *frame*; frames nest like the JSON they write, and a container may only write while its frame
/// is open. Writing to an outer container closes the frames above it.
///
/// ## Performance notes
///
/// One instance is reused for every push (its byte buffer and frame stack keep their capacity),
/// and its mutable state opts out of the runtime's exclusivity checks: the stream is used by one
/// encoding at a time (``isInUse``). Figures in BENCHMARKS.md ("Durable history").
final class PayloadStream {
    /// Thrown when the value encodes in an order the stream cannot follow.
    struct Fallback: Error {}

    private enum FrameKind {
        /// An encoder nothing was written to yet (written out as `{}` if it stays so).
        case pending
        case object
        case array
        /// An encoder whose single value is written.
        case single
    }

    private struct Frame {
        let id: Int
        var kind: FrameKind
        /// Members or elements written so far.
        var count = 0
        /// Where this frame's keys start in `keys`.
        let firstKey: Int
        /// The keys as a set, once the object is large enough for a scan to matter.
        var keySet: Set<String>? = nil
    }

    /// Above this many members, an object's duplicate check uses a set instead of a scan.
    private static let keyScanLimit = 16

    // A stream is used by one encoding call, never re-entrantly: its properties skip the runtime's
    // exclusivity checks, which cost more than the writes they guard.
    @exclusivity(unchecked) private(set) var bytes: [UInt8] = []
    /// Whether the stream gave up (the bytes are then meaningless).
    @exclusivity(unchecked) private(set) var failed = false
    /// A misuse of the `Encoder` contract the value made (two kinds of container, or two single
    /// values, for one encoder): `JSONEncoder` stops the process on those, so the encoding fails
    /// with this error instead of falling back. Kept even if the value swallows the error.
    @exclusivity(unchecked) private(set) var misuse: EncodingError?
    @exclusivity(unchecked) private var frames: [Frame] = []
    /// The keys written in the open objects, innermost last: duplicates are refused.
    @exclusivity(unchecked) private var keys: [String] = []
    @exclusivity(unchecked) private var nextID = 0
    // Ids only grow, also across encodings: a container kept from an earlier one never matches.

    /// Whether an encoding is writing to the stream now.
    @exclusivity(unchecked) private(set) var isInUse = false

    init() {
        bytes.reserveCapacity(128)
        frames.reserveCapacity(4)
        keys.reserveCapacity(8)
    }

    /// Starts an encoding: forgets the previous one, keeping the buffers' capacity.
    func begin() {
        // One huge value need not keep its buffer for the small ones after it.
        bytes.removeAll(keepingCapacity: bytes.capacity <= 64 * 1024)
        frames.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        failed = false
        misuse = nil
        isInUse = true
    }

    /// Ends an encoding (the bytes stay readable until the next ``begin()``).
    func end() {
        isInUse = false
    }

    /// Records that the stream gives up, and returns the error that says so.
    func fallback() -> Fallback {
        failed = true
        return Fallback()
    }

    /// Records a misuse of the `Encoder` contract, and returns the error that reports it.
    func misused(_ what: String) -> EncodingError {
        let error = EncodingError.invalidValue(
            what, EncodingError.Context(codingPath: [], debugDescription: "the value's encode(to:) \(what)"))
        if misuse == nil { misuse = error }
        failed = true
        return error
    }

    // MARK: Values

    /// Writes any encodable value, with `JSONEncoder`'s special cases.
    func write<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
        // Metatype comparisons first: a failed dynamic cast per case would cost more than the rest.
        if T.self == String.self, let string = value as? String { return writeString(string) }
        if T.self == Int.self, let integer = value as? Int { return writeNumber(String(integer)) }
        if T.self == Data.self, let data = value as? Data { return writeString(data.base64EncodedString()) }
        if T.self == URL.self, let url = value as? URL { return writeString(url.absoluteString) }
        if T.self == Decimal.self, let decimal = value as? Decimal {
            guard !decimal.isNaN else { throw PayloadEncoder.nonFinite(decimal, codingPath) }
            return writeNumber(decimal.description)
        }
        let id = openFrame(.pending)
        try value.encode(to: PayloadStreamEncoder(stream: self, frame: id, codingPath: codingPath))
        // The value's own frame must still be open: if an outer container wrote meanwhile, the
        // value's JSON was split.
        try close(through: id)
    }

    func writeNull() { append("null") }
    func write(_ value: Bool) { append(value ? "true" : "false") }

    func write(_ value: Double, codingPath: @autoclosure () -> [any CodingKey]) throws {
        guard value.isFinite else { throw PayloadEncoder.nonFinite(value, codingPath()) }
        append(value.description)
    }

    func write(_ value: Float, codingPath: @autoclosure () -> [any CodingKey]) throws {
        guard value.isFinite else { throw PayloadEncoder.nonFinite(value, codingPath()) }
        append(value.description)
    }

    func writeNumber(_ spelled: String) { append(spelled) }

    func writeString(_ value: String) { PayloadEncoder.writeString(value, into: &bytes) }

    private func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    // MARK: Frames

    private func openFrame(_ kind: FrameKind) -> Int {
        nextID += 1
        frames.append(Frame(id: nextID, kind: kind, firstKey: keys.count))
        switch kind {
        case .object: bytes.append(UInt8(ascii: "{"))
        case .array: bytes.append(UInt8(ascii: "["))
        case .pending, .single: break
        }
        return nextID
    }

    /// Makes frame `id` the innermost, closing the frames above it; throws if it is closed.
    private func enter(_ id: Int) throws {
        while let last = frames.last, last.id != id {
            guard last.id > id else { throw fallback() }
            closeLast()
        }
        guard !frames.isEmpty else { throw fallback() }
    }

    /// Closes frame `id` and the frames above it; throws if it was closed already.
    private func close(through id: Int) throws {
        try enter(id)
        closeLast()
    }

    private func closeLast() {
        let frame = frames.removeLast()
        keys.removeSubrange(frame.firstKey...)
        switch frame.kind {
        case .pending: bytes.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
        case .object: bytes.append(UInt8(ascii: "}"))
        case .array: bytes.append(UInt8(ascii: "]"))
        case .single: break
        }
    }

    /// Turns encoder frame `id` into an object (or keeps it one) for a keyed container.
    func beginObject(_ id: Int) throws {
        try enter(id)
        switch frames[frames.count - 1].kind {
        case .pending:
            frames[frames.count - 1].kind = .object
            bytes.append(UInt8(ascii: "{"))
        case .object: break
        case .array, .single: throw misused("asked one encoder for a keyed container after another kind")
        }
    }

    /// Turns encoder frame `id` into an array (or keeps it one) for an unkeyed container.
    func beginArray(_ id: Int) throws {
        try enter(id)
        switch frames[frames.count - 1].kind {
        case .pending:
            frames[frames.count - 1].kind = .array
            bytes.append(UInt8(ascii: "["))
        case .array: break
        case .object, .single: throw misused("asked one encoder for an unkeyed container after another kind")
        }
    }

    /// Prepares encoder frame `id` for its single value.
    func beginSingleValue(_ id: Int) throws {
        try enter(id)
        guard case .pending = frames[frames.count - 1].kind else {
            throw misused("encoded a second value into one encoder")
        }
        frames[frames.count - 1].kind = .single
    }

    /// Writes `"key":` in object frame `id` (after a comma if needed); the value follows.
    func beginMember(_ id: Int, key: String) throws {
        try enter(id)
        let top = frames.count - 1
        let count = frames[top].count
        if count < Self.keyScanLimit {
            guard !keys[frames[top].firstKey...].contains(key) else { throw fallback() }
            keys.append(key)
        } else {
            if frames[top].keySet == nil { frames[top].keySet = Set(keys[frames[top].firstKey...]) }
            guard frames[top].keySet!.insert(key).inserted else { throw fallback() }
        }
        if count > 0 { bytes.append(UInt8(ascii: ",")) }
        frames[top].count += 1
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes the comma before the next element of array frame `id`; returns the element's offset.
    func beginElement(_ id: Int) throws -> Int {
        try enter(id)
        let count = frames[frames.count - 1].count
        if count > 0 { bytes.append(UInt8(ascii: ",")) }
        frames[frames.count - 1].count += 1
        return count
    }

    /// Opens a nested container's frame (after ``beginMember(_:key:)`` or ``beginElement(_:)``).
    func openObject() -> Int { openFrame(.object) }
    func openArray() -> Int { openFrame(.array) }
    /// Opens the frame of an encoder handed out for later (`superEncoder`).
    func openEncoder() -> Int { openFrame(.pending) }

    /// The number of elements written so far in array frame `id` (0 if closed).
    func count(of id: Int) -> Int {
        frames.last { $0.id == id }?.count ?? 0
    }
}

/// The `Encoder` of one stream frame, and its single-value container.
final class PayloadStreamEncoder: Encoder, SingleValueEncodingContainer {
    let stream: PayloadStream
    let frame: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(stream: PayloadStream, frame: Int, codingPath: [any CodingKey]) {
        self.stream = stream
        self.frame = frame
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let valid = (try? stream.beginObject(frame)) != nil
        return KeyedEncodingContainer(
            PayloadStreamKeyedContainer<Key>(stream: stream, frame: valid ? frame : 0, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let valid = (try? stream.beginArray(frame)) != nil
        return PayloadStreamUnkeyedContainer(stream: stream, frame: valid ? frame : 0, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws {
        try stream.beginSingleValue(frame)
        stream.writeNull()
    }

    func encode(_ value: Bool) throws {
        try stream.beginSingleValue(frame)
        stream.write(value)
    }

    func encode(_ value: String) throws {
        try stream.beginSingleValue(frame)
        stream.writeString(value)
    }

    func encode(_ value: Double) throws {
        try stream.beginSingleValue(frame)
        try stream.write(value, codingPath: codingPath)
    }

    func encode(_ value: Float) throws {
        try stream.beginSingleValue(frame)
        try stream.write(value, codingPath: codingPath)
    }

    func encode(_ value: Int) throws { try encodeInteger(value) }
    func encode(_ value: Int8) throws { try encodeInteger(value) }
    func encode(_ value: Int16) throws { try encodeInteger(value) }
    func encode(_ value: Int32) throws { try encodeInteger(value) }
    func encode(_ value: Int64) throws { try encodeInteger(value) }
    func encode(_ value: UInt) throws { try encodeInteger(value) }
    func encode(_ value: UInt8) throws { try encodeInteger(value) }
    func encode(_ value: UInt16) throws { try encodeInteger(value) }
    func encode(_ value: UInt32) throws { try encodeInteger(value) }
    func encode(_ value: UInt64) throws { try encodeInteger(value) }

    func encode<T: Encodable>(_ value: T) throws {
        try stream.beginSingleValue(frame)
        try stream.write(value, codingPath: codingPath)
    }

    private func encodeInteger<T: BinaryInteger>(_ value: T) throws {
        try stream.beginSingleValue(frame)
        stream.writeNumber(String(value))
    }
}

/// A keyed container writing the members of one object frame.
struct PayloadStreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let stream: PayloadStream
    /// The object's frame; 0 (never open) when the container could not be made, so every write falls back.
    let frame: Int
    let codingPath: [any CodingKey]

    private func member<K: CodingKey>(_ key: K) throws {
        guard frame != 0 else { throw stream.fallback() }
        try stream.beginMember(frame, key: key.stringValue)
    }

    mutating func encodeNil(forKey key: Key) throws {
        try member(key)
        stream.writeNull()
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try member(key)
        stream.write(value)
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        try member(key)
        stream.writeString(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        try member(key)
        try stream.write(value, codingPath: codingPath + [key])
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        try member(key)
        try stream.write(value, codingPath: codingPath + [key])
    }

    mutating func encode(_ value: Int, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try integer(value, key) }

    private func integer<T: BinaryInteger>(_ value: T, _ key: Key) throws {
        try member(key)
        stream.writeNumber(String(value))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try member(key)
        try stream.write(value, codingPath: codingPath + [key])
    }

    // Optional fields of the common types, without the standard library's generic default (which
    // costs more than the write): absent values are skipped, as `JSONEncoder` does.
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try integer(value, key) }
    }

    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try integer(value, key) }
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = (try? member(key)) != nil ? stream.openObject() : 0
        return KeyedEncodingContainer(
            PayloadStreamKeyedContainer<NestedKey>(stream: stream, frame: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = (try? member(key)) != nil ? stream.openArray() : 0
        return PayloadStreamUnkeyedContainer(stream: stream, frame: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(named: PayloadKey(stringValue: "super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(named: key)
    }

    private func superEncoder<K: CodingKey>(named key: K) -> any Encoder {
        let valid = (try? member(key)) != nil
        return PayloadStreamEncoder(
            stream: stream, frame: valid ? stream.openEncoder() : 0, codingPath: codingPath + [key])
    }
}

/// An unkeyed container writing the elements of one array frame.
struct PayloadStreamUnkeyedContainer: UnkeyedEncodingContainer {
    let stream: PayloadStream
    /// The array's frame; 0 (never open) when the container could not be made.
    let frame: Int
    let codingPath: [any CodingKey]
    var count: Int { frame == 0 ? 0 : stream.count(of: frame) }

    /// Writes the separator and returns the new element's coding key.
    private func element() throws -> any CodingKey {
        guard frame != 0 else { throw stream.fallback() }
        return PayloadKey(intValue: try stream.beginElement(frame))
    }

    mutating func encodeNil() throws {
        _ = try element()
        stream.writeNull()
    }

    mutating func encode(_ value: Bool) throws {
        _ = try element()
        stream.write(value)
    }

    mutating func encode(_ value: String) throws {
        _ = try element()
        stream.writeString(value)
    }

    mutating func encode(_ value: Double) throws {
        let key = try element()
        try stream.write(value, codingPath: codingPath + [key])
    }

    mutating func encode(_ value: Float) throws {
        let key = try element()
        try stream.write(value, codingPath: codingPath + [key])
    }

    mutating func encode(_ value: Int) throws { try integer(value) }
    mutating func encode(_ value: Int8) throws { try integer(value) }
    mutating func encode(_ value: Int16) throws { try integer(value) }
    mutating func encode(_ value: Int32) throws { try integer(value) }
    mutating func encode(_ value: Int64) throws { try integer(value) }
    mutating func encode(_ value: UInt) throws { try integer(value) }
    mutating func encode(_ value: UInt8) throws { try integer(value) }
    mutating func encode(_ value: UInt16) throws { try integer(value) }
    mutating func encode(_ value: UInt32) throws { try integer(value) }
    mutating func encode(_ value: UInt64) throws { try integer(value) }

    private func integer<T: BinaryInteger>(_ value: T) throws {
        _ = try element()
        stream.writeNumber(String(value))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let key = try element()
        try stream.write(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let key = try? element()
        let nested = key != nil ? stream.openObject() : 0
        return KeyedEncodingContainer(
            PayloadStreamKeyedContainer<NestedKey>(
                stream: stream, frame: nested, codingPath: codingPath + [key ?? PayloadKey(intValue: 0)])
        )
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = try? element()
        let nested = key != nil ? stream.openArray() : 0
        return PayloadStreamUnkeyedContainer(
            stream: stream, frame: nested, codingPath: codingPath + [key ?? PayloadKey(intValue: 0)])
    }

    mutating func superEncoder() -> any Encoder {
        let key = try? element()
        let nested = key != nil ? stream.openEncoder() : 0
        return PayloadStreamEncoder(
            stream: stream, frame: nested, codingPath: codingPath + [key ?? PayloadKey(intValue: 0)])
    }
}

import Foundation

/// Writes a command's JSON: what `JSONEncoder` (default strategies) writes, for `JSONDecoder` to
/// read back, at a fraction of its cost.
///
/// The stored format stays JSON, so commands that decode their own bytes with `JSONDecoder` (see
/// ``PersistentCommand/decode(_:version:)``) and files written before keep working. It follows
/// `JSONEncoder`'s defaults where they differ from a value's own `Encodable` conformance: `Data` is
/// a Base64 string, `URL` its absolute string, `Decimal` a number, and a non-finite `Double` or
/// `Float` is an error. Keys keep their encoding order; a key encoded twice keeps the last value.
/// Bytes may differ from `JSONEncoder`'s (it escapes `/`, for one); decoded values do not.
///
/// Why: `JSONEncoder` cost a sixth of a durable push (a command of two fields), most of it
/// generic boxing in its intermediate representation. This one writes the JSON as the value
/// encodes (``PayloadStream``) and, for a value that fills its containers out of order, builds a
/// small tree of its own and writes it once.
struct PayloadEncoder {
    /// Kept from one call to the next, so its buffers are allocated once.
    private let reusableStream = PayloadStream()

    /// Returns the JSON of `value`.
    ///
    /// - Throws: `EncodingError.invalidValue` for a non-finite number, or what `value` throws.
    func encode<T: Encodable>(_ value: T) throws -> Data {
        // Streamed when the value encodes in order (the usual case), through the tree otherwise.
        // A value that encodes with this same encoder inside its own encoding gets a stream of its own.
        let stream = reusableStream.isInUse ? PayloadStream() : reusableStream
        stream.begin()
        defer { stream.end() }
        do {
            try stream.write(value, codingPath: [])
            if !stream.failed { return Data(stream.bytes) }
        } catch is PayloadStream.Fallback {}
        let node = try PayloadNode.make(value, codingPath: [])
        var writer = PayloadJSONWriter()
        writer.write(node)
        return Data(writer.bytes)
    }
}

/// A value being encoded. Objects and arrays are boxes, so containers handed out earlier keep
/// writing into them; `deferred` is an encoder (from `superEncoder`) read when written out.
enum PayloadNode {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case double(Double)
    case float(Float)
    /// A number already spelled (a `Decimal`).
    case number(String)
    case string(String)
    case object(PayloadObject)
    case array(PayloadArray)
    case deferred(PayloadEncoderState)

    /// The node of any encodable value, with `JSONEncoder`'s special cases.
    static func make<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> PayloadNode {
        // Metatype comparisons first: a failed dynamic cast per case would cost more than the rest.
        if T.self == String.self, let string = value as? String { return .string(string) }
        if T.self == Int.self, let integer = value as? Int { return .integer(Int64(integer)) }
        if T.self == Data.self, let data = value as? Data { return .string(data.base64EncodedString()) }
        if T.self == URL.self, let url = value as? URL { return .string(url.absoluteString) }
        if T.self == Decimal.self, let decimal = value as? Decimal {
            guard !decimal.isNaN else { throw nonFinite(decimal, codingPath) }
            return .number(decimal.description)
        }
        let encoder = PayloadEncoderState(codingPath: codingPath)
        try value.encode(to: encoder)
        return encoder.node ?? .object(PayloadObject())
    }

    /// A double, refusing what JSON cannot spell (as `JSONEncoder` does).
    static func double(_ value: Double, codingPath: @autoclosure () -> [any CodingKey]) throws -> PayloadNode {
        guard value.isFinite else { throw nonFinite(value, codingPath()) }
        return .double(value)
    }

    /// A float, refusing what JSON cannot spell.
    static func float(_ value: Float, codingPath: @autoclosure () -> [any CodingKey]) throws -> PayloadNode {
        guard value.isFinite else { throw nonFinite(value, codingPath()) }
        return .float(value)
    }

    static func nonFinite(_ value: Any, _ codingPath: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: codingPath, debugDescription: "Unable to encode \(value) directly in JSON.")
        )
    }
}

/// An object's members, in encoding order.
final class PayloadObject {
    private(set) var members: [(key: String, value: PayloadNode)] = []
    /// Positions by key, built once the object is large enough for a scan to matter.
    private var positions: [String: Int]?

    func set(_ value: PayloadNode, for key: String) {
        if let position = position(of: key) {
            members[position].value = value
            return
        }
        positions?[key] = members.count
        // Most commands have a few fields: one allocation for them all.
        if members.isEmpty { members.reserveCapacity(4) }
        members.append((key, value))
        if positions == nil, members.count == 16 {
            positions = Dictionary(
                members.enumerated().map { ($0.element.key, $0.offset) }, uniquingKeysWith: { _, last in last })
        }
    }

    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        return members.firstIndex { $0.key == key }
    }
}

/// An array's elements.
final class PayloadArray {
    var elements: [PayloadNode] = []
}

/// The `Encoder` handed to values: holds the node they encode, and is its own single-value container.
final class PayloadEncoderState: Encoder, SingleValueEncodingContainer {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    fileprivate(set) var node: PayloadNode?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: PayloadObject
        if case .object(let existing) = node {
            object = existing
        } else {
            object = PayloadObject()
            node = .object(object)
        }
        return KeyedEncodingContainer(PayloadKeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: PayloadArray
        if case .array(let existing) = node {
            array = existing
        } else {
            array = PayloadArray()
            node = .array(array)
        }
        return PayloadUnkeyedContainer(array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { node = .null }
    func encode(_ value: Bool) throws { node = .bool(value) }
    func encode(_ value: String) throws { node = .string(value) }
    func encode(_ value: Double) throws { node = try .double(value, codingPath: codingPath) }
    func encode(_ value: Float) throws { node = try .float(value, codingPath: codingPath) }
    func encode(_ value: Int) throws { node = .integer(Int64(value)) }
    func encode(_ value: Int8) throws { node = .integer(Int64(value)) }
    func encode(_ value: Int16) throws { node = .integer(Int64(value)) }
    func encode(_ value: Int32) throws { node = .integer(Int64(value)) }
    func encode(_ value: Int64) throws { node = .integer(value) }
    func encode(_ value: UInt) throws { node = .unsigned(UInt64(value)) }
    func encode(_ value: UInt8) throws { node = .unsigned(UInt64(value)) }
    func encode(_ value: UInt16) throws { node = .unsigned(UInt64(value)) }
    func encode(_ value: UInt32) throws { node = .unsigned(UInt64(value)) }
    func encode(_ value: UInt64) throws { node = .unsigned(value) }
    func encode<T: Encodable>(_ value: T) throws { node = try PayloadNode.make(value, codingPath: codingPath) }
}

/// A keyed container writing into an object.
struct PayloadKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: PayloadObject
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { object.set(.null, for: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(.bool(value), for: key.stringValue) }
    mutating func encode(_ value: String, forKey key: Key) throws { object.set(.string(value), for: key.stringValue) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        object.set(try .double(value, codingPath: codingPath + [key]), for: key.stringValue)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        object.set(try .float(value, codingPath: codingPath + [key]), for: key.stringValue)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        object.set(.integer(Int64(value)), for: key.stringValue)
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
        object.set(.integer(Int64(value)), for: key.stringValue)
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
        object.set(.integer(Int64(value)), for: key.stringValue)
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
        object.set(.integer(Int64(value)), for: key.stringValue)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws { object.set(.integer(value), for: key.stringValue) }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        object.set(.unsigned(UInt64(value)), for: key.stringValue)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        object.set(.unsigned(UInt64(value)), for: key.stringValue)
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        object.set(.unsigned(UInt64(value)), for: key.stringValue)
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        object.set(.unsigned(UInt64(value)), for: key.stringValue)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { object.set(.unsigned(value), for: key.stringValue) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(try PayloadNode.make(value, codingPath: codingPath + [key]), for: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = PayloadObject()
        object.set(.object(nested), for: key.stringValue)
        return KeyedEncodingContainer(PayloadKeyedContainer<NestedKey>(object: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = PayloadArray()
        object.set(.array(nested), for: key.stringValue)
        return PayloadUnkeyedContainer(array: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(named: PayloadKey(stringValue: "super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(named: key)
    }

    private func superEncoder(named key: any CodingKey) -> any Encoder {
        let encoder = PayloadEncoderState(codingPath: codingPath + [key])
        object.set(.deferred(encoder), for: key.stringValue)
        return encoder
    }
}

/// An unkeyed container appending to an array.
struct PayloadUnkeyedContainer: UnkeyedEncodingContainer {
    let array: PayloadArray
    let codingPath: [any CodingKey]
    var count: Int { array.elements.count }

    private var nextKey: any CodingKey { PayloadKey(intValue: array.elements.count) }

    mutating func encodeNil() throws { array.elements.append(.null) }
    mutating func encode(_ value: Bool) throws { array.elements.append(.bool(value)) }
    mutating func encode(_ value: String) throws { array.elements.append(.string(value)) }
    mutating func encode(_ value: Double) throws {
        array.elements.append(try .double(value, codingPath: codingPath + [nextKey]))
    }
    mutating func encode(_ value: Float) throws {
        array.elements.append(try .float(value, codingPath: codingPath + [nextKey]))
    }
    mutating func encode(_ value: Int) throws { array.elements.append(.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { array.elements.append(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { array.elements.append(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { array.elements.append(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { array.elements.append(.integer(value)) }
    mutating func encode(_ value: UInt) throws { array.elements.append(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { array.elements.append(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { array.elements.append(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { array.elements.append(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { array.elements.append(.unsigned(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.elements.append(try PayloadNode.make(value, codingPath: codingPath + [nextKey]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let path = codingPath + [nextKey]
        let nested = PayloadObject()
        array.elements.append(.object(nested))
        return KeyedEncodingContainer(PayloadKeyedContainer<NestedKey>(object: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [nextKey]
        let nested = PayloadArray()
        array.elements.append(.array(nested))
        return PayloadUnkeyedContainer(array: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = PayloadEncoderState(codingPath: codingPath + [nextKey])
        array.elements.append(.deferred(encoder))
        return encoder
    }
}

/// A coding key for paths and `super`.
struct PayloadKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// Spells a node tree as JSON text.
struct PayloadJSONWriter {
    private(set) var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(128)
    }

    /// Appends the node's JSON (numbers were checked finite when encoded).
    mutating func write(_ node: PayloadNode) {
        switch node {
        case .null: append("null")
        case .bool(let value): append(value ? "true" : "false")
        case .integer(let value): append(String(value))
        case .unsigned(let value): append(String(value))
        case .double(let value): append(value.description)
        case .float(let value): append(value.description)
        case .number(let spelled): append(spelled)
        case .string(let value): writeString(value)
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (offset, member) in object.members.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(member.key)
                bytes.append(UInt8(ascii: ":"))
                write(member.value)
            }
            bytes.append(UInt8(ascii: "}"))
        case .array(let array):
            bytes.append(UInt8(ascii: "["))
            for (offset, element) in array.elements.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .deferred(let encoder):
            // An encoder that was handed out but never written to stands for an empty object.
            write(encoder.node ?? .object(PayloadObject()))
        }
    }

    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private mutating func writeString(_ value: String) {
        Self.writeString(value, into: &bytes)
    }

    /// Appends a JSON string literal (escaping what JSON requires).
    static func writeString(_ value: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        let plain = value.withUTF8 { utf8 in
            // Most strings need no escape: copy them whole.
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return false
            }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case ..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

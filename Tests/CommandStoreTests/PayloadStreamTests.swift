import Foundation
import TestSupport
import Testing

@testable import CommandStore

/// The streamed JSON writer must write what `JSONEncoder` writes (compared canonically: the two may
/// spell the same JSON differently), and hand over to it whenever a value encodes in an order it
/// cannot follow.
@Suite struct PayloadStreamTests {
    /// Any JSON value, encoded through keyed, unkeyed and single-value containers.
    indirect enum Value: Codable, Equatable {
        case null
        case bool(Bool)
        case integer(Int64)
        case double(Double)
        case string(String)
        case array([Value])
        case object([Member])

        struct Member: Equatable {
            var key: String
            var value: Value
        }

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .null:
                var container = encoder.singleValueContainer()
                try container.encodeNil()
            case .bool(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            case .integer(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            case .double(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            case .string(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            case .array(let elements):
                var container = encoder.unkeyedContainer()
                for element in elements { try container.encode(element) }
            case .object(let members):
                var container = encoder.container(keyedBy: Key.self)
                for member in members { try container.encode(member.value, forKey: Key(stringValue: member.key)) }
            }
        }

        init(from decoder: any Decoder) throws {
            if let container = try? decoder.container(keyedBy: Key.self) {
                self = .object(
                    try container.allKeys.map {
                        Member(key: $0.stringValue, value: try container.decode(Value.self, forKey: $0))
                    })
            } else if var container = try? decoder.unkeyedContainer() {
                var elements: [Value] = []
                while !container.isAtEnd { elements.append(try container.decode(Value.self)) }
                self = .array(elements)
            } else {
                let container = try decoder.singleValueContainer()
                if container.decodeNil() {
                    self = .null
                } else if let value = try? container.decode(Bool.self) {
                    self = .bool(value)
                } else if let value = try? container.decode(Int64.self) {
                    self = .integer(value)
                } else if let value = try? container.decode(Double.self) {
                    self = .double(value)
                } else {
                    self = .string(try container.decode(String.self))
                }
            }
        }

        /// A random value of at most `depth` levels, objects with distinct keys.
        static func random(depth: Int, using random: inout SplitMix64) -> Value {
            let generator = Value.random(depth:using:)
            switch random.next() % (depth > 0 ? 7 : 5) {
            case 0: return .null
            case 1: return .bool(random.next() % 2 == 0)
            case 2: return .integer(Int64(bitPattern: random.next()) >> (random.next() % 64))
            case 3: return .double(Double(Int64(bitPattern: random.next()) >> 20) / 1024)
            case 4: return .string(randomString(using: &random))
            case 5: return .array((0..<random.next() % 5).map { _ in generator(depth - 1, &random) })
            default:
                let count = Int(random.next() % 20)  // past the scan limit sometimes
                return .object(
                    (0..<count).map { index in
                        Member(key: "k\(index)" + randomString(using: &random), value: generator(depth - 1, &random))
                    })
            }
        }

        static func randomString(using random: inout SplitMix64) -> String {
            let alphabet = Array("ab \"\\/\n\t\u{1}é日🎵")
            return String((0..<random.next() % 6).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
        }
    }

    /// JSON in one spelling (keys sorted, `/` unescaped, numbers as Foundation reads them), so that
    /// two writers' outputs compare by what they say, not by how they spell it.
    func canonical(_ bytes: some Sequence<UInt8>) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
        let data = try JSONSerialization.data(
            withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    /// What Foundation's `JSONEncoder` (the fallback, and the format's reference) writes, canonical.
    func referenceJSON<T: Encodable>(_ value: T) throws -> String {
        try canonical(JSONEncoder().encode(value))
    }

    /// The stream's bytes, or `nil` when it handed over to the fallback.
    func streamBytes<T: Encodable>(_ value: T) throws -> [UInt8]? {
        let stream = PayloadStream()
        do {
            try stream.write(value, codingPath: [])
        } catch is PayloadStream.Fallback {
            return nil
        }
        return stream.failed ? nil : stream.bytes
    }

    /// The stream's JSON, canonical, or `nil` when it handed over to the fallback.
    func streamJSON<T: Encodable>(_ value: T) throws -> String? {
        try streamBytes(value).map { try canonical($0) }
    }

    @Test func randomValuesStreamWhatJSONEncoderWrites() throws {
        let seed: UInt64 = 0x5EED_0F_7EE5
        var random = SplitMix64(seed: seed)
        for step in 0..<2_000 {
            let value = Value.random(depth: 4, using: &random)
            let streamed = try streamJSON(value)
            #expect(streamed == (try referenceJSON(value)), "seed \(seed), step \(step): \(value)")
            // And it is JSON (fragments allowed: a top-level scalar is one).
            #expect(throws: Never.self, "seed \(seed), step \(step)") {
                try JSONSerialization.jsonObject(with: PayloadEncoder().encode(value), options: .fragmentsAllowed)
            }
        }
    }

    @Test func ordinaryCommandsAreStreamed() throws {
        struct AddAlbum: Codable { var title: String; var year: Int?; var tags: [String] }
        let value = AddAlbum(title: "Kind of Blue", year: 1959, tags: ["jazz"])
        #expect(try streamJSON(value) == referenceJSON(value))
        let everything = PayloadEncoderTests.Everything()
        // Compared decoded: the two spell -0.0 differently ("-0.0", "-0"), which JSONSerialization
        // then reads as a double and an integer.
        let streamedEverything = try #require(try streamBytes(everything))
        #expect(
            try JSONDecoder().decode(PayloadEncoderTests.Everything.self, from: Data(streamedEverything)) == everything)
        let derived = PayloadEncoderTests.Derived(name: "n", extra: 1)
        #expect(try streamJSON(derived) == referenceJSON(derived))
    }

    /// Fills a nested container after writing to its parent again: the stream cannot, `JSONEncoder` can.
    struct LateNested: Codable, Equatable {
        enum Key: String, CodingKey { case inner, after, value }
        var value: Int
        var after: String

        init(value: Int, after: String) {
            self.value = value
            self.after = after
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            after = try container.decode(String.self, forKey: .after)
            value = try container.nestedContainer(keyedBy: Key.self, forKey: .inner).decode(Int.self, forKey: .value)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            var inner = container.nestedContainer(keyedBy: Key.self, forKey: .inner)
            try container.encode(after, forKey: .after)
            try inner.encode(value, forKey: .value)
        }
    }

    @Test func aNestedContainerFilledLateFallsBackToJSONEncoder() throws {
        let value = LateNested(value: 7, after: "x")
        #expect(try streamBytes(value) == nil)
        let bytes = try PayloadEncoder().encode(value)
        #expect(try canonical(bytes) == referenceJSON(value))
        #expect(try JSONDecoder().decode(LateNested.self, from: bytes) == value)
    }

    @Test func aSwallowedFallbackStillFallsBack() throws {
        struct Swallowing: Encodable {
            enum Key: String, CodingKey { case a }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(1, forKey: .a)
                try? container.encode(2, forKey: .a)  // the stream refuses; the value ignores it
            }
        }
        #expect(try streamBytes(Swallowing()) == nil)
        #expect(try String(decoding: PayloadEncoder().encode(Swallowing()), as: UTF8.self) == #"{"a":2}"#)
    }

    /// `JSONEncoder` stops the process on this misuse of the `Encoder` contract: the payload
    /// encoder reports it as an error instead (the command is then not recorded).
    @Test func aSecondSingleValueIsRefusedAsAnError() throws {
        struct TwoValues: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(1)
                try container.encode(2)
            }
        }
        #expect(throws: EncodingError.self) { _ = try streamBytes(TwoValues()) }
        #expect(throws: EncodingError.self) { try PayloadEncoder().encode([TwoValues()]) }
        struct TwoKinds: Encodable {
            enum Key: String, CodingKey { case a }
            func encode(to encoder: any Encoder) throws {
                var keyed = encoder.container(keyedBy: Key.self)
                try keyed.encode(1, forKey: .a)
                var unkeyed = encoder.unkeyedContainer()
                try? unkeyed.encode(2)  // swallowed: still refused
            }
        }
        #expect(throws: EncodingError.self) { try PayloadEncoder().encode(TwoKinds()) }
    }

    @Test func unusedSuperEncodersAndEmptyEncodersAreEmptyObjects() throws {
        struct Unused: Encodable {
            enum Key: String, CodingKey { case a }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                _ = container.superEncoder()
                try container.encode(1, forKey: .a)
            }
        }
        struct Nothing: Encodable {
            func encode(to encoder: any Encoder) throws {}
        }
        #expect(try streamBytes(Unused()).map { String(decoding: $0, as: UTF8.self) } == #"{"super":{},"a":1}"#)
        #expect(try streamBytes([Nothing()]).map { String(decoding: $0, as: UTF8.self) } == "[{}]")
        #expect(try streamJSON(Unused()) == referenceJSON(Unused()))
    }

    @Test func errorsThrownByTheValueReachTheCaller() throws {
        struct Failing: Encodable {
            struct Refused: Error {}
            func encode(to encoder: any Encoder) throws { throw Refused() }
        }
        #expect(throws: Failing.Refused.self) { try PayloadEncoder().encode(Failing()) }
        #expect(throws: EncodingError.self) { try PayloadEncoder().encode(["x": Double.nan]) }
    }
}

import Foundation
import Testing

@testable import CommandStore

/// The store's JSON writer must produce what `JSONDecoder` reads back as `JSONEncoder`'s output.
@Suite struct PayloadEncoderTests {
    enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case polygon([Int8])
        case empty
    }

    class Base: Codable {
        var name: String
        init(name: String) { self.name = name }
    }

    final class Derived: Base {
        var extra: UInt16

        init(name: String, extra: UInt16) {
            self.extra = extra
            super.init(name: name)
        }

        enum CodingKeys: String, CodingKey { case extra }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            extra = try container.decode(UInt16.self, forKey: .extra)
            try super.init(from: container.superDecoder())
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(extra, forKey: .extra)
            try super.encode(to: container.superEncoder())
        }
    }

    struct Everything: Codable, Equatable {
        var text = "quote \" backslash \\ slash / newline \n tab \t bell \u{7} é 日本 🎵"
        var empty = ""
        var flags = [true, false]
        var small: Int8 = -128
        var large = Int64.min
        var unsigned = UInt64.max
        var int = Int.max
        var float: Float = 0.1
        var doubles = [0.1, -0.0, 1e300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -2.5, 3]
        var optional: String? = nil
        var present: Int? = 7
        var nested = [[1, 2], [], [3]]
        var dictionary = ["b": 2, "a": 1]
        var intKeys = [3: "three", -1: "minus one"]
        var data = Data([0, 1, 2, 250, 255])
        var emptyData = Data()
        var date = Date(timeIntervalSinceReferenceDate: 12345.678)
        var url = URL(string: "https://example.com/a%20b?q=1")!
        var decimal = Decimal(string: "12345.6789")!
        var shapes: [Shape] = [.circle(radius: 2), .polygon([1, -2]), .empty]
        var optionals: [String?] = ["a", nil]
    }

    func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        let bytes = try PayloadEncoder().encode(value)
        return try JSONDecoder().decode(T.self, from: bytes)
    }

    @Test func everythingDecodesBackEqual() throws {
        let value = Everything()
        #expect(try roundTrip(value) == value)
        // And reads as JSONEncoder's output does.
        let reference = try JSONDecoder().decode(Everything.self, from: JSONEncoder().encode(value))
        #expect(try roundTrip(value) == reference)
    }

    @Test func outputIsJSONThatFoundationParses() throws {
        let bytes = try PayloadEncoder().encode(Everything())
        let object = try JSONSerialization.jsonObject(with: bytes) as? [String: Any]
        #expect(object?["text"] as? String == Everything().text)
        #expect(object?["data"] as? String == Data([0, 1, 2, 250, 255]).base64EncodedString())
        #expect(object?["optional"] == nil)
    }

    @Test(arguments: ["", "plain", "\u{0}\u{1F}\u{7F}", "\"\\\"", "line\r\nbreak", "\u{2028}"])
    func stringsSurvive(_ text: String) throws {
        #expect(try roundTrip([text]) == [text])
    }

    @Test func superEncoderNestsTheSuperclass() throws {
        let bytes = try PayloadEncoder().encode(Derived(name: "n", extra: 9))
        let decoded = try JSONDecoder().decode(Derived.self, from: bytes)
        #expect(decoded.name == "n" && decoded.extra == 9)
        let object = try JSONSerialization.jsonObject(with: bytes) as? [String: Any]
        #expect((object?["super"] as? [String: Any])?["name"] as? String == "n")
    }

    /// Written through nested and super containers of an unkeyed container, read back by hand.
    struct Nested: Codable, Equatable {
        var pairs: [[Int]]
        var label: String

        enum Key: String, CodingKey { case pairs, label }

        init(pairs: [[Int]], label: String) {
            self.pairs = pairs
            self.label = label
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            var outer = try container.nestedUnkeyedContainer(forKey: .pairs)
            var pairs: [[Int]] = []
            while !outer.isAtEnd {
                var inner = try outer.nestedUnkeyedContainer()
                var pair: [Int] = []
                while !inner.isAtEnd { pair.append(try inner.decode(Int.self)) }
                pairs.append(pair)
            }
            self.pairs = pairs
            let labels = try container.nestedContainer(keyedBy: Key.self, forKey: .label)
            label = try labels.decode(String.self, forKey: .label)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            var outer = container.nestedUnkeyedContainer(forKey: .pairs)
            for pair in pairs {
                var inner = outer.nestedUnkeyedContainer()
                for value in pair { try inner.encode(value) }
            }
            var labels = container.nestedContainer(keyedBy: Key.self, forKey: .label)
            try labels.encode(label, forKey: .label)
        }
    }

    @Test func nestedContainersRoundTrip() throws {
        let value = Nested(pairs: [[1, 2], [], [-3]], label: "x")
        #expect(try roundTrip(value) == value)
    }

    @Test func decimalNaNIsRefused() throws {
        #expect(throws: EncodingError.self) { try PayloadEncoder().encode([Decimal.nan]) }
    }

    @Test func topLevelScalarsAndEmptyValues() throws {
        #expect(try JSONDecoder().decode(Int.self, from: PayloadEncoder().encode(42)) == 42)
        #expect(try JSONDecoder().decode(String?.self, from: PayloadEncoder().encode(String?.none)) == nil)
        #expect(try String(decoding: PayloadEncoder().encode([String: Int]()), as: UTF8.self) == "{}")
        #expect(try String(decoding: PayloadEncoder().encode([Int]()), as: UTF8.self) == "[]")
    }

    @Test func aKeyEncodedTwiceKeepsTheLastValue() throws {
        struct Twice: Encodable {
            enum Key: String, CodingKey { case a }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(1, forKey: .a)
                try container.encode(2, forKey: .a)
            }
        }
        #expect(try String(decoding: PayloadEncoder().encode(Twice()), as: UTF8.self) == #"{"a":2}"#)
    }

    @Test func largeObjectsKeepEveryKeyOnce() throws {
        let dictionary = Dictionary(uniqueKeysWithValues: (0..<100).map { ("k\($0)", $0) })
        #expect(try roundTrip(dictionary) == dictionary)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteNumbersAreRefusedLikeJSONEncoder(_ value: Double) throws {
        #expect(throws: EncodingError.self) { try PayloadEncoder().encode(["x": value]) }
        #expect(throws: EncodingError.self) { try PayloadEncoder().encode([Float(value)]) }
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(["x": value]) }
    }
}

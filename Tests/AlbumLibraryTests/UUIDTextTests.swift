import Foundation
import TestSupport
import Testing

@testable import AlbumLibrary

@Suite struct UUIDTextTests {
    @Test func readsWhatUUIDStringWritesAndWhatUUIDReads() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let id = UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                    bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                ))
            #expect(UUIDText.parse(id.uuidString) == id)
            #expect(UUIDText.parse(id.uuidString.lowercased()) == id)
        }
    }

    @Test(arguments: [
        "", "x", "3F2504E0-4F89-11D3-9A0C-0305E82C330", "3F2504E0-4F89-11D3-9A0C-0305E82C33011",
        "3F2504E0_4F89-11D3-9A0C-0305E82C3301", "3F2504E0-4F89-11D3-9A0C-0305E82C330G",
        "3F2504E04F8911D39A0C0305E82C3301",
    ])
    func refusesWhatUUIDRefuses(text: String) {
        #expect(UUIDText.parse(text) == nil)
        #expect(UUID(uuidString: text) == nil)
    }
}

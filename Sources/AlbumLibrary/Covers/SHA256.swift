import Foundation

/// SHA-256 (FIPS 180-4), for a cover's content hash: its HTTP `ETag` and how a step names the
/// image it stored. The libraries depend on nothing but the toolchain, and Foundation on Linux
/// has no digest.
///
/// Written over raw buffers with the rounds spelled out, so that even a debug build (the tests')
/// hashes a 10 MiB image in about a second.
enum SHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The digest of `bytes` as 64 lowercase hexadecimal digits.
    static func hexDigest(of bytes: Data) -> String {
        var state: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        // The whole blocks straight from the bytes; the last one or two, padded, from a copy.
        let whole = bytes.count / 64 * 64
        var tail = [UInt8](bytes[bytes.startIndex + whole..<bytes.endIndex])
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bitLength = UInt64(bytes.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        state.withUnsafeMutableBufferPointer { state in
            roundConstants.withUnsafeBufferPointer { constants in
                let schedule = UnsafeMutablePointer<UInt32>.allocate(capacity: 64)
                defer { schedule.deallocate() }
                bytes.withUnsafeBytes { raw in
                    guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return }
                    var offset = 0
                    while offset < whole {
                        compress(base + offset, state.baseAddress!, constants.baseAddress!, schedule)
                        offset += 64
                    }
                }
                tail.withUnsafeBufferPointer { tail in
                    var offset = 0
                    while offset < tail.count {
                        compress(tail.baseAddress! + offset, state.baseAddress!, constants.baseAddress!, schedule)
                        offset += 64
                    }
                }
            }
        }
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for word in state {
            for shift in stride(from: 28, through: 0, by: -4) {
                text.append(digits[Int((word >> UInt32(shift)) & 0xf)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// One 64-byte block into `state`.
    private static func compress(
        _ block: UnsafePointer<UInt8>, _ state: UnsafeMutablePointer<UInt32>, _ k: UnsafePointer<UInt32>,
        _ w: UnsafeMutablePointer<UInt32>
    ) {
        var index = 0
        while index < 16 {
            let at = block + index &* 4
            w[index] = UInt32(at[0]) << 24 | UInt32(at[1]) << 16 | UInt32(at[2]) << 8 | UInt32(at[3])
            index &+= 1
        }
        while index < 64 {
            let early = w[index &- 15]
            let late = w[index &- 2]
            let sigma0 = (early >> 7 | early << 25) ^ (early >> 18 | early << 14) ^ (early >> 3)
            let sigma1 = (late >> 17 | late << 15) ^ (late >> 19 | late << 13) ^ (late >> 10)
            w[index] = w[index &- 16] &+ sigma0 &+ w[index &- 7] &+ sigma1
            index &+= 1
        }
        var a = state[0]
        var b = state[1]
        var c = state[2]
        var d = state[3]
        var e = state[4]
        var f = state[5]
        var g = state[6]
        var h = state[7]
        index = 0
        while index < 64 {
            let sum1 = (e >> 6 | e << 26) ^ (e >> 11 | e << 21) ^ (e >> 25 | e << 7)
            let first = h &+ sum1 &+ ((e & f) ^ (~e & g)) &+ k[index] &+ w[index]
            let sum0 = (a >> 2 | a << 30) ^ (a >> 13 | a << 19) ^ (a >> 22 | a << 10)
            let second = sum0 &+ ((a & b) ^ (a & c) ^ (b & c))
            h = g
            g = f
            f = e
            e = d &+ first
            d = c
            c = b
            b = a
            a = first &+ second
            index &+= 1
        }
        state[0] = state[0] &+ a
        state[1] = state[1] &+ b
        state[2] = state[2] &+ c
        state[3] = state[3] &+ d
        state[4] = state[4] &+ e
        state[5] = state[5] &+ f
        state[6] = state[6] &+ g
        state[7] = state[7] &+ h
    }
}

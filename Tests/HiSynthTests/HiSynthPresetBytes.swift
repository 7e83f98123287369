import Foundation
import HiSynth

/// Hand-built preset strings for the quirk and malformed-input tests, written from the byte layout
/// in spec §2 without the codec: payloads as bytes, wrapped in raw DEFLATE *stored* blocks
/// (RFC 1951 §3.2.4: BFINAL/BTYPE byte, LEN, NLEN, the bytes) and standard base64.
enum HiSynthPresetBytes {
    static func half(_ value: Float16) -> [UInt8] { [UInt8(value.bitPattern & 0xFF), UInt8(value.bitPattern >> 8)] }

    /// HiSynth Key's payloads, from the inflated hex in spec §2 (LFO from its decoded values).
    static var hiSynthKey: [[UInt8]] {
        let lfo: [UInt8] = [3, 0, 0, 0]
            + [3] + half(0.029998779296875) + half(0) + half(0)
            + [3] + half(2.490234375) + half(2) + half(2)
            + [3] + half(0) + half(0) + half(0)
            + [3, 0, 0, 0] + [3, 0, 0, 0] + [3, 1, 0, 0] + [3, 0, 0, 0]
        return [
            hex("02 00 003a 1432 0000 00ca"),
            hex("0000 0038 003c 0038"),
            hex("006b000000000000"),
            lfo,
            hex("003c 02 0a2f 01 4052 0038 4052 00 004d 4052 00 0049 4052 00"),
        ]
    }

    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    /// `bytes` as raw DEFLATE stored blocks of at most `blockSize` bytes (the last one final).
    static func stored(_ bytes: [UInt8], blockSize: Int = 65535) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        repeat {
            let end = min(start + blockSize, bytes.count)
            let length = UInt16(end - start)
            out.append(end == bytes.count ? 1 : 0)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += bytes[start..<end]
            start = end
        } while start < bytes.count
        return out
    }

    static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    /// A preset string from a name field and five payloads (stored DEFLATE).
    static func string(name: String = base64(Array("HiSynth Key".utf8)), _ payloads: [[UInt8]]) -> String {
        ([name] + payloads.map { base64(stored($0)) }).joined(separator: ":")
    }

    /// HiSynth Key with one payload replaced by `change(payload)`.
    static func hiSynthKey(changing section: Int, _ change: (inout [UInt8]) -> Void) -> String {
        var payloads = hiSynthKey
        change(&payloads[section - 1])
        return string(payloads)
    }
}

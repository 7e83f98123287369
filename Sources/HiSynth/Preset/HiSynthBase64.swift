/// Standard base64 (RFC 4648 alphabet `+/`, `=` padding, no line breaks), strict like Apple's
/// `Data(base64Encoded:)` that the original uses: any character outside the alphabet, a length
/// that is not a multiple of 4 or padding in the middle makes decoding fail.
enum HiSynthBase64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = UInt32(bytes[index])
            let b1 = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let b2 = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(triple >> 18 & 63)])
            out.append(alphabet[Int(triple >> 12 & 63)])
            out.append(index + 1 < bytes.count ? alphabet[Int(triple >> 6 & 63)] : UInt8(ascii: "="))
            out.append(index + 2 < bytes.count ? alphabet[Int(triple & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The decoded bytes, or nil when `text` is not strict base64.
    static func decode(_ text: Substring) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 4 == 0 else { return nil }
        var padding = 0
        if chars.last == UInt8(ascii: "=") { padding += 1 }
        if chars.count >= 2, chars[chars.count - 2] == UInt8(ascii: "=") { padding += 1 }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        var group: UInt32 = 0
        for (index, char) in chars.enumerated() {
            let value: UInt32
            if index >= chars.count - padding {
                value = 0
            } else if let sextet = sextet(char) {
                value = sextet
            } else {
                return nil
            }
            group = group << 6 | value
            if index % 4 == 3 {
                out.append(UInt8(group >> 16 & 0xFF))
                out.append(UInt8(group >> 8 & 0xFF))
                out.append(UInt8(group & 0xFF))
                group = 0
            }
        }
        out.removeLast(padding)
        return out
    }

    private static func sextet(_ char: UInt8) -> UInt32? {
        switch char {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(char - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(char - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(char - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}

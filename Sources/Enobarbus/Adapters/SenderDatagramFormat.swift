/// Which wire format one UDP datagram is in, decided per packet so OSC, iFacialMocap text and Live Link
/// Face binary can share one port.
///
/// - OSC: starts with "/" (a message) or "#bundle\0".
/// - Live Link Face: uint32 little-endian version 6, then the device id's "$".
/// - iFacialMocap / FaceMotion3D: printable UTF-8 text with a "|" or a "name-value" token first.
public enum SenderDatagramFormat: String, Sendable, Hashable, CaseIterable {
    case osc
    case liveLinkFace
    case iFacialMocap

    /// The format of `bytes`, or nil when it is none of them (counted and dropped by the receiver).
    public static func detect(_ bytes: [UInt8]) -> SenderDatagramFormat? {
        guard let first = bytes.first else { return nil }
        if first == UInt8(ascii: "/") || bytes.starts(with: Array("#bundle\0".utf8)) { return .osc }
        if bytes.count > 4, bytes[0] == 6, bytes[1] == 0, bytes[2] == 0, bytes[3] == 0, bytes[4] == UInt8(ascii: "$") {
            return .liveLinkFace
        }
        // iFacialMocap text: letters first, then a '-', '&', '#' or '|' within the first token.
        let isLetter = { (b: UInt8) in (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b | 0x20) }
        guard isLetter(first) || first == UInt8(ascii: "=") else { return nil }
        for b in bytes.prefix(64) {
            if b == UInt8(ascii: "-") || b == UInt8(ascii: "&") || b == UInt8(ascii: "|") || b == UInt8(ascii: "#") {
                return .iFacialMocap
            }
            guard isLetter(b) || b == UInt8(ascii: "_") || b == UInt8(ascii: "=") || (0x30...0x39).contains(b) else { return nil }
        }
        return nil
    }
}

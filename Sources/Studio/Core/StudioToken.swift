/// Tokens for `--host` off loopback: 128 random bits as 32 lower-case hex digits (URL- and cookie-safe).
public enum StudioToken {
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> String {
        (0..<16).map { _ in
            let b = UInt8.random(in: 0...255, using: &generator)
            return String(b >> 4, radix: 16) + String(b & 15, radix: 16)
        }.joined()
    }

    public static func random() -> String {
        var g = SystemRandomNumberGenerator()
        return random(using: &g)
    }

    /// A token the user chose (`--token-file`, `PROSPERO_STUDIO_TOKEN`): 8…128 characters of letters, digits, `-`,
    /// `_`, `.` (safe in a URL and a cookie).
    public static func isValid(_ token: String) -> Bool {
        (8...128).contains(token.utf8.count)
            && token.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E }
    }
}

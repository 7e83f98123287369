/// Why a string is not a valid OSC address pattern.
public enum OSCAddressPatternError: Error, Equatable, Sendable, CustomStringConvertible {
    case missingLeadingSlash
    case unclosedBracket(offset: Int)
    case unclosedBrace(offset: Int)

    public var description: String {
        switch self {
        case .missingLeadingSlash: return "OSC pattern: must start with '/'"
        case .unclosedBracket(let o): return "OSC pattern: '[' at byte \(o) is never closed"
        case .unclosedBrace(let o): return "OSC pattern: '{' at byte \(o) is never closed"
        }
    }
}

/// An OSC 1.0 address pattern: `?` one character, `*` any run of characters, `[abc]`,
/// `[a-z]` and `[!a-z]` character classes, `{foo,bar}` alternatives. None of them
/// matches across "/", so every part of the pattern matches one part of the address.
///
///     let pattern = try OSCAddressPattern("/1/multixy?/*")
///     pattern.matches("/1/multixy1/3")   // true
///
/// - Complexity: O(pattern × address) in the worst case for `*`; O(n) for literal patterns.
public struct OSCAddressPattern: Sendable, Hashable, CustomStringConvertible {
    public let pattern: String
    private let bytes: [UInt8]

    public init(_ pattern: String) throws(OSCAddressPatternError) {
        let bytes = Array(pattern.utf8)
        guard bytes.first == UInt8(ascii: "/") else { throw .missingLeadingSlash }
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "[") {
                guard let close = bytes[i...].firstIndex(of: UInt8(ascii: "]")),
                      !bytes[i..<close].contains(UInt8(ascii: "/")) else { throw .unclosedBracket(offset: i) }
                i = close
            } else if bytes[i] == UInt8(ascii: "{") {
                guard let close = bytes[i...].firstIndex(of: UInt8(ascii: "}")),
                      !bytes[i..<close].contains(UInt8(ascii: "/")) else { throw .unclosedBrace(offset: i) }
                i = close
            }
            i += 1
        }
        self.pattern = pattern
        self.bytes = bytes
    }

    public var description: String { pattern }

    /// True when `address` matches the whole pattern.
    public func matches(_ address: String) -> Bool {
        var address = address
        return address.withUTF8 { a in
            bytes.withUnsafeBufferPointer { p in Self.match(p, 0, a, 0) }
        }
    }

    private static func match(_ p: UnsafeBufferPointer<UInt8>, _ pi: Int, _ a: UnsafeBufferPointer<UInt8>, _ ai: Int) -> Bool {
        var pi = pi, ai = ai
        while pi < p.count {
            let c = p[pi]
            switch c {
            case UInt8(ascii: "*"):
                // Collapse runs of '*', then try every split that stays inside this address part.
                while pi < p.count, p[pi] == UInt8(ascii: "*") { pi += 1 }
                var k = ai
                while true {
                    if match(p, pi, a, k) { return true }
                    if k >= a.count || a[k] == UInt8(ascii: "/") { return false }
                    k += 1
                }
            case UInt8(ascii: "?"):
                guard ai < a.count, a[ai] != UInt8(ascii: "/") else { return false }
                pi += 1; ai += 1
            case UInt8(ascii: "["):
                guard ai < a.count, a[ai] != UInt8(ascii: "/") else { return false }
                var j = pi + 1
                var negate = false
                if j < p.count, p[j] == UInt8(ascii: "!") { negate = true; j += 1 }
                var found = false
                while j < p.count, p[j] != UInt8(ascii: "]") {
                    if j + 2 < p.count, p[j + 1] == UInt8(ascii: "-"), p[j + 2] != UInt8(ascii: "]") {
                        if min(p[j], p[j + 2]) <= a[ai] && a[ai] <= max(p[j], p[j + 2]) { found = true }
                        j += 3
                    } else {
                        if p[j] == a[ai] { found = true }
                        j += 1
                    }
                }
                guard found != negate else { return false }
                pi = j + 1; ai += 1
            case UInt8(ascii: "{"):
                var close = pi + 1
                while close < p.count, p[close] != UInt8(ascii: "}") { close += 1 }
                var start = pi + 1
                while start <= close {
                    var stop = start
                    while stop < close, p[stop] != UInt8(ascii: ",") { stop += 1 }
                    let n = stop - start
                    if ai + n <= a.count {
                        var equal = true
                        for k in 0..<n where p[start + k] != a[ai + k] { equal = false; break }
                        if equal, match(p, close + 1, a, ai + n) { return true }
                    }
                    start = stop + 1
                }
                return false
            default:
                guard ai < a.count, a[ai] == c else { return false }
                pi += 1; ai += 1
            }
        }
        return ai == a.count
    }
}

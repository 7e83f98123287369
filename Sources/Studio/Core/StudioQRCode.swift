/// A QR code (ISO/IEC 18004) of a URL for the terminal: byte mode, error correction level M,
/// versions 1–10 (up to 213 bytes), Reed–Solomon over GF(256), the mask with the lowest penalty
/// (or a given one). `prospero studio` prints it so that a phone opens the LAN URL with its token.
public struct StudioQRCode: Equatable, Sendable {
    public enum Failure: Error, Equatable {
        /// The text needs more than version 10 holds at level M (213 bytes).
        case tooLong(bytes: Int)
        case badMask(Int)
    }

    /// 1…10.
    public let version: Int
    /// 0…7.
    public let mask: Int
    /// Modules per side (17 + 4 × version).
    public var size: Int { 17 + 4 * version }
    /// Row-major, true = dark.
    public private(set) var modules: [Bool]

    public func isDark(x: Int, y: Int) -> Bool { modules[y * size + x] }

    /// Level M block structure per version: (EC codewords per block, [(blocks, data codewords each)]).
    static let blocks: [(ec: Int, groups: [(count: Int, data: Int)])] = [
        (10, [(1, 16)]), (16, [(1, 28)]), (26, [(1, 44)]), (18, [(2, 32)]), (24, [(2, 43)]),
        (16, [(4, 27)]), (18, [(4, 31)]), (22, [(2, 38), (2, 39)]), (22, [(3, 36), (2, 37)]), (26, [(4, 43), (1, 44)]),
    ]
    static let alignment: [[Int]] = [
        [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50],
    ]

    static func dataCapacity(version: Int) -> Int { blocks[version - 1].groups.reduce(0) { $0 + $1.count * $1.data } }

    /// Encodes `text` as UTF-8 in the smallest version that holds it; `mask` nil picks the best.
    public init(text: String, mask: Int? = nil) throws(Failure) {
        let bytes = Array(text.utf8)
        guard let v = (1...10).first(where: { v in
            let countBits = v <= 9 ? 8 : 16
            return 4 + countBits + 8 * bytes.count <= 8 * Self.dataCapacity(version: v)
        }) else { throw .tooLong(bytes: bytes.count) }
        if let mask, !(0...7).contains(mask) { throw .badMask(mask) }
        version = v
        let size = 17 + 4 * v
        var matrix = Matrix(size: size)
        matrix.drawFunctionPatterns(version: v)
        let codewords = Self.interleave(Self.dataCodewords(bytes, version: v), version: v)
        matrix.placeData(codewords)
        if let mask {
            self.mask = mask
            matrix.apply(mask: mask)
            matrix.drawFormat(mask: mask)
        } else {
            var best = (penalty: Int.max, mask: 0)
            for m in 0..<8 {
                var trial = matrix
                trial.apply(mask: m)
                trial.drawFormat(mask: m)
                let p = trial.penalty()
                if p < best.penalty { best = (p, m) }
            }
            self.mask = best.mask
            matrix.apply(mask: best.mask)
            matrix.drawFormat(mask: best.mask)
        }
        modules = matrix.dark
    }

    /// Mode, count, bytes, terminator, padding to the version's data capacity.
    static func dataCodewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) { for i in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> i) & 1 == 1) } }
        append(0b0100, 4)
        append(bytes.count, version <= 9 ? 8 : 16)
        for b in bytes { append(Int(b), 8) }
        let capacity = 8 * dataCapacity(version: version)
        append(0, min(4, capacity - bits.count))
        while bits.count % 8 != 0 { bits.append(false) }
        var out: [UInt8] = stride(from: 0, to: bits.count, by: 8).map { i in bits[i..<i + 8].reduce(0) { $0 << 1 | ($1 ? 1 : 0) } }
        var pad: UInt8 = 0xEC
        while out.count < capacity / 8 {
            out.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return out
    }

    /// Splits into blocks, adds each block's EC codewords, interleaves data then EC column by column.
    static func interleave(_ data: [UInt8], version: Int) -> [UInt8] {
        let structure = blocks[version - 1]
        var dataBlocks: [[UInt8]] = []
        var offset = 0
        for group in structure.groups {
            for _ in 0..<group.count {
                dataBlocks.append(Array(data[offset..<offset + group.data]))
                offset += group.data
            }
        }
        let ecBlocks = dataBlocks.map { ReedSolomon.remainder($0, degree: structure.ec) }
        var out: [UInt8] = []
        let longest = dataBlocks.map(\.count).max() ?? 0
        for i in 0..<longest { for b in dataBlocks where i < b.count { out.append(b[i]) } }
        for i in 0..<structure.ec { for b in ecBlocks { out.append(b[i]) } }
        return out
    }

    /// Reed–Solomon over GF(256) with the QR polynomial x⁸+x⁴+x³+x²+1 (0x11D), generator roots α⁰…αⁿ⁻¹.
    enum ReedSolomon {
        static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
            var x = Int(a), y = Int(b), product = 0
            while y > 0 {
                if y & 1 == 1 { product ^= x }
                x <<= 1
                if x & 0x100 != 0 { x ^= 0x11D }
                y >>= 1
            }
            return UInt8(product)
        }

        /// Coefficients of ∏(x − αⁱ), i < degree, highest first without the leading 1.
        static func generator(degree: Int) -> [UInt8] {
            var poly: [UInt8] = [1]
            var root: UInt8 = 1
            for _ in 0..<degree {
                var next = [UInt8](repeating: 0, count: poly.count + 1)
                for (i, c) in poly.enumerated() {
                    next[i] ^= c
                    next[i + 1] ^= multiply(c, root)
                }
                poly = next
                root = multiply(root, 2)
            }
            return Array(poly.dropFirst())
        }

        static func remainder(_ data: [UInt8], degree: Int) -> [UInt8] {
            let g = generator(degree: degree)
            var r = [UInt8](repeating: 0, count: degree)
            for byte in data {
                let factor = byte ^ r[0]
                r.removeFirst()
                r.append(0)
                for i in 0..<degree { r[i] ^= multiply(g[i], factor) }
            }
            return r
        }
    }

    /// The modules while they are drawn, with which ones belong to function patterns.
    struct Matrix {
        let size: Int
        var dark: [Bool]
        var function: [Bool]

        init(size: Int) {
            self.size = size
            dark = [Bool](repeating: false, count: size * size)
            function = dark
        }

        mutating func set(_ x: Int, _ y: Int, _ isDark: Bool) {
            dark[y * size + x] = isDark
            function[y * size + x] = true
        }

        mutating func drawFunctionPatterns(version: Int) {
            for i in 0..<size {
                set(6, i, i % 2 == 0)
                set(i, 6, i % 2 == 0)
            }
            for (cx, cy) in [(3, 3), (size - 4, 3), (3, size - 4)] {
                for dy in -4...4 {
                    for dx in -4...4 {
                        let x = cx + dx, y = cy + dy
                        guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                        let d = max(abs(dx), abs(dy))
                        set(x, y, d != 2 && d != 4)
                    }
                }
            }
            let centres = StudioQRCode.alignment[version - 1]
            for cy in centres {
                for cx in centres {
                    let nearFinder = (cx == 6 && cy == 6) || (cx == 6 && cy == centres.last!) || (cx == centres.last! && cy == 6)
                    if nearFinder { continue }
                    for dy in -2...2 { for dx in -2...2 { set(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1) } }
                }
            }
            drawFormat(mask: 0)  // reserves the format areas; redrawn after masking
            if version >= 7 {
                var rem = version
                for _ in 0..<12 { rem = (rem << 1) ^ ((rem >> 11) * 0x1F25) }
                let bits = version << 12 | rem
                for i in 0..<18 {
                    let bit = (bits >> i) & 1 == 1
                    let a = size - 11 + i % 3, b = i / 3
                    set(a, b, bit)
                    set(b, a, bit)
                }
            }
        }

        /// Level M (format bits 00) with `mask`, BCH(15,5), XOR 0x5412; both copies and the dark module.
        mutating func drawFormat(mask: Int) {
            let data = 0b00 << 3 | mask
            var rem = data
            for _ in 0..<10 { rem = (rem << 1) ^ ((rem >> 9) * 0x537) }
            let bits = (data << 10 | rem) ^ 0x5412
            func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
            for i in 0...5 { set(8, i, bit(i)) }
            set(8, 7, bit(6))
            set(8, 8, bit(7))
            set(7, 8, bit(8))
            for i in 9..<15 { set(14 - i, 8, bit(i)) }
            for i in 0..<8 { set(size - 1 - i, 8, bit(i)) }
            for i in 8..<15 { set(8, size - 15 + i, bit(i)) }
            set(8, size - 8, true)
        }

        /// Codeword bits in the zigzag from the bottom-right corner, two columns at a time, skipping column 6.
        mutating func placeData(_ codewords: [UInt8]) {
            var i = 0
            let total = codewords.count * 8
            var right = size - 1
            while right >= 1 {
                if right == 6 { right = 5 }
                for vert in 0..<size {
                    for j in 0..<2 {
                        let x = right - j
                        let upward = (right + 1) & 2 == 0
                        let y = upward ? size - 1 - vert : vert
                        guard !function[y * size + x] else { continue }
                        if i < total {
                            dark[y * size + x] = (codewords[i >> 3] >> (7 - (i & 7))) & 1 == 1
                            i += 1
                        }
                    }
                }
                right -= 2
            }
        }

        static func maskBit(_ mask: Int, x: Int, y: Int) -> Bool {
            switch mask {
            case 0: (x + y) % 2 == 0
            case 1: y % 2 == 0
            case 2: x % 3 == 0
            case 3: (x + y) % 3 == 0
            case 4: (x / 3 + y / 2) % 2 == 0
            case 5: x * y % 2 + x * y % 3 == 0
            case 6: (x * y % 2 + x * y % 3) % 2 == 0
            default: ((x + y) % 2 + x * y % 3) % 2 == 0
            }
        }

        mutating func apply(mask: Int) {
            for y in 0..<size {
                for x in 0..<size where !function[y * size + x] && Self.maskBit(mask, x: x, y: y) {
                    dark[y * size + x].toggle()
                }
            }
        }

        /// The standard's four penalty rules (runs, 2×2 blocks, finder-like patterns, dark balance).
        func penalty() -> Int {
            var score = 0
            func line(_ get: (Int) -> Bool) {
                var run = 1
                for i in 1..<size {
                    if get(i) == get(i - 1) {
                        run += 1
                    } else {
                        if run >= 5 { score += run - 2 }
                        run = 1
                    }
                }
                if run >= 5 { score += run - 2 }
                let pattern: [Bool] = [true, false, true, true, true, false, true]
                for i in 0..<size {
                    guard i + 7 <= size, (0..<7).allSatisfy({ get(i + $0) == pattern[$0] }) else { continue }
                    let before = (max(0, i - 4)..<i).allSatisfy { !get($0) } && i >= 4
                    let after = (i + 7..<min(size, i + 11)).allSatisfy { !get($0) } && i + 11 <= size
                    if before || after { score += 40 }
                }
            }
            for y in 0..<size { line { dark[y * size + $0] } }
            for x in 0..<size { line { dark[$0 * size + x] } }
            for y in 0..<size - 1 {
                for x in 0..<size - 1 {
                    let c = dark[y * size + x]
                    if c == dark[y * size + x + 1] && c == dark[(y + 1) * size + x] && c == dark[(y + 1) * size + x + 1] { score += 3 }
                }
            }
            let darkCount = dark.filter { $0 }.count
            let percent = darkCount * 100 / (size * size)
            score += 10 * (abs(percent - 50) / 5)
            return score
        }
    }

    /// The code for a terminal: two rows per line in half blocks, black on white (ANSI colours) with a
    /// quiet zone of 2 modules, so that it scans on dark and light terminals alike.
    public var terminalText: String {
        let quiet = 2
        let n = size + 2 * quiet
        func d(_ x: Int, _ y: Int) -> Bool {
            let mx = x - quiet, my = y - quiet
            return (0..<size).contains(mx) && (0..<size).contains(my) && isDark(x: mx, y: my)
        }
        var lines: [String] = []
        for y in stride(from: 0, to: n, by: 2) {
            var line = "\u{1B}[30;47m"
            for x in 0..<n {
                switch (d(x, y), y + 1 < n && d(x, y + 1)) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line + "\u{1B}[0m")
        }
        return lines.joined(separator: "\n")
    }
}

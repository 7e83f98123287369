/// Turns float samples into the bytes of one sample format: the one conversion `WAVEncoder` and
/// `WAVStreamWriter` share, so a file written either way has the same bytes.
///
/// Integer formats clip at full scale; non-finite samples are written as silence. 16-bit output
/// gets triangular (TPDF) dither of ±1 LSB from a fixed-seed generator, so runs are identical.
public struct WAVSampleEncoder: Sendable {
    public let format: WAVSampleFormat
    /// Whether 16-bit output is dithered (always false for the other formats).
    public let dither: Bool
    private var ditherState: UInt32 = 0x9E37_79B9

    public init(format: WAVSampleFormat, dither: Bool) {
        self.format = format
        self.dither = dither && format == .pcm16
    }

    /// Appends the little-endian bytes of `raw` to `bytes`.
    public mutating func append(_ raw: Float, to bytes: inout [UInt8]) {
        let x = raw.isFinite ? raw : 0
        switch format {
        case .float32:
            bytes.appendLittleEndian(x.bitPattern)
        case .pcm16:
            var scaled = Double(x) * 32768.0
            if dither { scaled += nextDither() }
            let v = Int16(clamping: Int(scaled.rounded()).clamped(to: -32768...32767))
            bytes.appendLittleEndian(UInt16(bitPattern: v))
        case .pcm24:
            let scaled = (Double(x) * 8_388_608.0).rounded()
            let v = Int32(Int(scaled).clamped(to: -8_388_608...8_388_607))
            let u = UInt32(bitPattern: v)
            bytes.append(UInt8(truncatingIfNeeded: u))
            bytes.append(UInt8(truncatingIfNeeded: u >> 8))
            bytes.append(UInt8(truncatingIfNeeded: u >> 16))
        }
    }

    /// Triangular noise in −1…1 LSB: the sum of two uniform values (xorshift32).
    private mutating func nextDither() -> Double {
        func next() -> Double {
            ditherState ^= ditherState << 13
            ditherState ^= ditherState >> 17
            ditherState ^= ditherState << 5
            return Double(ditherState) / Double(UInt32.max) - 0.5
        }
        return next() + next()
    }
}

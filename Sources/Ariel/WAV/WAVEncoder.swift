/// Encodes planar float audio into the bytes of a RIFF/WAVE file in memory, block by block (for files
/// of any length, `WAVStreamWriter` writes to a sink instead).
///
/// The encoder is deterministic: the same samples in the same blocks always give
/// the same bytes (the 16-bit dither noise comes from a fixed-seed generator).
/// Integer formats clip at full scale; non-finite samples are written as silence.
///
///     var wav = WAVEncoder(sampleRate: 48_000, channelCount: 2, format: .pcm24)
///     wav.append(left: l, right: r)
///     let bytes = wav.finish()
public struct WAVEncoder: Sendable {
    public let sampleRate: Int
    public let channelCount: Int
    public let format: WAVSampleFormat
    /// Whether 16-bit output gets triangular (TPDF) dither of ±1 LSB.
    public let dither: Bool

    private var body: [UInt8] = []
    private var samples: WAVSampleEncoder

    /// - Parameters:
    ///   - sampleRate: frames per second, 1…4 294 967 295 Hz.
    ///   - channelCount: 1…16 channels.
    ///   - format: sample storage.
    ///   - dither: TPDF dither for `.pcm16` (ignored for the other formats).
    public init(sampleRate: Int, channelCount: Int, format: WAVSampleFormat = .pcm16, dither: Bool = true) {
        precondition(sampleRate > 0 && sampleRate <= Int(UInt32.max), "sample rate out of range")
        precondition((1...16).contains(channelCount), "channel count must be 1…16")
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.format = format
        self.dither = dither && format == .pcm16
        samples = WAVSampleEncoder(format: format, dither: dither)
    }

    /// Frames appended so far.
    public var frameCount: Int { body.count / (channelCount * format.bytesPerSample) }

    /// Appends frames from planar channel buffers, which must all have the same length.
    public mutating func append(planar channels: [[Float]]) {
        precondition(channels.count == channelCount, "expected \(channelCount) channels, got \(channels.count)")
        let frames = channels.first?.count ?? 0
        precondition(channels.allSatisfy { $0.count == frames }, "channel buffers differ in length")
        // Grow geometrically: reserving the exact size on every block copies the whole body each
        // time (quadratic: a one-minute render spent most of its time in memmove and page faults).
        let needed = body.count + frames * channelCount * format.bytesPerSample
        if body.capacity < needed { body.reserveCapacity(max(needed, 2 * body.capacity)) }
        for frame in 0..<frames {
            for channel in 0..<channelCount {
                samples.append(channels[channel][frame], to: &body)
            }
        }
    }

    /// Appends a mono block (the encoder must have one channel).
    public mutating func append(mono: [Float]) { append(planar: [mono]) }

    /// Appends a stereo block (the encoder must have two channels).
    public mutating func append(left: [Float], right: [Float]) { append(planar: [left, right]) }

    /// The complete file: header followed by every frame appended.
    public func finish() -> [UInt8] {
        var out = WAVHeader.bytes(sampleRate: sampleRate, channelCount: channelCount, format: format,
                                  dataBytes: UInt64(body.count), reservingRF64: false)
        out.reserveCapacity(out.count + body.count)
        out += body
        return out
    }
}

extension Int {
    @inlinable
    func clamped(to range: ClosedRange<Int>) -> Int { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}

extension Array where Element == UInt8 {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        var v = value.littleEndian
        Swift.withUnsafeBytes(of: &v) { append(contentsOf: $0) }
    }
}

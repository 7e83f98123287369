/// Writes a RIFF/WAVE file to a `WAVSink` block by block, holding only one buffer of about 64 KiB:
/// memory does not grow with the length of the file.
///
/// The header is written first with sizes of zero and patched by `finish()`. A file that may pass
/// 4 GiB of samples (what a RIFF size field counts) is made with `reservingRF64`: its header holds a
/// 28-byte `JUNK` chunk that `finish()` turns into RF64's `ds64` (EBU Tech 3306) when the data did
/// pass 4 GiB; otherwise the file stays a plain WAV. Without the reservation, data past the limit
/// is refused with `WAVStreamError.fileTooLarge` before it is written. Samples are encoded exactly as
/// `WAVEncoder` encodes them, so without the reservation the bytes are the same as its file.
///
///     var writer = try WAVStreamWriter(sink: FileSink(…), sampleRate: 48_000, channelCount: 2, format: .pcm24)
///     try writer.append(left: l, right: r)
///     let sink = try writer.finish()
public struct WAVStreamWriter<Sink: WAVSink> {
    public let sampleRate: Int
    public let channelCount: Int
    public let format: WAVSampleFormat
    /// Whether the header keeps room for RF64 (see the type's comment).
    public let reservesRF64: Bool
    /// Largest count of sample bytes a plain RIFF file can hold: its RIFF size field (file size − 8)
    /// must fit 32 bits. `package` so that tests can lower it to exercise RF64 with small files.
    package var riffDataLimit: UInt64

    public private(set) var sink: Sink
    /// Frames appended so far.
    public private(set) var frameCount: UInt64 = 0
    /// Sample bytes handed to the sink or waiting in the buffer.
    public private(set) var dataBytes: UInt64 = 0

    private var samples: WAVSampleEncoder
    private var buffer: [UInt8] = []
    private static var bufferBytes: Int { 1 << 16 }

    /// Writes the header to `sink`.
    /// - Parameters:
    ///   - sink: where the bytes go (a file, or memory in tests).
    ///   - sampleRate: frames per second, 1…4 294 967 295 Hz.
    ///   - channelCount: 1…16 channels.
    ///   - format: the sample format (16- or 24-bit integer, 32-bit float).
    ///   - dither: TPDF dither for `.pcm16` (ignored for the other formats).
    ///   - reservingRF64: keep room for RF64 (for files that may pass 4 GiB of samples).
    public init(sink: Sink, sampleRate: Int, channelCount: Int, format: WAVSampleFormat = .pcm16,
                dither: Bool = true, reservingRF64: Bool = false) throws {
        precondition(sampleRate > 0 && sampleRate <= Int(UInt32.max), "sample rate out of range")
        precondition((1...16).contains(channelCount), "channel count must be 1…16")
        self.sink = sink
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.format = format
        reservesRF64 = reservingRF64
        riffDataLimit = UInt64(UInt32.max) - 36 - (reservingRF64 ? UInt64(WAVHeader.ds64ChunkSize) : 0)
        samples = WAVSampleEncoder(format: format, dither: dither)
        buffer.reserveCapacity(Self.bufferBytes + 16 * 4)
        let header = WAVHeader.bytes(sampleRate: sampleRate, channelCount: channelCount, format: format,
                                     dataBytes: 0, reservingRF64: reservingRF64)
        try header.withUnsafeBytes { try self.sink.write($0) }
    }

    /// Appends a stereo block (the writer must have two channels); both buffers have the same length.
    public mutating func append(left: UnsafeBufferPointer<Float>, right: UnsafeBufferPointer<Float>) throws {
        precondition(channelCount == 2 && left.count == right.count, "expected two channels of equal length")
        try reserve(frames: left.count)
        for i in 0..<left.count {
            samples.append(left[i], to: &buffer)
            samples.append(right[i], to: &buffer)
            if buffer.count >= Self.bufferBytes { try drain() }
        }
    }

    /// Appends frames from planar channel buffers, which must all have the same length.
    public mutating func append(planar channels: [[Float]]) throws {
        precondition(channels.count == channelCount, "expected \(channelCount) channels, got \(channels.count)")
        let frames = channels.first?.count ?? 0
        precondition(channels.allSatisfy { $0.count == frames }, "channel buffers differ in length")
        try reserve(frames: frames)
        for frame in 0..<frames {
            for channel in 0..<channelCount { samples.append(channels[channel][frame], to: &buffer) }
            if buffer.count >= Self.bufferBytes { try drain() }
        }
    }

    /// Writes what is buffered, patches the header with the final sizes (RF64 when the data passed
    /// 4 GiB), and returns the sink.
    public mutating func finish() throws -> Sink {
        try drain()
        if dataBytes > riffDataLimit {
            // Only reachable with the reservation (`reserve` refuses the rest).
            try sink.patch(at: 0, with: WAVHeader.rf64Prefix(dataBytes: dataBytes, frameCount: frameCount))
            try sink.patch(at: WAVHeader.dataSizeOffset(reservingRF64: true), with: [0xFF, 0xFF, 0xFF, 0xFF])
        } else {
            let header = WAVHeader.bytes(sampleRate: sampleRate, channelCount: channelCount, format: format,
                                         dataBytes: dataBytes, reservingRF64: reservesRF64)
            try sink.patch(at: 0, with: Array(header.prefix(8)))
            try sink.patch(at: WAVHeader.dataSizeOffset(reservingRF64: reservesRF64), with: Array(header.suffix(4)))
        }
        return sink
    }

    /// Counts `frames` more frames, refusing them when a plain RIFF file could not hold them.
    private mutating func reserve(frames: Int) throws {
        let bytes = UInt64(frames * channelCount * format.bytesPerSample)
        if !reservesRF64 && dataBytes + bytes > riffDataLimit {
            throw WAVStreamError.fileTooLarge(bytes: dataBytes + bytes, limit: riffDataLimit)
        }
        dataBytes += bytes
        frameCount += UInt64(frames)
    }

    private mutating func drain() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try sink.write($0) }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// The bytes before a WAV file's samples: RIFF/WAVE with a 16-byte `fmt ` chunk, optionally a
/// 28-byte `JUNK` chunk kept free for RF64's `ds64` (EBU Tech 3306), then the `data` chunk header.
enum WAVHeader {
    /// Size of the reserved `JUNK`/`ds64` chunk including its 8-byte header.
    static let ds64ChunkSize = 36

    /// The header for `dataBytes` bytes of samples. With `reservingRF64`, a `JUNK` chunk sits where
    /// `ds64` goes if the file outgrows 4 GiB.
    static func bytes(sampleRate: Int, channelCount: Int, format: WAVSampleFormat, dataBytes: UInt64,
                      reservingRF64: Bool) -> [UInt8] {
        var out: [UInt8] = []
        let blockAlign = channelCount * format.bytesPerSample
        let extra = reservingRF64 ? UInt64(ds64ChunkSize) : 0
        out += Array("RIFF".utf8)
        out.appendLittleEndian(UInt32(truncatingIfNeeded: 36 + extra + dataBytes))
        out += Array("WAVE".utf8)
        if reservingRF64 {
            out += Array("JUNK".utf8)
            out.appendLittleEndian(UInt32(28))
            out += [UInt8](repeating: 0, count: 28)
        }
        out += Array("fmt ".utf8)
        out.appendLittleEndian(UInt32(16))
        out.appendLittleEndian(format.formatTag)
        out.appendLittleEndian(UInt16(channelCount))
        out.appendLittleEndian(UInt32(sampleRate))
        out.appendLittleEndian(UInt32(sampleRate * blockAlign))
        out.appendLittleEndian(UInt16(blockAlign))
        out.appendLittleEndian(UInt16(format.bytesPerSample * 8))
        out += Array("data".utf8)
        out.appendLittleEndian(UInt32(truncatingIfNeeded: dataBytes))
        return out
    }

    /// The RF64 form of the first bytes (up to and including the `ds64` chunk) for a file whose header
    /// was written with `reservingRF64`: `RF64`, size −1, `WAVE`, `ds64` with the 64-bit RIFF size, data
    /// size and sample count. The `data` chunk's own size field becomes 0xFFFFFFFF (see `rf64DataSizeOffset`).
    static func rf64Prefix(dataBytes: UInt64, frameCount: UInt64) -> [UInt8] {
        var out: [UInt8] = []
        out += Array("RF64".utf8)
        out.appendLittleEndian(UInt32.max)
        out += Array("WAVE".utf8)
        out += Array("ds64".utf8)
        out.appendLittleEndian(UInt32(28))
        out.appendLittleEndian(UInt64(36 + UInt64(ds64ChunkSize)) + dataBytes)  // RIFF size: file size − 8
        out.appendLittleEndian(dataBytes)
        out.appendLittleEndian(frameCount)
        out.appendLittleEndian(UInt32(0))  // no table entries
        return out
    }

    /// Offset of the `data` chunk's size field in a header written with or without the reserved chunk.
    static func dataSizeOffset(reservingRF64: Bool) -> UInt64 { reservingRF64 ? 40 + UInt64(ds64ChunkSize) : 40 }
}

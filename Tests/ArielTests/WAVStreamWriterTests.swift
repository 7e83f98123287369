import Ariel
import Foundation
import ProsperoTestSupport
import Testing

/// WAV streamed to a sink: the same bytes as the in-memory encoder, RF64 past the RIFF limit, and
/// a clear error instead of a wrapped size when there is no room for RF64.
@Suite(.ownThread) struct WAVStreamWriterTests {
    static func signal(_ n: Int, _ phase: Float) -> [Float] { (0..<n).map { sin(Float($0) * 0.05 + phase) * 0.8 } }

    @Test(arguments: WAVSampleFormat.allCases)
    func streamedBytesEqualTheInMemoryFile(format: WAVSampleFormat) throws {
        var encoder = WAVEncoder(sampleRate: 48_000, channelCount: 2, format: format)
        var writer = try WAVStreamWriter(sink: WAVMemorySink(), sampleRate: 48_000, channelCount: 2, format: format)
        // Blocks of odd sizes, 60 000 frames in all: the 64 KiB buffer drains in the middle of a block.
        var done = 0
        for size in [1, 255, 4096, 17, 30_000, 25_631] {
            let l = Self.signal(size, Float(done)), r = Self.signal(size, Float(done) + 1)
            encoder.append(left: l, right: r)
            try writer.append(planar: [l, r])
            done += size
        }
        let streamed = try writer.finish().bytes
        #expect(streamed == encoder.finish())
        #expect(writer.frameCount == 60_000)
    }

    @Test func pastTheRIFFLimitTheFileBecomesRF64() throws {
        // The 4 GiB limit lowered to 1 000 bytes, so that a small file takes the same path.
        var writer = try WAVStreamWriter(sink: WAVMemorySink(), sampleRate: 8_000, channelCount: 2, format: .pcm16,
                                         dither: false, reservingRF64: true)
        writer.riffDataLimit = 1_000
        let l = Self.signal(300, 0), r = Self.signal(300, 2)
        try writer.append(planar: [l, r])
        let bytes = try writer.finish().bytes
        // EBU Tech 3306: "RF64", size −1, "WAVE", "ds64" (28 bytes: RIFF size, data size, sample count, table length).
        #expect(Array(bytes[0..<4]) == Array("RF64".utf8) && Array(bytes[4..<8]) == [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Array(bytes[12..<16]) == Array("ds64".utf8))
        func le64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * $1) } }
        #expect(le64(20) == UInt64(bytes.count - 8))
        #expect(le64(28) == 1_200 && le64(36) == 300)
        #expect(Array(bytes[72..<76]) == Array("data".utf8) && Array(bytes[76..<80]) == [0xFF, 0xFF, 0xFF, 0xFF])
        let decoded = try WAVAudio(decoding: bytes)
        #expect(decoded.frameCount == 300 && decoded.channels.count == 2)
        #expect(abs(decoded.channels[1][10] - r[10]) <= 0.5 / 32768 + 1e-7)
    }

    @Test func reservedButSmallFilesStayPlainWAVWithAJunkChunk() throws {
        var writer = try WAVStreamWriter(sink: WAVMemorySink(), sampleRate: 8_000, channelCount: 2, format: .pcm24, reservingRF64: true)
        try writer.append(planar: [Self.signal(100, 0), Self.signal(100, 1)])
        let bytes = try writer.finish().bytes
        #expect(Array(bytes[0..<4]) == Array("RIFF".utf8) && Array(bytes[12..<16]) == Array("JUNK".utf8))
        #expect(bytes.count == 80 + 600)
        #expect(try WAVAudio(decoding: bytes).frameCount == 100)
    }

    @Test func withoutRoomForRF64TheLimitIsAClearError() throws {
        var writer = try WAVStreamWriter(sink: WAVMemorySink(), sampleRate: 8_000, channelCount: 2, format: .pcm16)
        writer.riffDataLimit = 1_000
        try writer.append(planar: [Self.signal(250, 0), Self.signal(250, 0)])
        #expect(throws: WAVStreamError.fileTooLarge(bytes: 1_004, limit: 1_000)) {
            try writer.append(planar: [[0.5], [0.5]])
        }
        #expect(WAVStreamError.fileTooLarge(bytes: 1_004, limit: 1_000).description.contains("RF64"))
        #expect((try writer.finish().bytes).count == 44 + 1_000, "nothing past the limit was written")
    }

    @Test func soxReadsTheRF64File() async throws {
        let sox = try TestPeers.require(TestPeers.executable("sox"), "sox (apt-get install sox)")
        var writer = try WAVStreamWriter(sink: WAVMemorySink(), sampleRate: 8_000, channelCount: 2, format: .pcm16,
                                         dither: false, reservingRF64: true)
        writer.riffDataLimit = 1_000
        try writer.append(planar: [Self.signal(4_000, 0), Self.signal(4_000, 1)])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rf64-\(getpid()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(try writer.finish().bytes).write(to: URL(fileURLWithPath: path))
        let info = try await TestPeers.run(sox, ["--i", "-s", path])
        #expect(info.status == 0 && info.output.trimmingCharacters(in: .whitespacesAndNewlines) == "4000", "\(info.output)")
    }
}

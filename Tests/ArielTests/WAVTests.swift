import Ariel
import Testing

@Suite struct WAVTests {
    let ramp: [Float] = (0..<480).map { Float($0) / 240 - 1 }

    @Test(arguments: WAVSampleFormat.allCases)
    func roundTripsWithinOneQuantisationStep(format: WAVSampleFormat) throws {
        var encoder = WAVEncoder(sampleRate: 48_000, channelCount: 2, format: format, dither: false)
        encoder.append(left: ramp, right: ramp.map { -$0 * 0.5 })
        let decoded = try WAVAudio(decoding: encoder.finish())
        #expect(decoded.sampleRate == 48_000)
        #expect(decoded.channels.count == 2)
        #expect(decoded.frameCount == ramp.count)
        #expect(decoded.format == format)
        let step: Float = format == .pcm16 ? 0.5 / 32768 : format == .pcm24 ? 0.5 / 8_388_608 : 0
        for i in ramp.indices {
            #expect(abs(decoded.channels[0][i] - ramp[i]) <= step * 1.01 + 1e-7)
            #expect(abs(decoded.channels[1][i] + ramp[i] * 0.5) <= step * 1.01 + 1e-7)
        }
    }

    @Test func headerFieldsAreCanonical() {
        var encoder = WAVEncoder(sampleRate: 44_100, channelCount: 1, format: .pcm16)
        encoder.append(mono: [0, 0, 0])
        let bytes = encoder.finish()
        #expect(bytes.count == 44 + 6)
        #expect(Array(bytes[0..<4]) == Array("RIFF".utf8))
        #expect(Array(bytes[36..<40]) == Array("data".utf8))
        #expect(bytes[40] == 6)
    }

    @Test func encodingIsDeterministicIncludingDither() {
        func render() -> [UInt8] {
            var e = WAVEncoder(sampleRate: 48_000, channelCount: 1, format: .pcm16)
            e.append(mono: ramp)
            return e.finish()
        }
        #expect(render() == render())
    }

    @Test func clipsAndSilencesNonFiniteSamples() throws {
        var e = WAVEncoder(sampleRate: 8_000, channelCount: 1, format: .pcm16, dither: false)
        e.append(mono: [2, -2, .nan, .infinity])
        let d = try WAVAudio(decoding: e.finish())
        #expect(d.channels[0] == [32767 / 32768, -1, 0, 0])
    }

    @Test func malformedFilesGiveNamedErrors() {
        #expect(throws: WAVDecodingError.tooShort(byteCount: 3)) { try WAVAudio(decoding: [1, 2, 3]) }
        #expect(throws: WAVDecodingError.notRIFF) { try WAVAudio(decoding: Array("RIFX0000WAVE".utf8)) }
        var e = WAVEncoder(sampleRate: 8_000, channelCount: 1)
        e.append(mono: [0.1, 0.2])
        let truncated = Array(e.finish().dropLast(2))
        #expect(throws: WAVDecodingError.chunkOverrunsFile(chunk: "data", declaredSize: 4, available: 2)) {
            try WAVAudio(decoding: truncated)
        }
    }
}

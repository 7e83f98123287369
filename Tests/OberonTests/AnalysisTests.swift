import Ariel
import Foundation
import Oberon
import Testing

/// The WAV stream reader, the programme report and the piano roll.
@Suite struct AnalysisTests {
    /// Reads `bytes` through the closure in pieces of at most `piece` bytes (gathered to the count asked).
    static func reader(_ bytes: [UInt8]) throws(WAVStreamReadError) -> WAVStreamReader {
        var position = 0
        return try WAVStreamReader { count in
            let end = min(bytes.count, position + count)
            defer { position = end }
            return Array(bytes[position..<end])
        }
    }

    @Test(arguments: [WAVSampleFormat.pcm16, .pcm24, .float32])
    func streamedSamplesEqualTheWholeFileDecoder(_ format: WAVSampleFormat) throws {
        var encoder = WAVEncoder(sampleRate: 44_100, channelCount: 2, format: format)
        let left = (0..<10_007).map { Float(0.8 * sin(Double($0) * 0.01)) }
        let right = left.map { -$0 * 0.5 }
        encoder.append(left: left, right: right)
        let bytes = encoder.finish()
        let whole = try WAVAudio(decoding: bytes)
        var reader = try Self.reader(bytes)
        #expect(reader.sampleRate == 44_100 && reader.channelCount == 2 && reader.declaredFrames == 10_007)
        var block: [[Float]] = []
        var got: [[Float]] = [[], []]
        while try reader.readBlock(maximumFrames: 999, into: &block) > 0 {
            got[0] += block[0]
            got[1] += block[1]
        }
        #expect(got == whole.channels)
    }

    @Test func badStreamsGiveTypedErrors() {
        #expect(throws: WAVStreamReadError.notRIFF) { _ = try Self.reader(Array("RIFX0000WAVE".utf8)) }
        #expect(throws: WAVStreamReadError.notWAVE) { _ = try Self.reader(Array("RIFF0000AVI ".utf8)) }
        #expect(throws: WAVStreamReadError.truncatedHeader("the RIFF header")) { _ = try Self.reader(Array("RIFF".utf8)) }
        #expect(throws: WAVStreamReadError.missingChunk("fmt ")) { _ = try Self.reader(Array("RIFF0000WAVE".utf8)) }
        var encoder = WAVEncoder(sampleRate: 8_000, channelCount: 1, format: .pcm16)
        encoder.append(mono: [0.5])
        var bytes = encoder.finish()
        bytes[20] = 2  // format tag 2 (ADPCM)
        #expect(throws: WAVStreamReadError.unsupportedFormat(tag: 2, bitsPerSample: 16)) { _ = try Self.reader(bytes) }
    }

    /// The JSON report has exactly the keys; silence gives null, never −∞.
    @Test func reportJSON() throws {
        let silent = ProgrammeAnalyzer(sampleRate: 48_000, channelCount: 2)
        silent.process([[Float](repeating: 0, count: 48_000), [Float](repeating: 0, count: 48_000)])
        silent.finish()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(silent.report.json.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["samplePeakDBFS", "truePeakDBTP", "integratedLUFS", "loudnessRange", "shortTermMaxLUFS", "durationSeconds"])
        for key in ["samplePeakDBFS", "truePeakDBTP", "integratedLUFS", "loudnessRange", "shortTermMaxLUFS"] {
            #expect(object[key] is NSNull, "\(key)")
        }
        #expect((object["durationSeconds"] as? Double) == 1)

        let tone = OberonTestSupport.sineSegments(levels: [-23], seconds: [5])
        let loud = ProgrammeAnalyzer(sampleRate: 48_000, channelCount: 2)
        loud.process([tone, tone])
        loud.finish()
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(loud.report.json.utf8)) as? [String: Any])
        #expect(abs((figures["integratedLUFS"] as? Double ?? 0) + 23) <= 0.1)
        #expect(abs((figures["samplePeakDBFS"] as? Double ?? 0) + 23) <= 0.01)
        #expect(abs((figures["shortTermMaxLUFS"] as? Double ?? 0) + 23) <= 0.1)
    }

    /// Notes from a Standard MIDI File at 120 BPM then 60 BPM land at their times in seconds.
    @Test func pianoRollFromAMIDIFile() throws {
        let track = MIDIFileTrack(events: [
            .meta(.tempo(microsecondsPerQuarterNote: 500_000)),
            .message(.noteOn(channel: 0, note: 60, velocity: 100)),
            .message(.noteOff(channel: 0, note: 60, velocity: 0), delta: 480),  // one beat at 120 BPM: 0.5 s
            .meta(.tempo(microsecondsPerQuarterNote: 1_000_000)),
            .message(.noteOn(channel: 1, note: 64, velocity: 80)),
            .message(.noteOn(channel: 1, note: 64, velocity: 0), delta: 480),  // one beat at 60 BPM: 1 s
        ])
        let file = MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [track])
        let roll = PianoRoll(file: try MIDIFile(decoding: file.encoded()))
        #expect(roll.notes == [
            PianoRoll.Note(key: 60, channel: 0, start: 0, end: 0.5, velocity: 100),
            PianoRoll.Note(key: 64, channel: 1, start: 0.5, end: 1.5, velocity: 80),
        ])
        #expect(roll.keyRange == 60...64)
    }
}

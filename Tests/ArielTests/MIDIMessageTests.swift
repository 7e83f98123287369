import Ariel
import Testing

@Suite struct MIDIMessageTests {
    @Test func validatedValueTypesRejectOutOfRangeValues() {
        // Note: `MIDIChannel(16)` with a literal is literal coercion (checked by a precondition);
        // run-time values go through the failable initialisers tested here.
        #expect(MIDIChannel(Int(16)) == nil)
        #expect(MIDIChannel(Int(-1)) == nil)
        #expect(MIDIChannel(number: 16)?.rawValue == 15)
        #expect(MIDIUInt7(Int(128)) == nil)
        #expect(MIDIUInt7(clamping: 300).rawValue == 127)
        #expect(MIDIUInt14(Int(16384)) == nil)
        #expect(MIDIShortMessage(status: 0x90, data1: 0x80, data2: 1) == nil)
        #expect(MIDIShortMessage(status: 0xF0) == nil)
        #expect(MIDIShortMessage(status: 0xF4) == nil)
        #expect(MIDIShortMessage(status: 0x3C) == nil)
        #expect(MIDISystemExclusive(payload: [0x7E, 0x80]) == nil)
    }

    @Test func channelVoiceMessagesEncodeToSpecBytes() {
        #expect(MIDIMessage.noteOn(channel: 2, note: 60, velocity: 100).bytes == [0x92, 60, 100])
        #expect(MIDIMessage.noteOff(channel: 0, note: 64, velocity: 0).bytes == [0x80, 64, 0])
        #expect(MIDIMessage.polyPressure(channel: 15, note: 1, pressure: 2).bytes == [0xAF, 1, 2])
        #expect(MIDIMessage.controlChange(channel: 1, controller: 74, value: 127).bytes == [0xB1, 74, 127])
        #expect(MIDIMessage.programChange(channel: 9, program: 5).bytes == [0xC9, 5])
        #expect(MIDIMessage.channelPressure(channel: 3, pressure: 64).bytes == [0xD3, 64])
        // 14-bit pitch bend, least significant 7 bits first: 8192 = 0x2000 → 00 40.
        #expect(MIDIMessage.pitchBend(channel: 0, value: .center).bytes == [0xE0, 0x00, 0x40])
        #expect(MIDIMessage.pitchBend(channel: 0, value: 16383).bytes == [0xE0, 0x7F, 0x7F])
        #expect(MIDIMessage.pitchBend(channel: 0, value: 0x1234).bytes == [0xE0, 0x34, 0x24])
    }

    @Test func systemMessagesEncodeToSpecBytes() {
        #expect(MIDIMessage.timeCodeQuarterFrame(0x35).bytes == [0xF1, 0x35])
        #expect(MIDIMessage.songPositionPointer(300).bytes == [0xF2, 44, 2])  // 300 = 2 × 128 + 44, LSB first
        #expect(MIDIMessage.songSelect(7).bytes == [0xF3, 7])
        #expect(MIDIMessage.tuneRequest.bytes == [0xF6])
        #expect([MIDIMessage.timingClock, .start, .continue, .stop, .activeSensing, .systemReset].map { $0.bytes[0] }
                == [0xF8, 0xFA, 0xFB, 0xFC, 0xFE, 0xFF])
        let sysex = MIDIMessage.systemExclusive(MIDISystemExclusive(payload: [0x7E, 0x7F, 0x09, 0x01])!)
        #expect(sysex.bytes == [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7])
    }

    @Test func pitchBendHelpers() {
        #expect(MIDIUInt14.center.bipolar == 0)
        #expect(MIDIUInt14.min.bipolar == -1)
        #expect(MIDIUInt14.max.bipolar == 1)
        #expect(MIDIUInt14(bipolar: 0).rawValue == 8192)
        #expect(MIDIUInt14(bipolar: -1).rawValue == 0)
        #expect(MIDIUInt14(bipolar: 1).rawValue == 16383)
        #expect(MIDIUInt14(bipolar: 0.5).rawValue == 8192 + 4096)  // 0.5 × 8191 = 4095.5 → 4096
        #expect(MIDIUInt14(bipolar: .nan).rawValue == 8192)
        #expect(MIDIUInt14(bipolar: 7).rawValue == 16383)
        #expect(MIDIUInt14(signedFromCenter: -8192).rawValue == 0)
        #expect(MIDIUInt14(0x1234).signedFromCenter == 0x1234 - 8192)
        for raw in stride(from: 0, through: 16383, by: 7) {
            let v = MIDIUInt14(raw)!
            #expect(MIDIUInt14(bipolar: v.bipolar) == v)
        }
    }

    @Test func everyShortMessageRoundTripsThroughBytes() throws {
        for status in 0x80...0xFF {
            let n = MIDIShortMessage.dataByteCount(forStatus: UInt8(status))
            guard n >= 0 else { continue }
            for d in [0, 1, 63, 64, 127] {
                let short = try #require(MIDIShortMessage(status: UInt8(status), data1: UInt8(d), data2: UInt8(127 - d)))
                let message = MIDIMessage(short)
                #expect(message.shortMessage == short)
                #expect(try MIDIMessage(bytes: message.bytes) == message)
            }
        }
    }

    @Test func runningStatusEncodingAndDecoding() throws {
        let messages: [MIDIMessage] = [
            .noteOn(channel: 0, note: 60, velocity: 100),
            .noteOn(channel: 0, note: 64, velocity: 90),
            .timingClock,  // real-time does not cancel running status
            .noteOn(channel: 0, note: 67, velocity: 80),
            .songSelect(1),  // system common cancels it
            .noteOn(channel: 0, note: 60, velocity: 0),
            .controlChange(channel: 0, controller: 1, value: 5),
            .controlChange(channel: 0, controller: 1, value: 6),
        ]
        let bytes = MIDIMessage.encode(messages, runningStatus: true)
        #expect(bytes == [0x90, 60, 100, 64, 90, 0xF8, 67, 80, 0xF3, 1, 0x90, 60, 0, 0xB0, 1, 5, 1, 6])
        #expect(try MIDIMessage.decode(bytes) == messages)
        #expect(MIDIMessage.encode(messages).count == 3 * 6 + 1 + 2)

        // The fixed-buffer path gives the same bytes with no allocation per message.
        var out = [UInt8](repeating: 0, count: 64)
        var status: UInt8 = 0
        var written = 0
        out.withUnsafeMutableBytes { raw in
            for m in messages {
                written += m.encode(into: UnsafeMutableRawBufferPointer(rebasing: raw[written...]), runningStatus: &status)
            }
        }
        #expect(Array(out[0..<written]) == bytes)
    }

    @Test func encodeIntoReportsTooSmallBuffers() {
        var small = [UInt8](repeating: 0xAA, count: 2)
        let n = small.withUnsafeMutableBytes { MIDIMessage.noteOn(channel: 0, note: 1, velocity: 2).encode(into: $0) }
        #expect(n == 0)
        #expect(small == [0xAA, 0xAA])
    }

    @Test func strictDecodingNamesTheProblem() {
        #expect(throws: MIDIDecodingError.empty) { try MIDIMessage.decode([]) }
        #expect(throws: MIDIDecodingError.incompleteMessage(status: 0x90, expected: 2, found: 1)) {
            try MIDIMessage.decode([0x90, 60])
        }
        #expect(throws: MIDIDecodingError.incompleteMessage(status: 0x90, expected: 2, found: 0)) {
            try MIDIMessage.decode([0x90])
        }
        #expect(throws: MIDIDecodingError.stream(.strayDataByte(0x3C), offset: 0)) { try MIDIMessage.decode([0x3C, 0x40]) }
        #expect(throws: MIDIDecodingError.stream(.undefinedStatus(0xF5), offset: 0)) { try MIDIMessage.decode([0xF5]) }
        #expect(throws: MIDIDecodingError.unterminatedSystemExclusive) { try MIDIMessage.decode([0xF0, 1, 2]) }
        #expect(throws: MIDIDecodingError.trailingBytes(count: 1)) { try MIDIMessage(bytes: [0xF8, 0xF8]) }
    }

    @Test func conventionHelpersProduceTheDocumentedSequences() throws {
        let ch: MIDIChannel = 3
        #expect(MIDIMessage.allNotesOff(channel: ch).bytes == [0xB3, 123, 0])
        #expect(MIDIMessage.allSoundOff(channel: ch).bytes == [0xB3, 120, 0])
        let cc14 = try #require(MIDIMessage.controlChange14Bit(channel: ch, msbController: 7, value: 0x2A55))
        #expect(MIDIMessage.encode(cc14) == [0xB3, 7, 0x54, 0xB3, 39, 0x55])
        #expect(MIDIMessage.controlChange14Bit(channel: ch, msbController: 32, value: 0) == nil)

        // RPN 0 (pitch-bend sensitivity) ±48 semitones: 101=0, 100=0, 6=48, 38=0, then RPN null.
        let pbs = MIDIMessage.pitchBendSensitivity(channel: 1, semitones: 48)
        #expect(MIDIMessage.encode(pbs) == [0xB1, 101, 0, 0xB1, 100, 0, 0xB1, 6, 48, 0xB1, 38, 0,
                                           0xB1, 101, 127, 0xB1, 100, 127])
        // MPE Configuration Message: RPN 6 on the manager channel, MSB = member count.
        let mcm = try #require(MIDIMessage.mpeConfiguration(zone: .lower, memberChannelCount: 15))
        #expect(MIDIMessage.encode(mcm) == [0xB0, 101, 0, 0xB0, 100, 6, 0xB0, 6, 15, 0xB0, 101, 127, 0xB0, 100, 127])
        let upper = try #require(MIDIMessage.mpeConfiguration(zone: .upper, memberChannelCount: 3))
        #expect(upper.first?.channel == MIDIChannel(15))
        #expect(MIDIMessage.mpeConfiguration(zone: .lower, memberChannelCount: 16) == nil)
        #expect(MIDIMessage.MPEZone.lower.memberChannels(count: 15).map(\.number) == Array(2...16))
        #expect(MIDIMessage.MPEZone.upper.memberChannels(count: 2).map(\.number) == [15, 14])
        // NRPN 0x0123 = MSB 2, LSB 0x23.
        let nrpn = MIDIMessage.nonRegisteredParameter(channel: 0, parameter: 0x0123, valueMSB: 9, deselect: false)
        #expect(MIDIMessage.encode(nrpn, runningStatus: true) == [0xB0, 99, 2, 98, 0x23, 6, 9])
    }
}

import Ariel
import Foundation
import ProsperoTestSupport
import Testing

@Suite struct MIDIStreamParserTests {
    func parse(_ bytes: [UInt8], maxSysEx: Int = 128) -> ([MIDIMessage], MIDIStreamParser) {
        var parser = MIDIStreamParser(maximumSysExLength: maxSysEx)
        var out: [MIDIMessage] = []
        parser.parse(bytes) { out.append($0) }
        return (out, parser)
    }

    @Test func runningStatus() {
        let (m, p) = parse([0x90, 60, 100, 62, 101, 64, 0, 0xC1, 5, 6, 7])
        #expect(m == [
            .noteOn(channel: 0, note: 60, velocity: 100), .noteOn(channel: 0, note: 62, velocity: 101),
            .noteOn(channel: 0, note: 64, velocity: 0),
            .programChange(channel: 1, program: 5), .programChange(channel: 1, program: 6), .programChange(channel: 1, program: 7),
        ])
        #expect(p.statistics.errors == 0)
    }

    @Test func realTimeBytesInterleavedAnywhere() {
        let bytes: [UInt8] = [0xF8, 0x90, 0xF8, 60, 0xFA, 100, 0xFE, 62, 0xFC, 101, 0xF0, 0x7D, 0xF8, 0x01, 0xF7]
        let (m, p) = parse(bytes)
        #expect(m == [
            .timingClock, .timingClock, .start,
            .noteOn(channel: 0, note: 60, velocity: 100), .activeSensing, .stop,
            .noteOn(channel: 0, note: 62, velocity: 101),
            .timingClock, .systemExclusive(MIDISystemExclusive(payload: [0x7D, 0x01])!),
        ])
        #expect(p.statistics.errors == 0)
    }

    @Test func sysExAcrossChunkBoundariesIsDeliveredWhole() {
        let payload: [UInt8] = (0..<100).map { UInt8($0 % 128) }
        let stream: [UInt8] = [0xB0, 7, 100] + [0xF0] + payload + [0xF7] + [0x80, 60, 0]
        var parser = MIDIStreamParser(maximumSysExLength: 100)
        var out: [MIDIMessage] = []
        // Chunks of 7 bytes, as a USB or serial driver would hand them over.
        var i = 0
        while i < stream.count {
            parser.parse(stream[i..<min(stream.count, i + 7)]) { out.append($0) }
            i += 7
        }
        #expect(out == [.controlChange(channel: 0, controller: 7, value: 100),
                        .systemExclusive(MIDISystemExclusive(payload: payload)!),
                        .noteOff(channel: 0, note: 60, velocity: 0)])
    }

    @Test func sysExPayloadIsReadableWithoutCopying() {
        var parser = MIDIStreamParser(maximumSysExLength: 8)
        var sum = 0
        for b: UInt8 in [0xF0, 1, 2, 3, 0xF7] {
            if case .systemExclusive? = parser.push(b) { sum = parser.withSysExPayload { $0.reduce(0) { $0 + Int($1) } } }
        }
        #expect(sum == 6)
    }

    @Test func oversizedSysExIsDroppedAndCountedWithoutGrowing() {
        let (m, p) = parse([0xF0] + [UInt8](repeating: 1, count: 1000) + [0xF7, 0x90, 1, 2], maxSysEx: 16)
        #expect(m == [.noteOn(channel: 0, note: 1, velocity: 2)])
        #expect(p.statistics.sysExDroppedTooLong == 1)
        #expect(p.lastError == .sysExTooLong(maximum: 16))
    }

    @Test func junkIsSkippedAndCounted() {
        let bytes: [UInt8] = [
            0x3C, 0x40,           // stray data, no status yet
            0xF4, 0xF5, 0xF9, 0xFD, // undefined status bytes
            0x90, 60,             // cut off by the next status
            0xB0, 1, 2,
            0xF7,                 // EOX without SysEx
            0x05,                 // stray: F7 cancelled running status
            0xF0, 1, 2, 0x80,     // SysEx interrupted by a status byte
            60, 0,
            0xF2, 1, 2, 3,        // song position, then a stray data byte (system common cancels running status)
        ]
        let (m, p) = parse(bytes)
        #expect(m == [.controlChange(channel: 0, controller: 1, value: 2), .noteOff(channel: 0, note: 60, velocity: 0),
                      .songPositionPointer(MIDIUInt14(msb: 2, lsb: 1))])
        let s = p.statistics
        #expect(s.strayDataBytes == 4)
        #expect(s.undefinedStatusBytes == 4)
        #expect(s.incompleteMessages == 1)
        #expect(s.unexpectedEndOfExclusive == 1)
        #expect(s.sysExInterrupted == 1)
        #expect(s.errors == 11)
    }

    @Test func randomBytesNeverTrapAndEveryMessageIsValid() {
        var rng = SeededRandom(seed: 7)
        var parser = MIDIStreamParser(maximumSysExLength: 32)
        var count = 0
        for _ in 0..<200_000 {
            if case .message(let m)? = parser.push(UInt8(truncatingIfNeeded: rng.next())) {
                #expect(MIDIShortMessage(status: m.status, data1: m.data1, data2: m.data2) == m)
                count += 1
            }
        }
        #expect(count > 1000)
        #expect(parser.statistics.errors > 0)
    }
}

import Horatio

/// Deterministic MIDI byte data for the parsing benchmarks, written byte by byte from the SMF 1.0 and
/// MIDI 1.0 specifications (not through Ariel's writer, so the parser reads bytes it did not produce).
enum MIDITestData {
    /// A format-1 Standard MIDI File: a tempo track and `tracks` instrument tracks of `notesPerTrack`
    /// notes each, written with running status (note-off as note-on velocity 0), with controller
    /// sweeps, pitch bends, program changes, track names and markers between the notes.
    static func standardMIDIFile(tracks: Int = 16, notesPerTrack: Int = 40_000) -> [UInt8] {
        var random = SplitMix64(seed: 0x5EED)
        var file: [UInt8] = Array("MThd".utf8) + be32(6) + be16(1) + be16(UInt16(tracks + 1)) + be16(480)

        var tempo: [UInt8] = []
        tempo += [0x00, 0xFF, 0x03, 5] + Array("Tempo".utf8)
        for bar in 0..<200 {
            let microseconds = 400_000 + (bar % 9) * 25_000
            tempo += vlq(bar == 0 ? 0 : 1_920)
            tempo += [0xFF, 0x51, 0x03, UInt8(microseconds >> 16), UInt8((microseconds >> 8) & 0xFF), UInt8(microseconds & 0xFF)]
        }
        tempo += [0x00, 0xFF, 0x2F, 0x00]
        file += Array("MTrk".utf8) + be32(UInt32(tempo.count)) + tempo

        for t in 0..<tracks {
            let channel = UInt8(t % 16)
            var track: [UInt8] = []
            let name = Array("Track \(t + 1)".utf8)
            track += [0x00, 0xFF, 0x03, UInt8(name.count)] + name
            track += [0x00, 0xC0 | channel, UInt8(t * 5 % 128)]
            track += [0x00, 0xB0 | channel, 7, 100]
            var runningStatus: UInt8 = 0
            func event(_ delta: Int, _ status: UInt8, _ data: [UInt8]) {
                track += vlq(delta)
                if status != runningStatus || status >= 0xF0 { track.append(status) }
                runningStatus = status >= 0xF0 ? runningStatus : status
                track += data
            }
            for n in 0..<notesPerTrack {
                let note = UInt8(36 + Int(random.next() % 48))
                let velocity = UInt8(40 + Int(random.next() % 80))
                event(Int(random.next() % 240), 0x90 | channel, [note, velocity])
                // A chord tone under running status.
                event(0, 0x90 | channel, [note + 4, velocity])
                if n % 8 == 0 {
                    for step in 0..<6 { event(10, 0xB0 | channel, [74, UInt8(step * 20)]) }
                }
                if n % 16 == 0 {
                    let bend = Int(random.next() % 16_384)
                    event(5, 0xE0 | channel, [UInt8(bend & 0x7F), UInt8(bend >> 7)])
                }
                if n % 500 == 0 {
                    let text = Array("Section \(n / 500)".utf8)
                    track += vlq(0) + [0xFF, 0x06, UInt8(text.count)] + text   // meta keeps running status
                }
                event(120 + Int(random.next() % 240), 0x90 | channel, [note, 0])
                event(0, 0x90 | channel, [note + 4, 0])
            }
            track += [0x00, 0xFF, 0x2F, 0x00]
            file += Array("MTrk".utf8) + be32(UInt32(track.count)) + track
        }
        return file
    }

    /// A live MIDI byte stream as a keyboard with a clock source sends it: notes, controllers, pitch
    /// bend and aftertouch with running status, timing clocks (F8) interleaved even inside messages,
    /// active sensing, and a short SysEx now and then.
    static func liveStream(byteCount: Int = 4 << 20) -> [UInt8] {
        var random = SplitMix64(seed: 0xC10C)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount + 64)
        var runningStatus: UInt8 = 0
        var n = 0
        while bytes.count < byteCount {
            n += 1
            let channel = UInt8(n / 50 % 4)
            let status: UInt8
            var data: [UInt8]
            switch random.next() % 10 {
            case 0...4: status = 0x90 | channel; data = [UInt8(random.next() % 128), UInt8(random.next() % 128)]
            case 5, 6: status = 0xB0 | channel; data = [UInt8(random.next() % 120), UInt8(random.next() % 128)]
            case 7: status = 0xE0 | channel; data = [UInt8(random.next() % 128), UInt8(random.next() % 128)]
            case 8: status = 0xD0 | channel; data = [UInt8(random.next() % 128)]
            default: status = 0x80 | channel; data = [UInt8(random.next() % 128), 64]
            }
            if status != runningStatus { bytes.append(status); runningStatus = status }
            for (i, byte) in data.enumerated() {
                if i == 1 && n % 7 == 0 { bytes.append(0xF8) }   // clock between data bytes
                bytes.append(byte)
            }
            if n % 3 == 0 { bytes.append(0xF8) }
            if n % 300 == 0 { bytes.append(0xFE) }
            if n % 1_000 == 0 {
                bytes += [0xF0, 0x7E, 0x7F, 0x06, 0x01]
                for _ in 0..<16 { bytes.append(UInt8(random.next() % 128)) }
                bytes.append(0xF7)
                runningStatus = 0   // SysEx cancels running status
            }
        }
        return bytes
    }

    static func vlq(_ value: Int) -> [UInt8] {
        var v = value
        var out = [UInt8(v & 0x7F)]
        v >>= 7
        while v > 0 {
            out.insert(UInt8(v & 0x7F) | 0x80, at: 0)
            v >>= 7
        }
        return out
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
}

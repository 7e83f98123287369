import Ariel
import Foundation
import ProsperoTestSupport
import Testing

/// mido (Python) as an independent peer: it writes files we must read, and reads files we write.
/// Skips through the peer gate when python3 or mido is missing, fails instead under PROSPERO_REQUIRE_PEERS=1.
@Suite(.ownThread) struct MIDIFileMidoTests {
    static var midoAvailable: Bool { TestPeers.python(module: "mido") }

    /// Writes a file with mido (mode `write PATH`) or dumps one (mode `read PATH`), printing
    /// {"type", "ticks_per_beat", "tracks": [[{"t": delta, "b": bytes}]]}. Meta events are their full
    /// FF type length data bytes; SysEx is F0 data F7 (mido folds F7 escape events into SysEx too).
    static let script = #"""
    import json, sys, mido
    from mido import Message, MetaMessage, MidiFile, MidiTrack
    from mido.midifiles.meta import UnknownMetaMessage

    def canon(mid, tracks=None):
        out = []
        for tr in (tracks if tracks is not None else mid.tracks):
            evs = []
            for m in tr:
                if m.is_meta:
                    b = list(m.bytes())
                elif m.type == 'sysex':
                    b = [0xF0] + list(m.data) + [0xF7]
                else:
                    b = list(m.bytes())
                evs.append({"t": m.time, "b": b})
            out.append(evs)
        return {"type": mid.type, "ticks_per_beat": mid.ticks_per_beat, "tracks": out}

    mode, path = sys.argv[1], sys.argv[2]
    if mode == 'write':
        mid = MidiFile(type=1, ticks_per_beat=384)
        t0 = MidiTrack(); mid.tracks.append(t0)
        t0.append(MetaMessage('track_name', name='Conductor'))
        t0.append(MetaMessage('set_tempo', tempo=500000))
        t0.append(MetaMessage('time_signature', numerator=7, denominator=8, clocks_per_click=36, notated_32nd_notes_per_beat=8))
        t0.append(MetaMessage('key_signature', key='Ebm'))
        t0.append(MetaMessage('smpte_offset', frame_rate=25, hours=1, minutes=2, seconds=3, frames=4, sub_frames=5))
        t0.append(MetaMessage('set_tempo', tempo=400000, time=768))
        t0.append(MetaMessage('marker', text='Chorus'))
        t0.append(MetaMessage('set_tempo', tempo=750000, time=200000))
        t0.append(MetaMessage('end_of_track', time=5))
        t1 = MidiTrack(); mid.tracks.append(t1)
        t1.append(MetaMessage('track_name', name='Keys'))
        t1.append(MetaMessage('copyright', text='(c) Prospero'))
        t1.append(Message('program_change', channel=2, program=4))
        for i, n in enumerate([60, 64, 67, 72]):
            t1.append(Message('note_on', channel=2, note=n, velocity=80 + i, time=0 if i == 0 else 24))
        t1.append(Message('sysex', data=[0x7E, 0x7F, 0x09, 0x01], time=10))
        for i, n in enumerate([60, 64, 67, 72]):
            t1.append(Message('note_on', channel=2, note=n, velocity=0, time=96 if i == 0 else 0))
        t1.append(Message('control_change', channel=2, control=74, value=99, time=1))
        t1.append(Message('control_change', channel=2, control=74, value=100, time=1))
        t1.append(Message('pitchwheel', channel=2, pitch=-8192, time=3))
        t1.append(Message('pitchwheel', channel=2, pitch=8191, time=3))
        t1.append(Message('aftertouch', channel=2, value=33, time=130))
        t1.append(Message('polytouch', channel=2, note=60, value=44, time=0))
        t1.append(MetaMessage('text', text='Lyric-ish text'))
        t1.append(MetaMessage('sequencer_specific', data=[0x00, 0x00, 0x41, 1]))
        t1.append(UnknownMetaMessage(type_byte=0x60, data=[1, 2, 3]))
        t1.append(Message('note_off', channel=2, note=60, velocity=64, time=16383))
        t1.append(MetaMessage('end_of_track'))
        t2 = MidiTrack(); mid.tracks.append(t2)
        for k in range(16):
            t2.append(Message('note_on', channel=9, note=36 + (k % 3), velocity=127, time=0 if k == 0 else 48))
            t2.append(Message('note_off', channel=9, note=36 + (k % 3), velocity=0, time=12))
        t2.append(MetaMessage('end_of_track'))
        mid.save(path)
        print(json.dumps(canon(mid)))
    else:
        print(json.dumps(canon(MidiFile(path))))
    """#

    struct Dump: Decodable, Equatable {
        struct Event: Decodable, Equatable { var t: Int; var b: [Int] }
        var type: Int
        var ticks_per_beat: Int
        var tracks: [[Event]]
    }

    static func python(_ args: [String]) throws -> (status: Int32, stdout: Data, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3"] + args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, data, String(decoding: errData, as: UTF8.self))
    }

    static func runMido(_ mode: String, _ path: String) throws -> Dump {
        let r = try python(["-c", script, mode, path])
        guard r.status == 0 else {
            Issue.record("mido \(mode) failed: \(r.stderr)")
            throw CancellationError()
        }
        return try JSONDecoder().decode(Dump.self, from: r.stdout)
    }

    /// Our file in the same canonical form as the script's (mido's view of events).
    static func canon(_ file: MIDIFile) -> Dump {
        func vlq(_ v: Int) -> [Int] {
            var groups = [v & 0x7F], x = v >> 7
            while x > 0 { groups.insert(x & 0x7F | 0x80, at: 0); x >>= 7 }
            return groups
        }
        let tracks = file.tracks.map { track in
            track.events.map { e -> Dump.Event in
                let bytes: [Int]
                switch e.kind {
                case .message(let m): bytes = m.bytes.map(Int.init)
                case .meta(let m): bytes = [0xFF, Int(m.type)] + vlq(m.data.count) + m.data.map(Int.init)
                case .sysEx(let d), .escape(let d):
                    var body = d
                    if body.first == 0xF0 { body.removeFirst() }
                    if body.last == 0xF7 { body.removeLast() }
                    bytes = [0xF0] + body.map(Int.init) + [0xF7]
                }
                return Dump.Event(t: e.delta, b: bytes)
            }
        }
        guard case .ticksPerQuarterNote(let ppqn) = file.division else { return Dump(type: -1, ticks_per_beat: 0, tracks: []) }
        return Dump(type: file.format.rawValue, ticks_per_beat: ppqn, tracks: tracks)
    }

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("prospero-\(name)-\(UUID().uuidString).mid").path
    }

    static func requireMido() throws {
        try TestPeers.require(midoAvailable, "python3 with mido (pip install mido; scripts/deps/ariel.pip)")
    }

    @Test(.enabled(if: TestPeers.enabled(midoAvailable), "python3 with mido not installed (scripts/deps/ariel.pip)"))
    func readsWhatMidoWrites() throws {
        try Self.requireMido()
        let path = Self.temporaryPath("from-mido")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = try Self.runMido("write", path)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let file = try MIDIFile(decoding: bytes)
        #expect(Self.canon(file) == expected)

        // The file really uses running status (mido writes it), so that path was exercised.
        #expect(try file.encoded(runningStatus: false).count > bytes.count)
        // Typed views of what mido wrote.
        #expect(file.tracks[0].name == "Conductor")
        #expect(file.tracks[1].name == "Keys")
        let metas = file.tracks[0].events.compactMap { if case .meta(let m) = $0.kind { return m } else { return nil } }
        #expect(metas.contains { $0.keySignature.map { $0 == (-6, true) } ?? false })
        #expect(metas.contains { $0.timeSignature.map { $0 == (7, 8, 36, 8) } ?? false })
        #expect(metas.contains { $0.smpteOffset != nil })
        // Tempo map: 768 ticks at 120 BPM (2 beats = 1 s), then 200 000 ticks at 150 BPM.
        let map = file.tempoMap
        #expect(abs(map.seconds(atTick: 768) - 1.0) < 1e-12)
        #expect(abs(map.seconds(atTick: 768 + 200_000) - (1.0 + 200_000.0 / 384 * 0.4)) < 1e-9)
    }

    @Test(.enabled(if: TestPeers.enabled(midoAvailable), "python3 with mido not installed (scripts/deps/ariel.pip)"),
          arguments: [true, false])
    func midoReadsWhatWeWrite(runningStatus: Bool) throws {
        try Self.requireMido()
        let sysex = MIDISystemExclusive(payload: [0x43, 0x10, 0x4C, 0x00, 0x00, 0x7E, 0x00])!
        let conductor = MIDIFileTrack(events: [
            .meta(.trackName("Tempo map")),
            .meta(.tempo(bpm: 90)),
            .meta(.timeSignature(numerator: 5, denominator: 4)),
            .meta(.keySignature(sharps: 2, minor: false)),
            .meta(.tempo(microsecondsPerQuarterNote: 333_333), delta: 1920),
            .meta(MIDIMetaEvent(type: 0x7F, data: [0x00, 0x20, 0x29])),
            .meta(MIDIMetaEvent(type: 0x4B, data: [9, 8, 7])),  // undefined type: preserved as is
            .meta(.endOfTrack, delta: 0x20_0000),
        ])
        var keys: [MIDIFileEvent] = [.meta(.trackName("Lead")), .message(.programChange(channel: 5, program: 81))]
        for (i, n) in [48, 55, 60, 63, 67].enumerated() {
            keys.append(.message(.noteOn(channel: 5, note: MIDIUInt7(n)!, velocity: MIDIUInt7(60 + i)!), delta: i == 0 ? 0 : 5))
        }
        keys.append(.message(.systemExclusive(sysex), delta: 7))
        keys.append(MIDIFileEvent(delta: 1, .sysEx([0x7D, 0x01, 0xF7])))
        for n in [48, 55, 60, 63, 67] { keys.append(.message(.noteOff(channel: 5, note: MIDIUInt7(n)!, velocity: 40), delta: 120)) }
        keys.append(.message(.pitchBend(channel: 5, value: MIDIUInt14(bipolar: -0.25)), delta: 3))
        keys.append(.message(.controlChange(channel: 5, controller: 1, value: 12)))
        keys.append(.message(.controlChange(channel: 5, controller: 1, value: 13), delta: 0x3FFF))
        keys.append(.message(.polyPressure(channel: 5, note: 60, pressure: 5), delta: 0x4000))
        keys.append(.message(.channelPressure(channel: 5, pressure: 6)))
        keys.append(.meta(.text("Ferdinand & Miranda")))
        keys.append(.meta(.endOfTrack))
        let file = MIDIFile(format: .multiTrack, division: .ticksPerQuarterNote(960),
                            tracks: [conductor, MIDIFileTrack(events: keys)])
        let path = Self.temporaryPath("to-mido")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(file.encoded(runningStatus: runningStatus)).write(to: URL(fileURLWithPath: path))
        let dump = try Self.runMido("read", path)
        #expect(dump == Self.canon(file))
    }

    @Test(.enabled(if: TestPeers.enabled(midoAvailable), "python3 with mido not installed (scripts/deps/ariel.pip)"))
    func midoFileRoundTripsThroughOurWriter() throws {
        try Self.requireMido()
        let source = Self.temporaryPath("mido-src")
        let copy = Self.temporaryPath("mido-copy")
        defer { try? FileManager.default.removeItem(atPath: source); try? FileManager.default.removeItem(atPath: copy) }
        let expected = try Self.runMido("write", source)
        let file = try MIDIFile(decoding: [UInt8](Data(contentsOf: URL(fileURLWithPath: source))))
        try Data(file.encoded()).write(to: URL(fileURLWithPath: copy))
        #expect(try Self.runMido("read", copy) == expected)
    }
}

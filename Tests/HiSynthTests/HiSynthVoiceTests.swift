import Foundation
import HiSynth
import Testing

/// Voice allocation per layer: eight voices, oldest-note stealing, voices busy until release + 0.2 s
/// after note-off, re-strikes; measured from the audio and the engine's snapshot.
@Suite struct HiSynthVoiceTests {
    static let fs = HiSynthRig.sampleRate
    static let notes: [UInt8] = [48, 52, 55, 59, 62, 65, 69, 72, 76]

    @Test func theNinthNoteStealsTheOldestInEachLayer() {
        var s = HiSynthRig.plain(level: 0.05)
        s.layer2 = .init(waveform: .sine, level: 0.05, pitch: 12)
        var commands: [(Double, HiSynthEngine.Command)] = []
        for (i, n) in Self.notes.enumerated() { commands.append((0.05 * Double(i), .noteOn(n))) }
        let out = HiSynthRig.render(s, seconds: 1.2, commands)
        let after = Int(0.6 * Self.fs)..<Int(1.2 * Self.fs)
        // The first note is gone from both layers (its fundamental and its octave); the eight others sound.
        #expect(HiSynthRig.tone(out.left, HiSynthRig.hz(48), after) < 1e-4)
        for n in Self.notes.dropFirst() {
            #expect(abs(HiSynthRig.tone(out.left, HiSynthRig.hz(Double(n)), after) - 0.025) < 0.002, "note \(n)")
            #expect(abs(HiSynthRig.tone(out.left, HiSynthRig.hz(Double(n) + 12), after) - 0.025) < 0.002, "note \(n) + 12")
        }
        let snap = out.engine.snapshot()
        #expect(snap.stolenVoiceCount == 2)          // one steal in each layer
        #expect(snap.busyVoiceCount == 16 && snap.soundingVoiceCount == 16)
        // Held notes are keys down: the stolen note's key is still down, though its voices went to another note.
        #expect(snap.isHeld(48) && snap.isHeld(76))
    }

    @Test(arguments: [(0.65, true), (0.75, false)])
    func aReleasedVoiceStaysBusyForReleasePlusTwoHundredMilliseconds(_ ninthAt: Double, _ steals: Bool) {
        // Eight notes held; the first released at 0.1 s with R = 0.5: its voice is busy until 0.8 s.
        var s = HiSynthRig.plain(level: 0.05)
        s.envelope = .init(attack: 0, decay: 0.5, sustain: 1, release: 0.5)
        var commands: [(Double, HiSynthEngine.Command)] = Self.notes.prefix(8).map { (0, .noteOn($0)) }
        commands.append((0.1, .noteOff(48)))
        commands.append((0.1 + ninthAt, .noteOn(76)))
        let out = HiSynthRig.render(s, seconds: 0.1 + ninthAt + 0.4, commands)
        let snap = out.engine.snapshot()
        // Before 0.8 s the ninth note must take the oldest note's voice: the first (released) one.
        #expect(snap.stolenVoiceCount == (steals ? 2 : 0))
        let tail = Int((0.1 + ninthAt + 0.1) * Self.fs)..<out.left.count
        #expect(abs(HiSynthRig.tone(out.left, HiSynthRig.hz(52), tail) - 0.025) < 0.002)   // the second note is untouched
        #expect(abs(HiSynthRig.tone(out.left, HiSynthRig.hz(76), tail) - 0.025) < 0.002)
    }

    @Test func whenAllVoicesAreHeldTheOldestHeldNoteIsStolen() {
        var s = HiSynthRig.plain(level: 0.05)
        s.envelope = .init(attack: 0, decay: 0.5, sustain: 1, release: 2)
        // Eight notes; the third is released (busy for 2.2 s), then a ninth: the oldest by note-on is the first.
        var commands: [(Double, HiSynthEngine.Command)] = Self.notes.prefix(8).enumerated().map { (0.01 * Double($0.offset), .noteOn($0.element)) }
        commands.append((0.2, .noteOff(55)))
        commands.append((0.4, .noteOn(76)))
        let out = HiSynthRig.render(s, seconds: 1.0, commands)
        let tail = Int(0.5 * Self.fs)..<out.left.count
        #expect(HiSynthRig.tone(out.left, HiSynthRig.hz(48), tail) < 1e-4)
        #expect(HiSynthRig.tone(out.left, HiSynthRig.hz(55), tail) > 0.01)   // still releasing
    }

    @Test func restrikingAReleasingNoteMutesItAndTakesAnotherVoice() {
        // R = 2 s: the first strike is still releasing at 0.3 s when the note comes again. The old voice is
        // muted within 1 ms, so the note is heard once (amplitude 0.025), not twice.
        var s = HiSynthRig.plain(level: 0.05)
        s.envelope = .init(attack: 0, decay: 0.5, sustain: 1, release: 2)
        let out = HiSynthRig.render(s, seconds: 0.8, [(0, .noteOn(69)), (0.2, .noteOff(69)), (0.3, .noteOn(69))])
        let tail = Int(0.35 * Self.fs)..<Int(0.8 * Self.fs)
        #expect(abs(HiSynthRig.tone(out.left, 440, tail) - 0.025) < 0.001)
        let snap = out.engine.snapshot()
        #expect(snap.stolenVoiceCount == 0)
        // One voice per layer sounds (the muted one has finished).
        #expect(snap.soundingVoiceCount == 2)
    }

    @Test func velocityIsIgnored() {
        let s = HiSynthRig.plain(level: 0.2)
        let soft = HiSynthRig.render(s, seconds: 0.5, [(0, .noteOn(69))])
        // The same note through MIDI at velocity 1 reads the same level.
        let engine = HiSynthEngine(settings: s)
        engine.prepare(.init(sampleRate: HiSynthRig.sampleRate, maximumBlockSize: 256, channelCount: 2))
        engine.handle(midi: .init(status: 0x90, data1: 69, data2: 1)!)
        var l = [Float](repeating: 0, count: 22_050), r = l
        l.withUnsafeMutableBufferPointer { lb in
            r.withUnsafeMutableBufferPointer { rb in
                var i = 0
                while i < 22_050 {
                    let e = min(22_050, i + 256)
                    engine.render(left: .init(rebasing: lb[i..<e]), right: .init(rebasing: rb[i..<e]))
                    i = e
                }
            }
        }
        let range = 4_410..<22_050
        #expect(abs(HiSynthRig.tone(l, 440, range) - HiSynthRig.tone(soft.left, 440, range)) < 1e-6)
    }
}

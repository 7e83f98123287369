import AllocationCounting
import Ariel
import Foundation
import ProsperoTestSupport
import Testing
import Touchstone

/// PolySynth under stress: stealing, random event sequences, random parameter sweeps, allocation.
@Suite("PolySynth robustness")
struct PolySynthRobustnessTests {
    @Test("17 notes on 16 voices: the steal is faded, no step exceeds the signal's own maximum slope")
    func stealingIsClickFree() {
        var s = cleanSettings(.sine)
        s.velocitySensitivity = 1
        var rig = PolySynthRig(capacity: 16, settings: s)
        let notes: [UInt8] = (0..<17).map { 48 + UInt8($0) * 2 }
        let amplitude = PolySynth.voiceLevel * pow(40 / 127, 2)
        for note in notes {
            rig.noteOn(note, 40)
            rig.render(seconds: 0.01)
        }
        rig.render(seconds: 0.2)
        // A sum of sines Σ aₖ sin(2π fₖ t) never moves faster per sample than Σ aₖ·2π fₖ/fs.
        let bound = notes.reduce(Float(0)) { sum, note in
            sum + amplitude * Float(2 * Double.pi * 440 * pow(2, (Double(note) - 69) / 12) / 48_000)
        }
        let step = Measure.maximumStep(rig.left[...])
        print("steal: largest step \(step), slope bound \(bound), a hard cut of one voice would step up to \(amplitude)")
        #expect(step <= bound)
        #expect(amplitude > bound, "the test must be able to see a cut voice")
        let snapshot = rig.synth.snapshot()
        #expect(snapshot.stolenVoiceCount == 1)
        #expect(snapshot.activeVoiceCount == 16)
        #expect(!snapshot.isHeld(48))
        #expect(snapshot.isHeld(80))
        #expect(snapshot.heldNoteCount == 16)
    }

    @Test("Effect bypass and mono/stereo switches are cross-faded (no step above the sine's slope)")
    func bypassIsClickFree() {
        var s = cleanSettings(.sine)
        s.tone.cutoff = 300
        var rig = PolySynthRig(settings: s)
        rig.noteOn(81, 127)                 // 880 Hz at the voice level
        rig.render(seconds: 0.1)
        let start = rig.frame
        rig.synth.handle(.setEffectEnabled(.tone, true))
        rig.render(seconds: 0.05)
        rig.synth.handle(.setEffectEnabled(.tone, false))
        rig.render(seconds: 0.05)
        rig.synth.handle(.setStereo(true))
        rig.render(seconds: 0.05)
        rig.synth.handle(.set(.outputGain, -20))
        rig.render(seconds: 0.05)
        let slope = PolySynth.voiceLevel * Float(2 * Double.pi * 880 / 48_000)
        #expect(Measure.maximumStep(rig.left[start...]) <= slope * 1.01)
        #expect(Measure.maximumStep(rig.right[start...]) <= slope * 1.01)
    }

    @Test("No stuck notes: 300 random event sequences, then every key and pedal up → silence, 0 voices")
    func noStuckNotes() {
        var rng = SeededRandom(seed: 0x5EED)
        for sequence in 0..<300 {
            var s = cleanSettings(.saw)
            s.attack = 0.001
            s.decay = 0.02
            s.sustain = 0.6
            s.release = 0.02
            s.polyphony = Int.random(in: 1...16, using: &rng)
            s.portamento = Bool.random(using: &rng) ? 0.3 : 0
            var rig = PolySynthRig(capacity: 16, settings: s, sampleRate: 16_000, blockSize: 64)
            for _ in 0..<Int.random(in: 10...60, using: &rng) {
                let channel = UInt8.random(in: 0...1, using: &rng)
                let note = UInt8.random(in: 60...67, using: &rng)      // few notes: many duplicates
                switch Int.random(in: 0..<100, using: &rng) {
                case 0..<40: rig.noteOn(note, UInt8.random(in: 0...127, using: &rng), channel: channel)
                case 40..<70: rig.noteOff(note, channel: channel)
                case 70..<80: rig.cc(64, Bool.random(using: &rng) ? 127 : 0, channel: channel)
                case 80..<84: rig.cc(123, 0, channel: channel)
                case 84..<86: rig.cc(120, 0, channel: channel)
                case 86..<92: rig.midi(0xE0 | channel, UInt8.random(in: 0...127, using: &rng), UInt8.random(in: 0...127, using: &rng))
                case 92..<96: rig.synth.handle(.setPolyphony(Int.random(in: 1...16, using: &rng)))
                default: rig.synth.handle(.noteOn(note: note, velocity: 100, channel: channel))
                }
                if Bool.random(using: &rng) { rig.render(frames: Int.random(in: 1...300, using: &rng)) }
            }
            for channel: UInt8 in 0...1 {
                rig.cc(64, 0, channel: channel)
                for note: UInt8 in 60...67 { rig.noteOff(note, channel: channel) }
            }
            rig.render(seconds: 0.06)
            let start = rig.frame
            rig.render(seconds: 0.02)
            let snapshot = rig.synth.snapshot()
            #expect(snapshot.activeVoiceCount == 0, "sequence \(sequence)")
            #expect(snapshot.heldNoteCount == 0, "sequence \(sequence)")
            #expect(Measure.peak(rig.left[start...]) == 0, "sequence \(sequence)")
            if snapshot.activeVoiceCount != 0 { break }
        }
    }

    @Test("Random settings and parameter sweeps: output finite and within the limiter ceiling", arguments: 0..<12)
    func outputBounded(seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) &* 7919 &+ 1)
        var s = PolySynthSettings()
        s.waveform = PolySynthSettings.Waveform.allCases.randomElement(using: &rng)!
        s.ceiling = Double.random(in: -24...0, using: &rng)
        s.outputGain = Double.random(in: 0...12, using: &rng)
        s.tone.enabled = true
        s.fuzz.enabled = true
        s.fuzz.drive = Double.random(in: 0...48, using: &rng)
        s.delay.enabled = true
        s.delay.feedback = 0.95
        s.reverb.enabled = true
        s.reverb.mix = 1
        s.stereo = Bool.random(using: &rng)
        var rig = PolySynthRig(capacity: 32, settings: s, blockSize: 128)
        let limit = Float(pow(10, s.ceiling / 20)) * (1 + 1e-6)
        let parameters = PolySynth.Parameter.allCases.filter { $0 != .ceiling }
        for block in 0..<400 {
            if block % 3 == 0 { rig.noteOn(UInt8.random(in: 24...108, using: &rng), 127, channel: UInt8.random(in: 0...15, using: &rng)) }
            if block % 5 == 0 { rig.noteOff(UInt8.random(in: 24...108, using: &rng)) }
            let p = parameters.randomElement(using: &rng)!
            let wild: [Double] = [.nan, .infinity, -1e9, 1e9, Double.random(in: -100...100, using: &rng)]
            rig.synth.handle(.set(p, wild.randomElement(using: &rng)!))
            rig.cc(1, UInt8.random(in: 0...127, using: &rng))
            rig.midi(0xE0, UInt8.random(in: 0...127, using: &rng), UInt8.random(in: 0...127, using: &rng))
            rig.render(frames: 128)
        }
        let bad = zip(rig.left, rig.right).first { !$0.isFinite || !$1.isFinite || abs($0) > limit || abs($1) > limit }
        #expect(bad == nil, "seed \(seed): \(String(describing: bad)) vs ceiling \(limit)")
        #expect(Measure.peak(rig.left[...]) > 0.01)
    }

    @Test("Settings validation names the field; Codable round trip")
    func settingsValidation() throws {
        var s = PolySynthSettings()
        s.reverb.decay = 50
        #expect(throws: PolySynthSettingsError(field: "reverb.decay", value: 50, range: 0.1...30)) { try s.validate() }
        s = PolySynthSettings()
        s.polyphony = 20
        #expect(throws: PolySynthSettingsError.self) { try s.validate(capacity: 16) }
        s.attack = .nan
        do {
            try s.validate()
            Issue.record("NaN attack accepted")
        } catch {
            #expect(error.field == "attack")
            #expect(error.description.contains("attack must be 0…20"))
        }
        var t = PolySynthSettings()
        t.waveform = .triangle
        t.delay.enabled = true
        let data = try JSONEncoder().encode(t)
        #expect(try JSONDecoder().decode(PolySynthSettings.self, from: data) == t)
    }

    @Test("MIDI: sustain pedal holds released notes, All Notes Off releases them, All Sound Off silences")
    func pedalAndPanic() {
        var rig = PolySynthRig(settings: cleanSettings(.saw))
        rig.cc(64, 127)
        rig.noteOn(60)
        rig.noteOn(64)
        rig.render(seconds: 0.05)
        rig.noteOff(60)
        rig.noteOff(64)
        rig.render(seconds: 0.1)
        #expect(rig.synth.snapshot().heldNoteCount == 2)
        rig.noteOn(60)                        // re-struck under the pedal: still one voice
        rig.noteOff(60)
        rig.render(seconds: 0.01)
        #expect(rig.synth.snapshot().activeVoiceCount == 2)
        rig.cc(123, 0)
        rig.render(seconds: 0.1)
        #expect(rig.synth.snapshot().activeVoiceCount == 0)
        rig.noteOn(67)
        rig.render(seconds: 0.05)
        rig.cc(120, 0)
        rig.render(seconds: 0.02)
        let snapshot = rig.synth.snapshot()
        #expect(snapshot.activeVoiceCount == 0)
        #expect(Measure.peak(rig.left[(rig.frame - 240)...]) == 0)
    }

    @Test("OfflineRenderer through EngineHost is deterministic: the song renders to identical bytes twice")
    func deterministicSong() throws {
        let url = try #require(Bundle.module.url(forResource: "song", withExtension: "mid", subdirectory: "Fixtures"))
        let bytes = Array(try Data(contentsOf: url))
        var s = PolySynthSettings()
        s.reverb.enabled = true
        s.delay.enabled = true
        s.fuzz.enabled = true
        let options = OfflineRenderOptions(sampleRate: 48_000, blockSize: 256, format: .pcm24, tailSeconds: 2)
        // Its speed is prospero-bench's figure, not this test's.
        let first = try PolySynthSongRender.render(midiFile: bytes, settings: s, options: options)
        let second = try PolySynthSongRender.render(midiFile: bytes, settings: s, options: options)
        #expect(first.wav == second.wav)
        #expect(first.summary == second.summary)
        print("song: \(first.summary)")
        #expect(first.summary.notes == 64)
        #expect(first.summary.tracks == 4)
        #expect(first.summary.peakDecibels <= -1 + 1e-4)
        #expect(first.summary.peakDecibels > -30)
        // The WAV decodes to the same length the summary reports.
        let decoded = try WAVAudio(decoding: first.wav)
        #expect(abs(Double(decoded.frameCount) / 48_000 - first.summary.duration) < 1e-9)
    }

    @Test("A malformed MIDI file gives the MIDIFileError, never a crash")
    func malformedSong() throws {
        let url = try #require(Bundle.module.url(forResource: "song", withExtension: "mid", subdirectory: "Fixtures"))
        let bytes = Array(try Data(contentsOf: url))
        for cut in [0, 4, 13, 30, bytes.count / 2] {
            #expect(throws: MIDIFileError.self) {
                _ = try PolySynthSongRender.render(midiFile: Array(bytes.prefix(cut)), settings: PolySynthSettings())
            }
        }
    }
}

@Suite("PolySynth allocation", .enabled(if: !AllocationCounter.isDisabledBySanitizer))
struct PolySynthAllocationTests {
    @Test("A busy block with every effect on, notes, controllers and commands allocates nothing")
    func renderAllocatesNothing() throws {
        try #require(AllocationCounter.isAvailable)
        var s = PolySynthSettings()
        s.tone.enabled = true
        s.fuzz.enabled = true
        s.delay.enabled = true
        s.reverb.enabled = true
        s.lfoDepth = 0.5
        s.portamento = 0.3
        let synth = PolySynth(capacity: 16, settings: s)
        let host = EngineHost(engine: synth, spec: ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256, channelCount: 2))
        var left = [Float](repeating: 0, count: 256)
        var right = [Float](repeating: 0, count: 256)
        let midi = (0..<20).map { i in
            TimedMIDIMessage(frameOffset: i * 12, message: MIDIShortMessage(status: 0x90, data1: UInt8(40 + i), data2: 100)!)
        }
        var changed = s
        changed.reverb.mix = 0.5
        changed.waveform = .square
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                midi.withUnsafeBufferPointer { m in
                    host.process(left: l, right: r, midi: m)          // warm-up
                    host.send(.set(.delayTime, 0.2))
                    host.send(.apply(changed))
                    host.send(.setEffectEnabled(.fuzz, false))
                    let count = AllocationCounter.allocations {
                        host.process(left: l, right: r, midi: m)
                        synth.handle(midi: MIDIShortMessage(status: 0xB0, data1: 64, data2: 127)!)
                        synth.handle(midi: MIDIShortMessage(status: 0xE0, data1: 0, data2: 80)!)
                        synth.handle(.noteOff(note: 45, channel: 0))
                        synth.handle(.setLFOMode(.tremolo))
                        synth.render(left: l, right: r)
                        synth.handle(midi: MIDIShortMessage(status: 0xB0, data1: 123, data2: 0)!)
                        synth.handle(.panic)
                        synth.render(left: l, right: r)
                        _ = synth.snapshot()
                    }
                    #expect(count == 0)
                    if count != 0 {
                        let l = l, r = r
                        let steps: [(String, () -> Void)] = [
                            ("process", { host.process(left: l, right: r, midi: m) }),
                            ("cc64", { synth.handle(midi: MIDIShortMessage(status: 0xB0, data1: 64, data2: 127)!) }),
                            ("bend", { synth.handle(midi: MIDIShortMessage(status: 0xE0, data1: 0, data2: 80)!) }),
                            ("off", { synth.handle(.noteOff(note: 45, channel: 0)) }),
                            ("mode", { synth.handle(.setLFOMode(.tremolo)) }),
                            ("render", { synth.render(left: l, right: r) }),
                            ("apply", { synth.handle(.apply(changed)) }),
                            ("set", { synth.handle(.set(.delayTime, 0.3)) }),
                            ("cc123", { synth.handle(midi: MIDIShortMessage(status: 0xB0, data1: 123, data2: 0)!) }),
                            ("cc120", { synth.handle(midi: MIDIShortMessage(status: 0xB0, data1: 120, data2: 0)!) }),
                            ("cc121", { synth.handle(midi: MIDIShortMessage(status: 0xB0, data1: 121, data2: 0)!) }),
                            ("panic", { synth.handle(.panic) }),
                            ("snapshot", { _ = synth.snapshot() }),
                        ]
                        for (name, body) in steps { print("allocations in \(name): \(AllocationCounter.allocations(during: body))") }
                    }
                }
            }
        }
    }
}

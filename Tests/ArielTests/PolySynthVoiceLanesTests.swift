import AllocationCounting
import Ariel
import ProsperoTestSupport
import Testing
import Touchstone

/// The SIMD-lane voice renderer against the scalar one (the reference): two synths, the same settings
/// and the same MIDI at the same frames, one rendering `.lanes` and one `.scalar`. Through note-ons,
/// steals (more notes than voices), glides, retriggers, the sustain pedal, releases, pitch bend,
/// vibrato and a waveform change while older notes ring (lanes of mixed waveforms), the outputs agree
/// within 2e-5.
struct PolySynthVoiceLanesTests {
    /// Renders `blocks` blocks of both synths with `events(block, rig)` sent to each before the block;
    /// returns the largest |lanes − scalar| over both channels and the number of steals.
    static func largestDifference(
        capacity: Int, settings: PolySynthSettings, blocks: Int, blockSize: Int = 256,
        events: (Int, PolySynthRig) -> Void
    ) -> (difference: Float, steals: Int, peak: Float) {
        var lanes = PolySynthRig(capacity: capacity, settings: settings, blockSize: blockSize)
        var scalar = PolySynthRig(capacity: capacity, settings: settings, blockSize: blockSize)
        lanes.synth.voiceRendering = .lanes
        scalar.synth.voiceRendering = .scalar
        for block in 0..<blocks {
            events(block, lanes)
            events(block, scalar)
            lanes.render(frames: blockSize)
            scalar.render(frames: blockSize)
        }
        var largest: Float = 0, peak: Float = 0
        for i in lanes.left.indices {
            largest = max(largest, abs(lanes.left[i] - scalar.left[i]), abs(lanes.right[i] - scalar.right[i]))
            peak = max(peak, abs(scalar.left[i]))
        }
        return (largest, scalar.synth.snapshot().stolenVoiceCount, peak)
    }

    @Test(arguments: PolySynthSettings.Waveform.allCases)
    func lanesEqualScalarThroughStealsGlidesAndReleases(waveform: PolySynthSettings.Waveform) {
        var s = PolySynthSettings()
        s.waveform = waveform
        s.polyphony = 11                          // two groups, the second partly empty, and steals
        s.portamento = 0.3
        s.lfoDepth = 0.4
        s.attack = 0.005; s.decay = 0.05; s.sustain = 0.6; s.release = 0.03
        let result = Self.largestDifference(capacity: 12, settings: s, blocks: 240) { block, rig in
            // The same pseudo-random script on both sides (the generator is seeded by the block).
            var r = SeededRandom(seed: 77 &+ UInt64(block))
            if r.uniform() < 0.6 { rig.noteOn(UInt8(36 + r.next() % 48), UInt8(20 + r.next() % 100)) }
            if r.uniform() < 0.4 { rig.noteOff(UInt8(36 + r.next() % 48)) }
            if block % 50 == 10 { rig.cc(64, 127) }
            if block % 50 == 30 { rig.cc(64, 0) }
            if block % 40 == 20 { rig.midi(0xE0, 0, UInt8(r.next() % 128)) }
            if block == 120 { rig.midi(0xB0, 123, 0) }   // all notes off: releases everywhere
        }
        #expect(result.difference <= 2e-5)
        #expect(result.steals > 10)
        #expect(result.peak > 0.05)
    }

    @Test func lanesEqualScalarWithMixedWaveforms() {
        var s = PolySynthSettings()
        s.polyphony = 8
        s.release = 0.2
        let waves = PolySynthSettings.Waveform.allCases
        let result = Self.largestDifference(capacity: 8, settings: s, blocks: 160) { block, rig in
            if block % 6 == 0 {
                // A new waveform for every chord while the last chord still rings.
                rig.synth.handle(.setWaveform(waves[(block / 6) % waves.count]))
                for k in 0..<3 { rig.noteOn(UInt8(48 + (block / 6 * 5 + k * 4) % 36), 100) }
            }
            if block % 6 == 3 { for k in 0..<3 { rig.noteOff(UInt8(48 + (block / 6 * 5 + k * 4) % 36)) } }
        }
        #expect(result.difference <= 2e-5)
        #expect(result.steals > 5)
    }

    @Test func lanesEqualScalarWithManyVoicesAndShortBlocks() {
        var s = PolySynthSettings()
        s.waveform = .saw
        s.polyphony = 40
        s.tone.enabled = true; s.fuzz.enabled = true; s.delay.enabled = true; s.reverb.enabled = true
        let result = Self.largestDifference(capacity: 40, settings: s, blocks: 300, blockSize: 64) { block, rig in
            if block % 4 == 0 { rig.noteOn(UInt8(30 + (block / 4 * 7) % 60), 90) }
            if block % 4 == 2 && block > 100 { rig.noteOff(UInt8(30 + ((block - 100) / 4 * 7) % 60)) }
        }
        #expect(result.difference <= 2e-5)
    }
}

/// The lane renderer allocates nothing per block, with notes starting, gliding, being stolen and released.
@Suite(.enabled(if: !AllocationCounter.isDisabledBySanitizer, "malloc interposition is compiled out under sanitizers"))
struct PolySynthVoiceLanesAllocationTests {
    @Test func noAllocationsPerBlock() throws {
        try #require(AllocationCounter.isAvailable)
        var s = PolySynthSettings()
        s.polyphony = 20
        s.portamento = 0.2
        s.tone.enabled = true; s.fuzz.enabled = true; s.delay.enabled = true; s.reverb.enabled = true
        let synth = PolySynth(capacity: 20, settings: s)
        synth.prepare(ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256, channelCount: 2))
        let left = UnsafeMutableBufferPointer<Float>.allocate(capacity: 256)
        let right = UnsafeMutableBufferPointer<Float>.allocate(capacity: 256)
        defer { left.deallocate(); right.deallocate() }
        // Warm-up: every waveform once, alone and mixed (a debug build instantiates generic metadata lazily).
        for (k, waveform) in PolySynthSettings.Waveform.allCases.enumerated() {
            synth.handle(.setWaveform(waveform))
            synth.handle(midi: MIDIShortMessage(status: 0x90, data1: UInt8(60 + k), data2: 100)!)
            synth.render(left: left, right: right)
        }
        synth.handle(.releaseAll)
        for _ in 0..<200 { synth.render(left: left, right: right) }
        for waveform in PolySynthSettings.Waveform.allCases {
            synth.handle(.setWaveform(waveform))
            synth.handle(midi: MIDIShortMessage(status: 0x90, data1: 60, data2: 100)!)
            synth.render(left: left, right: right)
        }
        let count = AllocationCounter.allocations {
            for block in 0..<400 {
                let note = UInt8(36 + (block * 5) % 48)
                synth.handle(midi: MIDIShortMessage(status: 0x90, data1: note, data2: 100)!)
                if block % 3 == 0 { synth.handle(midi: MIDIShortMessage(status: 0x80, data1: UInt8(36 + (block * 7) % 48), data2: 0)!) }
                if block % 50 == 0 { synth.handle(.setWaveform(PolySynthSettings.Waveform.allCases[block / 50 % 4])) }
                synth.render(left: left, right: right)
            }
        }
        #expect(count == 0)
        #expect(synth.snapshot().stolenVoiceCount > 0)
    }
}

import AllocationCounting
import Ariel
import HiSynth
import ProsperoTestSupport
import Testing

/// The rack renders without allocating: settings, notes, song choice, transport, a MIDI clock's tempo and
/// transport, and MIDI in, through the audio engine the JACK driver calls.
@Suite(.allocationCounting)
struct HiSynthRackAllocationTests {
    @Test func rackRendersWithoutAllocating() throws {
        try #require(AllocationCounter.isAvailable)
        let synth = HiSynthStudioRig.instrument()
        for path in ["reverb.on", "delay.on", "drive.on", "decimator.on", "lfo1.pitch", "lfo2.filterLow", "lfo3.amplitude"] {
            _ = try synth.apply(set: "hisynth." + path, value: true)
        }
        _ = try synth.apply(set: "hisynth.lfo2.depth", value: 0.5)
        HiSynthStudioRig.render(synth, blocks: 4)
        let block = HiSynthStudioRig.block
        var l = [Float](repeating: 0, count: block), r = l
        let midi = [TimedMIDIMessage(frameOffset: 10, message: MIDIShortMessage(status: 0x90, data1: 70, data2: 100)!),
                    TimedMIDIMessage(frameOffset: 200, message: MIDIShortMessage(status: 0x80, data1: 70, data2: 0)!)]
        var count = 0
        for step in 0..<9 {
            // Control side, outside the count: what pages send.
            switch step {
            case 0: _ = try synth.apply(action: "hisynth.note.on", value: 60, client: "a")
            case 1: _ = try synth.apply(set: "hisynth.player.song", value: 0)
            case 2: _ = try synth.apply(set: "hisynth.lp.cutoff", value: 900)
            case 3: _ = try synth.apply(set: "hisynth.player.tempo", value: 1.5)
            case 4: _ = try synth.apply(action: "hisynth.preset.load", value: "Rocket Lead", client: "a")
            // A MIDI clock (as the adapter sends it): the song's tempo map scaled to 132 BPM, gliding; Start, Stop.
            case 5: synth.host.send(.clockTempo(132)); synth.host.send(.clockStart)
            case 6: synth.host.send(.clockTempo(90)); synth.host.send(.clockStop); synth.host.send(.clockContinue)
            case 7: synth.host.send(.clockTempo(nil))
            default: _ = try synth.apply(action: "hisynth.player.stop", value: .null, client: "a")
            }
            count += l.withUnsafeMutableBufferPointer { lp in
                r.withUnsafeMutableBufferPointer { rp in
                    midi.withUnsafeBufferPointer { m in
                        AllocationCounter.allocations {
                            for b in 0..<120 {
                                if b % 10 == 0 {
                                    synth.audio.render(frameCount: block, left: lp.baseAddress!, right: rp.baseAddress!, midi: m, blockStart: nil)
                                } else {
                                    synth.audio.render(frameCount: block, left: lp.baseAddress!, right: rp.baseAddress!)
                                }
                            }
                        }
                    }
                }
            }
        }
        #expect(count == 0)
        #expect(l.allSatisfy { $0.isFinite && abs($0) <= 1 })
    }
}

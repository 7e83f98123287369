import AllocationCounting
import Ariel
import HiSynth
import ProsperoTestSupport
import Testing
import Touchstone

/// 0 allocations per block with all LFOs on all targets and all effects on, through every command.
@Suite(.allocationCounting)
struct HiSynthAllocationTests {
    static var everythingOn: HiSynthSettings {
        var s = HiSynthSettings(preset: HiSynthPreset.factory[3])
        for i in 0..<3 {
            s[lfo: i] = .init(waveform: [.sine, .square, .rsaw][i], depth: 0.5, speed: 3 + Double(i), phase: 0.25,
                              pitch: true, amplitude: true, filterLow: true, filterHigh: true)
        }
        s.highPass.cutoff = 80
        s.effects.decimatorOn = true
        s.effects.driveOn = true
        s.effects.delayOn = true
        s.effects.reverbOn = true
        return s
    }

    @Test func engineRendersAndHandlesCommandsWithoutAllocating() throws {
        try #require(AllocationCounter.isAvailable)
        let engine = HiSynthEngine(settings: Self.everythingOn)
        engine.prepare(ProcessSpec(sampleRate: 44_100, maximumBlockSize: 256, channelCount: 2))
        var other = Self.everythingOn
        other.effects.reverbVariant = .plate
        other.layer1.waveform = .pulse
        other.lowPass = .init(cutoff: 500, resonance: 12)
        var l = [Float](repeating: 0, count: 256), r = l
        l.withUnsafeMutableBufferPointer { lp in r.withUnsafeMutableBufferPointer { rp in engine.render(left: lp, right: rp) } }
        let commands: [HiSynthEngine.Command] = (0..<10).map { .noteOn(UInt8(48 + 3 * $0)) }
            + [.noteOff(51), .apply(other), .noteOn(51), .releaseAll, .noteOn(60), .apply(Self.everythingOn), .allSoundOff, .noteOn(62)]
        let count = l.withUnsafeMutableBufferPointer { lp in
            r.withUnsafeMutableBufferPointer { rp in
                AllocationCounter.allocations {
                    for (i, c) in commands.enumerated() {
                        engine.handle(c)
                        engine.handle(midi: MIDIShortMessage(status: 0x90, data1: UInt8(70 + i), data2: 90)!)
                        for _ in 0..<(i % 3 + 1) { engine.render(left: lp, right: rp) }
                        _ = engine.snapshot()
                    }
                    for _ in 0..<400 { engine.render(left: lp, right: rp) }
                }
            }
        }
        #expect(count == 0)
    }

    @Test func songPlayerTransportAllocatesNothing() throws {
        try #require(AllocationCounter.isAvailable)
        let player = HiSynthSongPlayer(engine: HiSynthEngine(settings: Self.everythingOn),
                                       song: HiSynthSongBook.tempoStudy.song, playing: true, looping: true)
        let host = EngineHost(engine: player, spec: ProcessSpec(sampleRate: 44_100, maximumBlockSize: 256, channelCount: 2))
        var l = [Float](repeating: 0, count: 256), r = l
        l.withUnsafeMutableBufferPointer { lp in r.withUnsafeMutableBufferPointer { rp in host.process(left: lp, right: rp) } }
        let commands: [HiSynthSongPlayer.Command] = [.tempoScale(1.7), .seek(seconds: 20), .pause, .play, .loop(false),
                                                     .loop(true), .stop, .play, .engine(.noteOn(40)), .tempoScale(0.5)]
        let count = l.withUnsafeMutableBufferPointer { lp in
            r.withUnsafeMutableBufferPointer { rp in
                AllocationCounter.allocations {
                    for c in commands {
                        _ = host.send(c)
                        for _ in 0..<50 { host.process(left: lp, right: rp) }
                    }
                }
            }
        }
        #expect(count == 0)
    }
}

import Ariel
import HiSynth
import InstrumentSettings
import LiveHost
import Synchronization
import Testing
import Touchstone

/// The one HiSynth live adapter (`prospero hisynth play` and the studio's rack drive it): a MIDI clock's
/// tempo drives the song (its own tempo map scaled to the clock's BPM, gliding), Start / Stop / Continue
/// drive its transport, learned controllers turn knobs, and the settings section round-trips.
@Suite("HiSynth live adapter")
struct HiSynthLiveInstrumentTests {
    static let sampleRate = 48_000.0
    static let block = 256

    /// A clock the test sets, as the audio edge's follower would be set by midi_in.
    final class ScriptedClock: LiveClock, @unchecked Sendable {
        var bpm: Double?
        var transport: LiveClockTransport?
        var clockCount = 0

        func send(_ message: LiveClockTransport.Message) {
            transport = LiveClockTransport(message: message, count: (transport?.count ?? 0) + 1)
        }
    }

    /// A song of C4 quarter notes (an eighth long) at `bpm`, 64 of them.
    static func song(bpm: Double) -> HiSynthSong {
        var events: [MIDIFileEvent] = [.meta(.tempo(bpm: bpm))]
        for _ in 0..<64 {
            events.append(.message(.noteOn(channel: 0, note: 60, velocity: 100)))
            events.append(.message(.noteOff(channel: 0, note: 60, velocity: 0), delta: 240))
            events.append(.meta(.text("beat"), delta: 240))
        }
        let file = MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [MIDIFileTrack(events: events)])
        return HiSynthSong(file: file, name: "Test - Quarters")
    }

    /// The lines the adapter announced.
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func append(_ line: String) { lines.withLock { $0.append(line) } }
    }

    struct Rig {
        let host: EngineHost<HiSynthRackEngine>
        let live: HiSynthLiveInstrument
        let clock: ScriptedClock
        let lines = Lines()
        /// Host seconds: one block's worth per rendered block.
        var time = 0.0

        init(songBPM: Double = 100) {
            let rack = HiSynthRackEngine(settings: HiSynthSettings(preset: HiSynthPreset.factory[0]), songs: [HiSynthLiveInstrumentTests.song(bpm: songBPM)])
            host = EngineHost(engine: rack, spec: ProcessSpec(sampleRate: sampleRate, maximumBlockSize: block, channelCount: 2))
            host.prepare(.live(sampleRate: sampleRate, maximumBlockSize: block))
            clock = ScriptedClock()
            live = HiSynthLiveInstrument(host: host, preset: HiSynthPreset.factory[0], clock: clock,
                                         announce: { [lines] in lines.append($0) })
        }

        /// Renders `seconds`, advancing the adapter before each block; while `clocking`, 24 clocks a quarter
        /// note arrive at the clock's tempo.
        mutating func run(seconds: Double, clocking: Bool = true) {
            var l = [Float](repeating: 0, count: block), r = l
            let blocks = Int((seconds * sampleRate / Double(block)).rounded(.up))
            for _ in 0..<blocks {
                if clocking, let bpm = clock.bpm { clock.clockCount += max(1, Int((bpm * 24 / 60 * Double(block) / sampleRate).rounded(.up))) }
                live.advance(to: time)
                l.withUnsafeMutableBufferPointer { lp in
                    r.withUnsafeMutableBufferPointer { rp in host.process(left: lp, right: rp) }
                }
                time += Double(block) / sampleRate
            }
        }

        var player: HiSynthPlayerSnapshot { host.engine.snapshot().player }

        /// Seconds between the last two note-ons the song played.
        var lastInterval: Double? {
            let ons = host.engine.engine.noteLog.events().filter(\.isOn)
            guard ons.count >= 2 else { return nil }
            return Double(ons[ons.count - 1].frame - ons[ons.count - 2].frame) / sampleRate
        }
    }

    @Test("a clock's tempo drives the song: its own 100 BPM played at the clock's 132, gliding there; announced")
    func clockTempoDrivesTheSong() {
        var rig = Rig(songBPM: 100)
        rig.live.play(true)
        rig.run(seconds: 1)
        // Without a clock: the song's own tempo (0.6 s a quarter).
        #expect(abs(rig.lastInterval! - 0.6) < 0.001)
        #expect(rig.player.tempoScale == 1)
        rig.clock.bpm = 132
        rig.run(seconds: Double(Self.block) / Self.sampleRate)
        // The scale glides (time constant 50 ms): one block in, it is on its way, not there.
        let first = rig.player.tempoScale
        #expect(first > 1 && first < 1.32 - 0.1, "after one block \(first)")
        rig.run(seconds: 2)
        #expect(abs(rig.player.tempoScale - 1.32) < 1e-4)
        #expect(abs(rig.lastInterval! - 60 / 132) < 0.001, "a quarter at 132 BPM: \(rig.lastInterval!)")
        #expect(rig.live.followedBPM == 132)
        #expect(rig.lines.all == ["MIDI clock in: 132.0 BPM"])
        // A change under 0.05 BPM is not followed; one of 1 BPM is, and announced.
        rig.clock.bpm = 132.01
        rig.run(seconds: 0.1)
        #expect(rig.live.followedBPM == 132)
        rig.clock.bpm = 133
        rig.run(seconds: 1)
        #expect(rig.live.followedBPM == 133 && rig.lines.all.last == "MIDI clock in: 133.0 BPM")
        #expect(abs(rig.player.tempoScale - 1.33) < 1e-4)
    }

    @Test("the page's tempo scale applies while no clock runs, and again once the clock stops coming")
    func tempoScaleWithoutAClock() {
        var rig = Rig(songBPM: 120)
        rig.live.play(true)
        rig.live.scaleTempo(2)
        rig.run(seconds: 1)
        #expect(abs(rig.player.tempoScale - 2) < 1e-4)
        #expect(!rig.live.hearsAClock, "no clock yet: a host may rest")
        rig.clock.bpm = 90
        rig.run(seconds: 1)
        #expect(rig.live.hearsAClock)
        #expect(abs(rig.player.tempoScale - 0.75) < 1e-4, "90 BPM over the song's 120, whatever the scale")
        // The clock stops coming (its last estimate stays): after 0.5 s the scale is the page's again.
        rig.run(seconds: 0.4, clocking: false)
        #expect(rig.live.followedBPM == 90)
        rig.run(seconds: 1, clocking: false)
        #expect(rig.live.followedBPM == nil)
        #expect(abs(rig.player.tempoScale - 2) < 1e-4)
        #expect(rig.lines.all.last?.hasPrefix("MIDI clock in: none") == true)
    }

    @Test("Start plays the song from its top, Stop holds it where it is, Continue resumes from there")
    func startStopContinue() {
        var rig = Rig(songBPM: 120)
        rig.clock.bpm = 120
        rig.run(seconds: 0.5)
        #expect(!rig.player.isPlaying && rig.player.position == 0, "no Start yet: the song waits")
        rig.clock.send(.start)
        rig.run(seconds: 1.2)
        #expect(rig.player.isPlaying && rig.live.playing)
        #expect(abs(rig.player.position - 1.2) < 0.02, "\(rig.player.position)")
        rig.clock.send(.stop)
        rig.run(seconds: 0.3)
        let held = rig.player.position
        #expect(!rig.player.isPlaying && !rig.live.playing)
        #expect(abs(held - 1.2) < 0.02)
        #expect(!rig.player.synth.isHeld(60), "Stop ends the song's notes")
        rig.run(seconds: 0.5)
        #expect(rig.player.position == held, "stopped: the position holds")
        rig.clock.send(.continue)
        rig.run(seconds: 0.5)
        #expect(rig.player.isPlaying && abs(rig.player.position - held - 0.5) < 0.02, "resumed from \(held): \(rig.player.position)")
        rig.clock.send(.start)
        rig.run(seconds: Double(Self.block) / Self.sampleRate)
        #expect(rig.player.isPlaying && rig.player.position < 0.01, "Start again: from the top, \(rig.player.position)")
        #expect(rig.lines.all.contains("MIDI clock in: Stop"))
        // Stop and Start between two looks: the latest wins (a song played from its top).
        rig.run(seconds: 0.5)
        rig.clock.send(.stop)
        rig.clock.send(.start)
        rig.run(seconds: Double(Self.block) / Self.sampleRate)
        #expect(rig.player.isPlaying && rig.player.position < 0.01)
    }

    @Test("a learned controller turns a knob of the rack: the sound and the engine's settings follow; other paths are refused")
    func learnedKnobs() throws {
        var rig = Rig()
        #expect(rig.live.turn("hisynth.lp.cutoff", to: 900))
        rig.run(seconds: 0.01)
        #expect(rig.live.preset.filters.lowPass.cutoff == 900)
        #expect(rig.host.engine.engine.settings.lowPass.cutoff == 900)
        #expect(!rig.live.turn("hisynth.no.such.knob", to: 1))
        #expect(!rig.live.turn("hecate.bpm", to: 100))
        #expect(!rig.live.turn("hisynth.env.sustain", to: 7), "out of the knob's range: refused")
        // The studio's paths and the CLI's learned ones are the same knobs.
        #expect(HiSynthRackControl.learnableControls.allSatisfy { rig.live.turn($0.path, to: $0.range.lowerBound) })
    }

    @Test("settings: the sound as its preset string and the octave round-trip; bad members are refused by name")
    func settingsRoundTrip() throws {
        let rig = Rig()
        var sound = try #require(HiSynthPreset.factory.first { $0.name == "Dream Pad" })
        sound.envelope.sustain = 0.5
        rig.live.changeSound(to: sound)
        rig.live.setOctave(6)
        let section = try #require(rig.live.savedSettings())
        let other = Rig()
        #expect(other.live.restoreSettings(section).isEmpty)
        #expect(try other.live.preset.encoded() == sound.encoded() && other.live.octave == 6)
        let refused = other.live.restoreSettings(.object(["preset": .string("not a preset"), "octave": .number(9)]))
        #expect(refused.count == 2 && refused[0].hasPrefix("hisynth.preset:") && refused[1].hasPrefix("hisynth.octave:"), "\(refused)")
        let kept = try other.live.preset.encoded(), wanted = try sound.encoded()
        #expect(other.live.octave == 6 && kept == wanted, "a refused member changes nothing")
    }

    @Test("the audio edge's follower hands the adapter the transport and the clocks it heard")
    func followerCarriesTransport() {
        let follower = MIDIClockFollower()
        #expect(follower.transport == nil && follower.clockCount == 0 && follower.bpm == nil)
        let tick = 60 / (132.0 * 24)
        follower.receive(MIDIShortMessage(status: 0xFA)!, at: 0)
        for k in 1...48 { follower.receive(MIDIShortMessage(status: 0xF8)!, at: Double(k) * tick) }
        #expect(follower.transport == LiveClockTransport(message: .start, count: 1))
        #expect(follower.clockCount == 48)
        #expect(abs(follower.bpm! - 132) < 0.01)
        follower.receive(MIDIShortMessage(status: 0xFC)!, at: 2.1)
        follower.receive(MIDIShortMessage(status: 0xFB)!, at: 2.2)
        #expect(follower.transport == LiveClockTransport(message: .continue, count: 3))
        // Channel messages are not the clock's.
        follower.receive(MIDIShortMessage(status: 0x90, data1: 60, data2: 100)!, at: 2.3)
        #expect(follower.clockCount == 48 && follower.transport?.count == 3)
    }
}

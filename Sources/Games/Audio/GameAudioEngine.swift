import Ariel
import Foundation
import Touchstone

/// The audio of all three games: looping background music (the generated song on a `PolySynth` driven
/// by a `MIDISequencer`, or a user's WAV), a music level (fades, Touch for Music's volume), a sine
/// tremolo (Feel Your Vibe's LFO), harmony phrases on a second `PolySynth`, a master level (fade out on
/// leaving) and a brickwall limiter at −1 dBFS.
///
/// Signal: out = limiter(master · (music · musicLevel · tremolo + harmony)). Levels move linearly over
/// the ramp each command gives (20 ms at least, so no change clicks); tremolo depth glides over 20 ms
/// and its rate changes keep the LFO's phase.
///
/// Real time: `render`, `handle` and `snapshot` never allocate, lock or throw; sequencers, synths and
/// buffers are built in `prepare`. Latency: each synth's limiter looks 5 ms ahead and the output
/// limiter another 5 ms, so sound leaves `latency` seconds after the block it was started in.
public final class GameAudioEngine: AudioEngine {
    public enum Command: Sendable, Hashable {
        /// Music level 0…1, reached linearly over `ramp` seconds (at least 0.02).
        case musicLevel(Float, ramp: Double)
        /// Master level 0…1 over `ramp` seconds (at least 0.02).
        case masterLevel(Float, ramp: Double)
        /// Tremolo on the music: LFO rate in Hz (0.1…10) and depth 0…1 (0 = off).
        case tremolo(rate: Double, depth: Float)
        /// Starts harmony phrase `index` of `GameSong.phrases()` (a playing phrase is released first).
        case playHarmony(Int)
        /// Restarts the music at the top of its loop.
        case restartMusic
    }

    public struct Snapshot: Sendable, Hashable {
        /// Position in the music's loop, seconds.
        public var musicPosition: Double
        /// Times the music has looped.
        public var loopCount: Int
        /// The harmony phrase playing (its sequencer still has notes to send), or −1.
        public var harmonyPhrase: Int
        public var musicLevel: Float
        public var masterLevel: Float
        /// The tremolo gain at the end of the block, 0…1.
        public var tremoloGain: Float
        /// Peak of the last block's output.
        public var peak: Float
    }

    /// Seconds from a block's start to when a sound started in it leaves the limiters.
    public static let latency = 0.010
    /// Shortest level ramp, seconds.
    public static let minimumRamp = 0.02

    public let music: GameMusic
    let phrases = GameSong.phrases()
    let musicSynth = PolySynth(capacity: 24, settings: GameSong.musicSettings)
    let harmonySynth = PolySynth(capacity: 8, settings: GameSong.harmonySettings)
    var musicSequencer: MIDISequencer?
    var phraseSequencers: [MIDISequencer] = []
    var samplesLeft: [Float] = []
    var samplesRight: [Float] = []
    let limiter = BrickwallLimiter(ceiling: -1)

    var spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 512, channelCount: 2)
    var loopFrames = 1
    var musicFrame = 0
    var loops = 0
    var phrase = -1
    var musicLevel = SmoothedParameter(initialValue: 0, style: .linear, rampTime: 0.02)
    var masterLevel = SmoothedParameter(initialValue: 1, style: .linear, rampTime: 0.02)
    var depth = SmoothedParameter(initialValue: 0, style: .linear, rampTime: 0.02)
    var lfo = VibeLFO()
    var tremoloGain: Float = 1
    var peak: Float = 0
    var harmonyLeft = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)
    var harmonyRight = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)

    public init(music: GameMusic = .song) {
        self.music = music
    }

    deinit {
        harmonyLeft.deallocate()
        harmonyRight.deallocate()
    }

    public func prepare(_ spec: ProcessSpec) {
        self.spec = spec
        let n = max(1, spec.maximumBlockSize)
        harmonyLeft.deallocate(); harmonyRight.deallocate()
        harmonyLeft = .allocate(capacity: n); harmonyRight = .allocate(capacity: n)
        harmonyLeft.initialize(repeating: 0); harmonyRight.initialize(repeating: 0)
        musicSynth.prepare(spec)
        harmonySynth.prepare(spec)
        limiter.prepare(spec)
        switch music {
        case .song:
            let sequencer = MIDISequencer(events: GameSong.musicEvents(), sampleRate: spec.sampleRate)
            loopFrames = max(1, Int((GameSong.length * spec.sampleRate).rounded()))
            sequencer.chasesControllers = false
            sequencer.setLoop(frames: 0..<Int64(loopFrames))
            musicSequencer = sequencer
        case .samples(let l, let r, let rate):
            samplesLeft = Self.resample(l, from: rate, to: spec.sampleRate)
            samplesRight = Self.resample(r.count == l.count ? r : l, from: rate, to: spec.sampleRate)
            loopFrames = max(1, samplesLeft.count)
        }
        phraseSequencers = phrases.map { p in
            let s = MIDISequencer(events: GameSong.events(of: p), sampleRate: spec.sampleRate)
            s.chasesControllers = false
            return s
        }
        for p in [\GameAudioEngine.musicLevel, \.masterLevel, \.depth] { self[keyPath: p].prepare(sampleRate: spec.sampleRate) }
        reset()
    }

    static func resample(_ x: [Float], from source: Double, to target: Double) -> [Float] {
        guard source > 0, target > 0, source != target, x.count > 1 else { return x }
        let count = Int((Double(x.count) * target / source).rounded(.down))
        return (0..<count).map { k in
            let position = Double(k) * source / target
            let i = min(Int(position), x.count - 2)
            let f = Float(position - Double(i))
            return x[i] + (x[i + 1] - x[i]) * f
        }
    }

    public func reset() {
        musicSynth.reset()
        harmonySynth.reset()
        limiter.reset()
        musicSequencer?.seek(toFrame: 0)
        musicFrame = 0
        loops = 0
        phrase = -1
        lfo.reset()
        tremoloGain = 1
        peak = 0
    }

    public func handle(_ command: Command) {
        switch command {
        case .musicLevel(let v, let ramp):
            musicLevel.setRampTime(max(Self.minimumRamp, ramp.isFinite ? ramp : 0))
            musicLevel.setTarget(Self.unit(v))
        case .masterLevel(let v, let ramp):
            masterLevel.setRampTime(max(Self.minimumRamp, ramp.isFinite ? ramp : 0))
            masterLevel.setTarget(Self.unit(v))
        case .tremolo(let rate, let d):
            lfo.frequency = rate
            depth.setTarget(Self.unit(d))
        case .playHarmony(let index):
            guard phraseSequencers.indices.contains(index) else { return }
            if phrase >= 0 { harmonySynth.releaseAllNotes() }
            phrase = index
            phraseSequencers[index].seek(toFrame: 0)
        case .restartMusic:
            musicSynth.releaseAllNotes()
            musicSequencer?.seek(toFrame: 0)
            musicFrame = 0
        }
    }

    static func unit(_ v: Float) -> Float { v.isFinite ? min(max(v, 0), 1) : 0 }

    public func handle(midi message: MIDIShortMessage) { musicSynth.handle(midi: message) }

    public func releaseAllNotes() {
        musicSynth.releaseAllNotes()
        harmonySynth.releaseAllNotes()
    }

    public func snapshot() -> Snapshot {
        Snapshot(musicPosition: Double(musicFrame) / spec.sampleRate, loopCount: loops, harmonyPhrase: phrase,
                 musicLevel: musicLevel.current, masterLevel: masterLevel.current, tremoloGain: tremoloGain, peak: peak)
    }

    /// Renders `synth` with `sequencer`'s events applied at their frames.
    static func render(_ synth: PolySynth, _ sequencer: MIDISequencer?, left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {
        let n = left.count
        var start = 0
        if let sequencer {
            let events = sequencer.nextBlock(frameCount: n)
            for e in events {
                let offset = min(max(e.frameOffset, start), n)
                if offset > start {
                    synth.render(left: UnsafeMutableBufferPointer(rebasing: left[start..<offset]),
                                 right: UnsafeMutableBufferPointer(rebasing: right[start..<offset]))
                    start = offset
                }
                if let m = e.message { synth.handle(midi: m) }
            }
        }
        if start < n {
            synth.render(left: UnsafeMutableBufferPointer(rebasing: left[start..<n]),
                         right: UnsafeMutableBufferPointer(rebasing: right[start..<n]))
        }
    }

    public func render(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {
        let n = min(left.count, right.count, harmonyLeft.count)
        guard n > 0 else { return }
        let l = UnsafeMutableBufferPointer(rebasing: left[0..<n]), r = UnsafeMutableBufferPointer(rebasing: right[0..<n])
        // Music.
        if let musicSequencer {
            Self.render(musicSynth, musicSequencer, left: l, right: r)
        } else {
            samplesLeft.withUnsafeBufferPointer { sl in
                samplesRight.withUnsafeBufferPointer { sr in
                    var k = musicFrame
                    for i in 0..<n {
                        if k >= sl.count { k = 0 }
                        l[i] = sl.isEmpty ? 0 : sl[k]
                        r[i] = sr.isEmpty ? 0 : sr[min(k, sr.count - 1)]
                        k += 1
                    }
                }
            }
        }
        musicFrame += n
        if musicFrame >= loopFrames { musicFrame -= loopFrames; loops += 1 }
        // Harmony.
        let hl = UnsafeMutableBufferPointer(rebasing: harmonyLeft[0..<n]), hr = UnsafeMutableBufferPointer(rebasing: harmonyRight[0..<n])
        let sequencer: MIDISequencer? = phrase >= 0 ? phraseSequencers[phrase] : nil
        Self.render(harmonySynth, sequencer, left: hl, right: hr)
        if let sequencer, sequencer.isFinished { phrase = -1 }
        // Levels, tremolo, mix.
        let dt = 1 / spec.sampleRate
        var gain: Float = 1
        for i in 0..<n {
            let a = Double(depth.next())
            lfo.amplitude = a
            let value = lfo.update(deltaTime: dt)
            gain = Float(VibeLFO.gain(value: value, amplitude: a))
            let m = musicLevel.next() * gain
            let master = masterLevel.next()
            l[i] = master * (l[i] * m + hl[i])
            r[i] = master * (r[i] * m + hr[i])
        }
        tremoloGain = gain
        limiter.process(left: l, right: r)
        var p: Float = 0
        for i in 0..<n { p = max(p, abs(l[i]), abs(r[i])) }
        peak = p
    }
}

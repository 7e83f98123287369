import Touchstone

/// One oscillator layer: eight voices and their allocator (spec §1, Voices).
///
/// - A note takes the first free voice; when all eight are busy it takes the voice of the oldest note
///   (by note-on order), which mutes over 1 ms and then starts the new note.
/// - A voice is busy from its note-on until release + 0.2 s after its note-off (measured in samples
///   rendered), even when its envelope has already fallen silent, as in the original.
/// - Re-striking a note this layer still sounds (held or releasing) hard-mutes that voice (1 ms ramp)
///   and plays the note on another voice.
/// - Velocity is ignored. The layer's level is a gain on its voice sum, glided over 20 ms.
///
/// Rendering: when at least `laneThreshold` voices sound one waveform and none waits to start a stolen
/// note, the eight oscillators run side by side as `BandLimitedOscillatorLanes` (equal to the scalar
/// oscillator to Float rounding) with each voice's envelope computed first into its lane of a gain
/// buffer, the same arithmetic as the scalar voice; otherwise each voice renders alone (`HiSynthVoice`).
/// The two paths agree to rounding (HiSynthLaneTests). The path is chosen on a grid of `laneChunk`
/// samples of the layer's own clock and at every note, never where a block starts, so the output is the
/// same sample for sample whatever blocks a host renders in (LV2HostTests).
///
/// Storage is allocated at creation; nothing here allocates afterwards.
final class HiSynthLayer {
    static let voiceCount = 8
    /// Time after release for which a released voice stays busy, in seconds.
    static let freeDelay = 0.2

    let voices: UnsafeMutableBufferPointer<HiSynthVoice>
    var waveform: Waveform = .sine
    var pitch: Float = 0
    var level = SmoothedParameter(initialValue: 0.75, style: .linear, rampTime: 0.02)
    var sampleRate = 44_100.0
    private var clock: UInt64 = 0
    /// Samples rendered since `reset`: the lane grid's clock.
    private var rendered: UInt64 = 0
    /// The path of the current piece: the lanes for this waveform, or nil for voices one by one.
    private var lanePath: Waveform?
    /// The path is chosen again before the next sample (on the lane grid, after a note or a setting).
    private var choosePath = true
    /// Notes that took a voice from a sounding note.
    private(set) var stolenCount = 0
    /// The voices' oscillators side by side, loaded from and written back to the voices each block.
    private var lanes = BandLimitedOscillatorLanes()
    /// Envelope gains of one lane chunk, eight per sample (voice v of sample k at k·8 + v).
    private let laneGains: UnsafeMutablePointer<Float>
    /// Samples per lane chunk (the gain buffer's length in frames).
    static let laneChunk = 64
    /// Sounding voices from which the lane path is cheaper than voices one by one.
    static let laneThreshold = 2

    init() {
        voices = .allocate(capacity: Self.voiceCount)
        voices.initialize(repeating: HiSynthVoice())
        laneGains = .allocate(capacity: Self.laneChunk * Self.voiceCount)
        laneGains.initialize(repeating: 0, count: Self.laneChunk * Self.voiceCount)
    }

    deinit {
        voices.deinitialize()
        voices.deallocate()
        laneGains.deallocate()
    }

    func prepare(sampleRate: Double) {
        self.sampleRate = sampleRate
        let spec = ProcessSpec(sampleRate: sampleRate, maximumBlockSize: 1)
        for v in voices.indices { voices[v].oscillator.prepare(spec) }
        lanes.prepare(spec)
        level.prepare(sampleRate: sampleRate)
        reset()
    }

    func reset() {
        for v in voices.indices {
            voices[v].envelope.clear()
            voices[v].state = .free
            voices[v].hasPending = false
            voices[v].pendingReleased = false
        }
        level.snap(to: level.target)
        stolenCount = 0
        rendered = 0
        lanePath = nil
        choosePath = true
    }

    /// Starts `note` (0…127).
    func noteOn(_ note: UInt8, _ p: HiSynthEnvelope.Parameters) {
        clock &+= 1
        choosePath = true
        // Re-strike: the voice still sounding this note is muted and left to finish its ramp.
        for v in voices.indices where (voices[v].state == .held || voices[v].state == .released) && voices[v].note == note {
            if voices[v].hasPending {
                voices[v].hasPending = false
                voices[v].state = .leaving
            } else {
                voices[v].envelope.mute(p)
                voices[v].state = voices[v].envelope.isActive ? .leaving : .free
            }
        }
        let hz = HiSynthVoice.frequency(note: note, pitch: pitch)
        var chosen = -1
        for v in voices.indices where voices[v].state == .free {
            chosen = v
            break
        }
        if chosen < 0 {
            // All busy: the oldest note among held and released voices, else a leaving one.
            var oldest = UInt64.max
            for v in voices.indices where voices[v].state != .leaving && voices[v].stamp < oldest {
                oldest = voices[v].stamp
                chosen = v
            }
            if chosen < 0 {
                for v in voices.indices where voices[v].stamp < oldest {
                    oldest = voices[v].stamp
                    chosen = v
                }
            }
            if voices[chosen].state != .leaving { stolenCount += 1 }
        }
        voices[chosen].state = .held
        voices[chosen].note = note
        voices[chosen].stamp = clock
        voices[chosen].pendingReleased = false
        if voices[chosen].envelope.isActive {
            // Still sounding (stolen, or finishing a ramp): mute, then start the note.
            voices[chosen].envelope.mute(p)
            voices[chosen].hasPending = true
            voices[chosen].pendingHz = hz
            voices[chosen].pendingWaveform = waveform
        } else {
            voices[chosen].begin(hz: hz, waveform: waveform, p)
        }
    }

    /// Releases `note`: its voice's gate closes, and the voice is free release + 0.2 s later.
    func noteOff(_ note: UInt8, _ p: HiSynthEnvelope.Parameters) {
        for v in voices.indices where voices[v].state == .held && voices[v].note == note {
            release(v, p)
        }
    }

    /// Releases every held note.
    func releaseAll(_ p: HiSynthEnvelope.Parameters) {
        for v in voices.indices where voices[v].state == .held { release(v, p) }
    }

    /// Mutes every voice over 1 ms and frees them (all sound off).
    func muteAll(_ p: HiSynthEnvelope.Parameters) {
        choosePath = true
        for v in voices.indices {
            voices[v].envelope.mute(p)
            voices[v].hasPending = false
            voices[v].state = voices[v].envelope.isActive ? .leaving : .free
        }
    }

    private func release(_ v: Int, _ p: HiSynthEnvelope.Parameters) {
        voices[v].state = .released
        voices[v].freeCountdown = Int(((p.release + Self.freeDelay) * sampleRate).rounded())
        if voices[v].hasPending {
            voices[v].pendingReleased = true
        } else {
            voices[v].envelope.gateOff(p)
        }
    }

    /// Adds `count` samples of the layer (voice sum × level) into `out`, using `scratch` (≥ count).
    /// `pitch` (when given) adds Hz to every voice per sample. Then ages the voices by `count` samples.
    func render(
        into out: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>, pitch: UnsafePointer<Float>?,
        count: Int, _ p: HiSynthEnvelope.Parameters
    ) {
        // Pieces end on the layer's own lane grid (every `laneChunk` samples it renders), where the path is
        // chosen again; a note or a setting chooses it at once. The two paths agree only to rounding, so a
        // choice made wherever a block happens to start would make the output depend on the host's blocks.
        var start = 0
        while start < count {
            if choosePath {
                lanePath = laneWaveform()
                choosePath = false
            }
            let n = min(count - start, Self.laneChunk - Int(rendered % UInt64(Self.laneChunk)))
            renderPiece(into: out + start, scratch: scratch, pitch: pitch.map { $0 + start }, count: n, p)
            rendered &+= UInt64(n)
            if rendered % UInt64(Self.laneChunk) == 0 { choosePath = true }
            start += n
        }
        for v in voices.indices {
            switch voices[v].state {
            case .released:
                voices[v].freeCountdown -= count
                if voices[v].freeCountdown <= 0 {
                    voices[v].state = .free
                    // Normally silent by now; anything left (a release slowed by a later preset) fades in 1 ms.
                    voices[v].envelope.mute(p)
                }
            case .leaving:
                if !voices[v].envelope.isActive { voices[v].state = .free }
            case .free, .held:
                break
            }
        }
    }

    /// Adds `count` samples (inside one piece of the lane grid) of the voice sum × level into `out`, on the
    /// path chosen for the piece.
    @inline(__always)
    private func renderPiece(
        into out: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>, pitch: UnsafePointer<Float>?,
        count: Int, _ p: HiSynthEnvelope.Parameters
    ) {
        var anyActive = false
        if let shape = lanePath {
            anyActive = true
            switch shape {
            case .sine: renderLanes(SineShape.self, into: scratch, pitch: pitch, count: count, p)
            case .square: renderLanes(SquareShape.self, into: scratch, pitch: pitch, count: count, p)
            case .saw: renderLanes(SawShape.self, into: scratch, pitch: pitch, count: count, p)
            case .triangle: renderLanes(TriangleShape.self, into: scratch, pitch: pitch, count: count, p)
            case .pulse: renderLanes(PulseShape.self, into: scratch, pitch: pitch, count: count, p)
            case .reverseSaw: renderLanes(ReverseSawShape.self, into: scratch, pitch: pitch, count: count, p)
            }
        } else {
            for v in voices.indices where voices[v].envelope.isActive || voices[v].hasPending {
                if !anyActive {
                    scratch.update(repeating: 0, count: count)
                    anyActive = true
                }
                voices[v].render(into: scratch, pitch: pitch, count: count, p)
            }
        }
        if anyActive {
            var gain = level
            if gain.isSmoothing {
                for i in 0..<count { out[i] += scratch[i] * gain.next() }
            } else {
                let g = gain.current
                for i in 0..<count { out[i] += scratch[i] * g }
            }
            level = gain
        } else {
            _ = level.skip(count)
        }
    }

    /// The waveform of the sounding voices when the lane path applies: at least `laneThreshold` sounding, all of
    /// one waveform, none waiting to start a stolen note (that starts mid-block, at a phase reset the lanes
    /// would have to split for); else nil.
    private func laneWaveform() -> Waveform? {
        var sounding = 0
        var shape: Waveform?
        for v in voices.indices {
            if voices[v].hasPending { return nil }
            guard voices[v].envelope.isActive else { continue }
            if let s = shape, s != voices[v].waveform { return nil }
            shape = voices[v].waveform
            sounding += 1
        }
        return sounding >= Self.laneThreshold ? shape : nil
    }

    /// The lane path: writes `count` samples of the voice sum to `out`. Per chunk, each voice's envelope goes
    /// into its lane of `laneGains` (exactly `HiSynthVoice.run`'s arithmetic), then the oscillators run as lanes;
    /// the phases go back to the voices at the end. A voice falling silent within the block keeps gain 0.
    @inline(__always)
    private func renderLanes<Shape: OscillatorShape>(
        _ shape: Shape.Type, into out: UnsafeMutablePointer<Float>, pitch: UnsafePointer<Float>?,
        count: Int, _ p: HiSynthEnvelope.Parameters
    ) {
        typealias Vector = BandLimitedOscillatorLanes.Vector
        var phases = Vector(), hz = Vector(), base = Vector(), widths = Vector(repeating: 0.5)
        var active: UInt8 = 0
        for v in 0..<Self.voiceCount where voices[v].envelope.isActive {
            let oscillator = voices[v].oscillator
            phases[v] = oscillator.phase
            hz[v] = oscillator.frequency
            base[v] = voices[v].baseHz
            widths[v] = oscillator.pulseWidth
            active |= 1 << UInt8(v)
        }
        var lanes = self.lanes
        lanes.pulseWidths = widths
        lanes.resetPhases(to: phases)
        lanes.setFrequencies(hz)
        let gains = laneGains
        let minimum = Vector(repeating: HiSynthVoice.minimumHz), maximum = Vector(repeating: HiSynthVoice.maximumHz)
        var start = 0
        while start < count {
            let n = min(Self.laneChunk, count - start)
            for v in 0..<Self.voiceCount {
                var env = voices[v].envelope
                var k = 0
                if active & (1 << UInt8(v)) != 0 {
                    while k < n && env.isActive {
                        if let (run, step) = env.linearRun(p) {
                            let stop = run >= n - k ? n : k + run
                            var g = env.level
                            while k < stop {
                                g += step
                                gains[k &* 8 &+ v] = g
                                k += 1
                            }
                            env.setLinearLevel(g)
                        } else {
                            gains[k &* 8 &+ v] = env.next(p)
                            k += 1
                        }
                    }
                    voices[v].envelope = env
                }
                while k < n {
                    gains[k &* 8 &+ v] = 0
                    k += 1
                }
            }
            let o = out + start
            if let pitch {
                let shifted = pitch + start
                for k in 0..<n {
                    // Clamped by compare and blend: the generic `clamped` stayed two out-of-line calls per sample.
                    let f = base + shifted[k]
                    let low = f.replacing(with: minimum, where: f .< minimum)
                    lanes.setFrequenciesDeferringResiduals(low.replacing(with: maximum, where: low .> maximum))
                    o[k] = Self.sum(Shape.nextAfterDeferredFrequencies(&lanes) * UnsafeRawPointer(gains + k &* 8).loadUnaligned(as: Vector.self))
                }
            } else {
                for k in 0..<n {
                    o[k] = Self.sum(Shape.next(&lanes) * UnsafeRawPointer(gains + k &* 8).loadUnaligned(as: Vector.self))
                }
            }
            start += n
        }
        let ended = lanes.phase, endHz = lanes.frequencies
        for v in 0..<Self.voiceCount where active & (1 << UInt8(v)) != 0 {
            voices[v].oscillator.resetPhase(to: ended[v])
            if pitch != nil { voices[v].oscillator.setFrequency(endHz[v]) }
        }
        self.lanes = lanes
    }

    /// The sum of the eight lanes, folding halves (the generic `sum()` may stay an out-of-line loop).
    @inline(__always)
    private static func sum(_ v: BandLimitedOscillatorLanes.Vector) -> Float {
        let four = v.lowHalf + v.highHalf
        let two = four.lowHalf + four.highHalf
        return two[0] + two[1]
    }

    /// Voices busy (held, released or leaving).
    var busyCount: Int { voices.reduce(0) { $0 + ($1.state == .free ? 0 : 1) } }
    /// Voices producing sound.
    var soundingCount: Int { voices.reduce(0) { $0 + ($1.envelope.isActive || $1.hasPending ? 1 : 0) } }
}

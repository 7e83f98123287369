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
    /// Notes that took a voice from a sounding note.
    private(set) var stolenCount = 0

    init() {
        voices = .allocate(capacity: Self.voiceCount)
        voices.initialize(repeating: HiSynthVoice())
    }

    deinit {
        voices.deinitialize()
        voices.deallocate()
    }

    func prepare(sampleRate: Double) {
        self.sampleRate = sampleRate
        let spec = ProcessSpec(sampleRate: sampleRate, maximumBlockSize: 1)
        for v in voices.indices { voices[v].oscillator.prepare(spec) }
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
    }

    /// Starts `note` (0…127).
    func noteOn(_ note: UInt8, _ p: HiSynthEnvelope.Parameters) {
        clock &+= 1
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
        var anyActive = false
        for v in voices.indices where voices[v].envelope.isActive || voices[v].hasPending {
            if !anyActive {
                scratch.update(repeating: 0, count: count)
                anyActive = true
            }
            voices[v].render(into: scratch, pitch: pitch, count: count, p)
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

    /// Voices busy (held, released or leaving).
    var busyCount: Int { voices.reduce(0) { $0 + ($1.state == .free ? 0 : 1) } }
    /// Voices producing sound.
    var soundingCount: Int { voices.reduce(0) { $0 + ($1.envelope.isActive || $1.hasPending ? 1 : 0) } }
}

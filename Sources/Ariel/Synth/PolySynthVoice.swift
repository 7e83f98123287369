import Touchstone

/// One voice of `PolySynth`: oscillator → envelope → gain, pitch from a glide times the shared
/// pitch modulation (bend, vibrato). A stolen voice fades out (`ADSR.kill`) and then starts the
/// note waiting for it (`pending`), at the very sample the fade ends.
@usableFromInline
struct PolySynthVoice {
    /// What a voice will play once its steal fade has finished.
    @usableFromInline
    struct Start {
        var hz: Double
        var glideFromHz: Double
        var glideSeconds: Double
        var gain: Float
        var waveform: PolySynthSettings.Waveform
        var released = false
    }

    @usableFromInline var oscillator = BandLimitedOscillator(waveform: .saw, frequency: 440)
    @usableFromInline var envelope = ADSR()
    @usableFromInline var glide = Glide()
    @usableFromInline var waveform: PolySynthSettings.Waveform = .saw
    /// Velocity × waveform level × voice level, glided over 5 ms when a retrigger changes it.
    @usableFromInline var gain = SmoothedParameter(initialValue: 0, style: .linear, rampTime: 0.005)
    /// Fixed place in the stereo field, −1…1 (scaled by the spread setting).
    @usableFromInline var pan: Float = 0
    /// The key is down (false once released, even while the pedal keeps the note).
    @usableFromInline var keyDown = false
    /// Released while its channel's sustain pedal was down: the pedal keeps it.
    @usableFromInline var sustained = false
    @usableFromInline var pending: Start?

    @usableFromInline var isSounding: Bool { envelope.isActive || pending != nil }

    mutating func prepare(_ spec: ProcessSpec) {
        oscillator.prepare(spec)
        envelope.prepare(spec)
        glide.prepare(spec)
        gain.prepare(sampleRate: spec.sampleRate)
        reset()
    }

    mutating func reset() {
        envelope.reset()
        glide.reset()
        gain.snap(to: 0)
        keyDown = false
        sustained = false
        pending = nil
    }

    /// Starts `start` now (the voice is silent, or the caller accepts the restart).
    @usableFromInline
    mutating func begin(_ start: Start) {
        waveform = start.waveform
        if start.glideSeconds > 0 {
            glide.mode = .time(start.glideSeconds)
            glide.jump(to: start.glideFromHz)
            glide.setTarget(frequency: start.hz)
        } else {
            glide.mode = .off
            glide.jump(to: start.hz)
        }
        if !envelope.isActive { gain.snap(to: start.gain) } else { gain.setTarget(start.gain) }
        envelope.gateOn()
        if start.released { envelope.gateOff() }
        pending = nil
    }

    /// Closes the gate (or marks the waiting note as released).
    @usableFromInline
    mutating func release() {
        keyDown = false
        sustained = false
        if pending != nil { pending!.released = true } else { envelope.gateOff() }
    }

    /// Adds this voice's samples to `mid` and `pan`-weighted to `side` for `count` frames;
    /// `ratio[i]` multiplies the pitch (bend and vibrato).
    @usableFromInline
    mutating func render(
        mid: UnsafeMutablePointer<Float>, side: UnsafeMutablePointer<Float>,
        ratio: UnsafePointer<Float>, count: Int
    ) {
        var voice = self                  // local copy: stores through the buffers could alias `self`
        var i = 0
        while i < count {
            if !voice.envelope.isActive {
                guard let start = voice.pending else { break }
                voice.begin(start)
            }
            // Render up to the end of the block, or until the envelope goes idle.
            switch voice.waveform {
            case .sine: voice.renderRun(SineShape.self, mid: mid, side: side, ratio: ratio, from: &i, to: count)
            case .saw: voice.renderRun(SawShape.self, mid: mid, side: side, ratio: ratio, from: &i, to: count)
            case .triangle: voice.renderRun(TriangleShape.self, mid: mid, side: side, ratio: ratio, from: &i, to: count)
            case .square: voice.renderRun(SquareShape.self, mid: mid, side: side, ratio: ratio, from: &i, to: count)
            }
        }
        self = voice
    }

    /// Renders from `i` until `end` or until the envelope goes idle, in the waveform `Shape`.
    @inline(__always)
    mutating func renderRun<Shape: OscillatorShape>(
        _ shape: Shape.Type, mid: UnsafeMutablePointer<Float>, side: UnsafeMutablePointer<Float>,
        ratio: UnsafePointer<Float>, from i: inout Int, to end: Int
    ) {
        let p = pan
        while i < end && envelope.isActive {
            oscillator.setFrequency(glide.nextSample() * ratio[i])
            let y = Shape.next(&oscillator) * envelope.nextSample() * gain.next()
            mid[i] += y
            side[i] += y * p
            i += 1
        }
    }
}

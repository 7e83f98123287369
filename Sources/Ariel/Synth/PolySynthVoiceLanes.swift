import Touchstone

/// Eight `PolySynthVoice`s stepped side by side in SIMD lanes for one block: oscillators
/// (`BandLimitedOscillatorLanes`), envelopes (`ADSRLanes`), pitch, gain and pan as vectors.
///
/// The scalar voices stay the owners of every note event and of the allocator's view: a block loads
/// them into lanes (`load`), steps the lanes, and writes the phases and levels back (`store`). Rare
/// per-voice work happens on the scalar voice at the exact sample the scalar renderer would do it: a
/// gliding pitch or a moving gain is stepped by the voice's own `Glide` / `SmoothedParameter`, an
/// envelope segment ends through `ADSRLanes.endSegment`, and a stolen voice whose fade has finished
/// begins its waiting note (`PolySynthVoice.begin`). An idle lane's pitch is 0, so its phase stands
/// still as the scalar voice's does.
struct PolySynthVoiceLanes {
    typealias Vector = SIMD8<Float>

    var oscillators = BandLimitedOscillatorLanes(waveform: .saw, frequencies: Vector())
    var envelopes = ADSRLanes()
    /// Oscillator frequency per lane before bend and vibrato, Hz (0 for an idle lane).
    var hz = Vector()
    /// Voice gain per lane (velocity × waveform level × voice level).
    var gains = Vector()
    /// Pan per lane, −1…1.
    var pans = Vector()
    /// Lanes whose glide is moving (bit per lane): stepped by the voice's `Glide` each sample.
    var gliding: UInt8 = 0
    /// Lanes whose gain is moving: stepped by the voice's `SmoothedParameter` each sample.
    var smoothing: UInt8 = 0
    /// Lanes whose envelope is active.
    var active: UInt8 = 0
    /// Waveform per lane as `waveCode` (0 sine, 1 saw, 2 triangle, 3 square).
    var waves = SIMD8<Int32>()

    mutating func prepare(_ spec: ProcessSpec) {
        oscillators.prepare(spec)
    }

    /// Takes voices `first..<first + count` (count ≤ 8); lanes past `count` stay idle.
    mutating func load(_ voices: UnsafeMutableBufferPointer<PolySynthVoice>, first: Int, count: Int) {
        var phases = Vector()
        active = 0; gliding = 0; smoothing = 0
        for lane in 0..<8 {
            guard lane < count else {
                envelopes.load(lane, from: ADSR())
                hz[lane] = 0
                continue
            }
            let voice = voices[first + lane]
            phases[lane] = voice.oscillator.phase
            envelopes.load(lane, from: voice.envelope)
            pans[lane] = voice.pan
            loadPitchAndGain(lane, voice)
        }
        oscillators.resetPhases(to: phases)
    }

    /// Reads a voice's pitch, gain and waveform into `lane` (after a load or a note start).
    mutating func loadPitchAndGain(_ lane: Int, _ voice: PolySynthVoice) {
        let bit: UInt8 = 1 << UInt8(lane)
        guard voice.envelope.isActive else {
            active &= ~bit; gliding &= ~bit; smoothing &= ~bit
            hz[lane] = 0
            return
        }
        active |= bit
        hz[lane] = Float(voice.glide.frequency)
        gains[lane] = voice.gain.current
        if voice.glide.isGliding { gliding |= bit } else { gliding &= ~bit }
        if voice.gain.isSmoothing { smoothing |= bit } else { smoothing &= ~bit }
        waves[lane] = Self.waveCode(voice.waveform)
    }

    /// Writes phases and envelope levels back into the voices.
    func store(_ voices: UnsafeMutableBufferPointer<PolySynthVoice>, first: Int, count: Int) {
        let phases = oscillators.phase
        for lane in 0..<count {
            voices[first + lane].oscillator.resetPhase(to: phases[lane])
            envelopes.store(lane, into: &voices[first + lane].envelope)
        }
    }

    /// Whether every active lane has the same waveform; that waveform (or nil when mixed or none).
    var uniformWave: PolySynthSettings.Waveform? {
        var seen: UInt8 = 0
        var bits = active
        while bits != 0 {
            let lane = bits.trailingZeroBitCount
            seen |= 1 << UInt8(waves[lane])
            bits &= bits - 1
        }
        switch seen {
        case 1: return .sine
        case 2: return .saw
        case 4: return .triangle
        case 8: return .square
        default: return nil
        }
    }

    /// A waveform's number in `waves`.
    static func waveCode(_ waveform: PolySynthSettings.Waveform) -> Int32 {
        switch waveform {
        case .sine: 0
        case .saw: 1
        case .triangle: 2
        case .square: 3
        }
    }

    /// Whether any lane of `mask` is set (halves folded with vector ORs, as Touchstone's lanes do).
    @inline(__always)
    static func anyLane(_ mask: SIMDMask<SIMD8<Int32>>) -> Bool {
        let lanes = SIMD8<Int32>(repeating: 0).replacing(with: -1, where: mask)
        let four = lanes.lowHalf | lanes.highHalf
        let two = four.lowHalf | four.highHalf
        return (two.x | two.y) != 0
    }
}

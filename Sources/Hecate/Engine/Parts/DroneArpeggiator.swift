import Touchstone

/// The arpeggiator: an 8-step pattern that opens one active chord tone per step, in rising pitch
/// order, at a note division of the tempo. Its output is a gate target per tone bank (1 open, 0 shut),
/// which the tone banks smooth over `DroneSynthEngine.arpGateTime`.
///
/// A tone is active while its face level is above `DroneSynthEngine.arpThreshold`; step k opens the
/// (k mod active count)-th active tone, for the first `DroneSynthEngine.arpGateLength` of the step.
/// Off, every gate stays open. Steps are counted in samples (a phase per step), so the pattern stays
/// on the tempo whatever the block size.
struct DroneArpeggiator {
    /// Whether the pattern runs.
    private(set) var isOn = false
    /// The pattern's step, 0…7.
    private(set) var step = 0
    /// Gate target per tone bank (lane = bank; lanes 6 and 7 are unused and shut).
    private(set) var gateTargets = SIMD8<Float>(1, 1, 1, 1, 1, 1, 0, 0)
    /// Step length in quarter-note beats.
    private var divisionBeats = 0.5
    /// Position within the step, 0…1, and its change per sample.
    private var stepPhase = 0.0
    private var stepIncrement = 0.0
    /// A new step began: its tone is chosen at the next sample.
    private var stepStarted = false
    /// The bank the current step opened.
    private var currentBank = 0

    /// Step length as a note division.
    mutating func setDivision(_ division: NoteDivision) { divisionBeats = division.beats }

    /// Steps per sample for `bpm` (quarter notes per minute) at `sampleRate` (Hz).
    mutating func setTempo(bpm: Double, sampleRate: Double) {
        stepIncrement = bpm / 60 / divisionBeats / sampleRate
    }

    /// Turns the pattern on (from step 0, if it was off) or off (every gate opens).
    mutating func turn(on: Bool, faceLevels: SIMD8<Float>) {
        if on && !isOn {
            step = 0
            stepPhase = 0
            stepStarted = true
        }
        isOn = on
        updateGateTargets(faceLevels: faceLevels)
    }

    /// Advances one sample: starts the next step or shuts the gate at the end of the open part.
    @inline(__always)
    mutating func advance(faceLevels: SIMD8<Float>) {
        stepPhase += stepIncrement
        if stepPhase >= 1 {
            stepPhase -= 1
            step = (step + 1) & 7
            stepStarted = true
        }
        if stepStarted {
            stepStarted = false
            updateGateTargets(faceLevels: faceLevels)
        } else if stepPhase >= DroneSynthEngine.arpGateLength && gateTargets[currentBank] > 0 {
            gateTargets[currentBank] = 0
        }
    }

    /// Re-chooses the step's tone from the face levels (0…1 per bank), as when the face changes
    /// which tones are active.
    mutating func updateGateTargets(faceLevels: SIMD8<Float>) {
        guard isOn else {
            for i in 0..<6 { gateTargets[i] = 1 }
            return
        }
        let threshold = DroneSynthEngine.arpThreshold
        // The step's tone: the (step mod active count)-th active tone in rising pitch order.
        var active = 0
        for k in 0..<6 where faceLevels[Self.pitchOrderBank(k)] > threshold { active += 1 }
        var chosen = 0
        if active > 0 {
            var wanted = step % active
            for k in 0..<6 {
                let bank = Self.pitchOrderBank(k)
                guard faceLevels[bank] > threshold else { continue }
                if wanted == 0 {
                    chosen = bank
                    break
                }
                wanted -= 1
            }
        }
        currentBank = chosen
        let open: Float = stepPhase < DroneSynthEngine.arpGateLength ? 1 : 0
        for i in 0..<6 { gateTargets[i] = i == chosen && active > 0 ? open : 0 }
    }

    /// Bank index of the k-th tone in rising pitch order (root, third, fifth, seventh, octave, ninth).
    @inline(__always)
    static func pitchOrderBank(_ k: Int) -> Int {
        switch k {
        case 0: 0
        case 1: 1
        case 2: 2
        case 3: 3
        case 4: 5
        default: 4
        }
    }
}

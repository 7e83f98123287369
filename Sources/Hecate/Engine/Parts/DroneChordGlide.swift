import Touchstone

/// Chord and key changes as glides: every voice's frequency follows its target per sample through a
/// one-pole over `DroneSynthEngine.glideTime` (in Hz, so a glide bends like a portamento, fast at the
/// start), and snaps onto the target once every voice is within 0.1 %, after which the oscillators
/// run at fixed frequencies again (the engine's fast path).
struct DroneChordGlide {
    /// The six tone banks' frequencies (lanes 0…5; lanes 6 and 7 stay at 0 Hz), current and target.
    private(set) var tones = SIMD8<Float>(220, 220, 220, 220, 220, 220, 0, 0)
    private var toneTargets = SIMD8<Float>(220, 220, 220, 220, 220, 220, 0, 0)
    /// Sub, drone root and drone fifth (lanes 0, 1, 2; lane 3 stays at 0 Hz), current and target.
    private var sines = SIMD4<Float>(65, 65, 98, 0)
    private var sineTargets = SIMD4<Float>(65, 65, 98, 0)
    /// The bass voice, current and target, in Hz.
    private var bass: Float = 65
    private var bassTarget: Float = 65
    /// One-pole coefficient per sample.
    private var coefficient: Float = 1
    /// Every voice sits on its target: nothing moves until the next retune.
    private(set) var isSettled = false

    mutating func prepare(sampleRate: Double) {
        coefficient = OnePoleSmoother.coefficient(timeConstant: DroneSynthEngine.glideTime, sampleRate: sampleRate)
    }

    /// Glides towards the voicing of one key and chord.
    mutating func retune(to row: DroneVoicingTable.Row) {
        toneTargets = row.tones
        sineTargets = SIMD4(row.sub, row.droneRoot, row.droneFifth, 0)
        bassTarget = row.bass
        isSettled = false
    }

    /// One sample of every glide, passed on to the oscillators.
    @inline(__always)
    mutating func advance(tones banks: inout DroneToneBanks, pedals: inout DronePedalVoices) {
        tones += (toneTargets - tones) * coefficient
        banks.banks.setFrequencies(tones)
        sines += (sineTargets - sines) * coefficient
        bass = rtOnePole(bass, target: bassTarget, coefficient: coefficient)
        pedals.setFrequencies(sines: sines, bass: bass)
    }

    /// Snaps the glides once the tones, the drone root and the bass are within 0.1 % of their targets
    /// (the sub and the fifth move in proportion with them).
    mutating func settleIfClose(tones banks: inout DroneToneBanks, pedals: inout DronePedalVoices) {
        guard !isSettled else { return }
        var settled = true
        for i in 0..<6 where abs(tones[i] - toneTargets[i]) > 1e-3 * toneTargets[i] { settled = false }
        if abs(sines[1] - sineTargets[1]) > 1e-3 * sineTargets[1] { settled = false }
        if abs(bass - bassTarget) > 1e-3 * bassTarget { settled = false }
        if settled { snap(tones: &banks, pedals: &pedals) }
    }

    /// Every voice jumps to its target.
    mutating func snap(tones banks: inout DroneToneBanks, pedals: inout DronePedalVoices) {
        tones = toneTargets
        sines = sineTargets
        bass = bassTarget
        banks.banks.setFrequencies(tones)
        pedals.setFrequencies(sines: sines, bass: bass)
        isSettled = true
    }
}

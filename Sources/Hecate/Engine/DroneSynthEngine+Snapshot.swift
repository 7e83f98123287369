import Foundation

extension DroneSynthEngine {
    /// The display state at the end of the last block. Called by `EngineHost` on the audio thread
    /// about 30 times a second; each call folds the RMS since the previous call into the smoothed RMS.
    public func snapshot() -> DroneSynthSnapshot {
        typealias Slot = DroneControls.Slot
        var s = DroneSynthSnapshot()
        let shown = tones.levels * tones.gates
        s.root = shown[0]
        s.third = shown[1]
        s.fifth = shown[2]
        s.seventh = shown[3]
        s.ninth = shown[4]
        s.octave = shown[5]
        s.bass = pedals.bassLevel
        s.tremoloPhase = Float(effects.tremolo.phase)
        s.beatPhase = Float(beatPhase)
        s.breathPhase = Float(breathing.lfo.outputPhase)
        s.shimmer = tones.levels[5]
        let low = max(controls.preset[Slot.cutoffMin], 20)
        let high = max(controls.preset[Slot.cutoffMax], low * 1.0001)
        let sweep = Foundation.log(max(effects.lowPass.cutoff, 1) / low) / Foundation.log(high / low)
        s.filterSweep = sweep.isFinite ? min(max(sweep, 0), 1) : 0
        let meters = output.takeMeters()
        s.rms = meters.rms
        s.peak = meters.peak
        s.faceFade = fade.gain
        s.arpeggiatorStep = arpeggiator.step
        s.arpeggiatorOn = arpeggiator.isOn
        s.key = keyIndex
        s.chord = degreeIndex + 1
        s.limiterCeiling = output.limiter.ceiling
        s.gainReduction = output.limiter.gainReductionDecibels
        return s
    }
}

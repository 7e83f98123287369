import Foundation

extension DroneSynthEngine {
    /// The display state at the end of the last block. Called by `EngineHost` on the audio thread
    /// about 30 times a second; each call folds the RMS since the previous call into the smoothed RMS.
    public func snapshot() -> DroneSynthSnapshot {
        var s = DroneSynthSnapshot()
        s.root = levels[0] * gates[0]
        s.third = levels[1] * gates[1]
        s.fifth = levels[2] * gates[2]
        s.seventh = levels[3] * gates[3]
        s.ninth = levels[4] * gates[4]
        s.octave = levels[5] * gates[5]
        s.bass = bassLevel
        s.tremoloPhase = Float(tremolo.phase)
        s.breathPhase = Float(breath.outputPhase)
        s.shimmer = levels[5]
        let low = max(presetValues[Slot.cutoffMin], 20)
        let high = max(presetValues[Slot.cutoffMax], low * 1.0001)
        let sweep = Foundation.log(max(lowPass.cutoff, 1) / low) / Foundation.log(high / low)
        s.filterSweep = sweep.isFinite ? min(max(sweep, 0), 1) : 0
        let newRMS = framesSinceSnapshot > 0 ? Float((sumOfSquares / Double(framesSinceSnapshot)).squareRoot()) : 0
        smoothedRMS = 0.7 * smoothedRMS + 0.3 * newRMS
        sumOfSquares = 0
        framesSinceSnapshot = 0
        s.rms = smoothedRMS
        s.peak = peakSinceSnapshot
        peakSinceSnapshot = 0
        s.faceFade = faceFade
        s.arpeggiatorStep = arpStep
        s.arpeggiatorOn = arpEnabled
        s.limiterCeiling = limiter.ceiling
        s.gainReduction = limiter.gainReductionDecibels
        return s
    }
}

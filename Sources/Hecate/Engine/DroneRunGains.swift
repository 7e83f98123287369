/// What stays fixed through one control run of Hecate's voice (at most
/// `DroneSynthEngine.controlInterval` samples): the mixing gains from the smoothed preset numbers and
/// the breathing line.
struct DroneRunGains {
    /// Sub-bass, bass voice and drone gains: the preset's level (0…1) × the voice's mixing gain.
    var subLevelGain: Float
    var bassLevelGain: Float
    var droneGain: Float
    /// The room's wet mix, 0…1 (the dry gain is 1 − wet).
    var wetMix: Float
    /// Breathing depth 0…0.5 and the LFO's line over the run (value at the first sample, step per sample).
    var breathDepth: Float
    var breathStart: Float
    var breathStep: Float

    /// The gains from the smoothed `controls` and the run's `breath`.
    @inline(__always)
    init(_ controls: DroneControls, _ breath: DroneBreathing.Run) {
        typealias Slot = DroneControls.Slot
        let p = controls.preset
        subLevelGain = p[Slot.subLevel] * DroneSynthEngine.subGain
        bassLevelGain = p[Slot.bassLevel] * DroneSynthEngine.bassGain
        droneGain = p[Slot.droneLevel] * DroneSynthEngine.droneGain
        wetMix = p[Slot.reverbMix]
        breathDepth = p[Slot.breathDepth]
        breathStart = breath.start
        breathStep = breath.step
    }

    /// The breathing gain at sample `n` of the run: 1 at the top of a breath, 1 − depth at the bottom.
    @inline(__always)
    func breathGain(at n: Int) -> Float {
        1 - breathDepth * 0.5 * (1 - (breathStart + breathStep * Float(n)))
    }
}

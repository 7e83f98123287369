/// The buffers between the voice stage and the effects, `capacity` samples each: the mono voice
/// (filtered in place), the drone (added after the effects), per sample the dry and wet gains of the
/// room (the wet one dips during a pack change), and the root's level per sample, which the tone
/// banks hand to the sub-bass. Sized in `prepare`, never on the audio thread.
final class DroneStageBuffers {
    @exclusivity(unchecked) private(set) var voice: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) private(set) var drone: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) private(set) var dryGains: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) private(set) var wetGains: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) private(set) var rootLevels: UnsafeMutablePointer<Float>
    /// Samples each buffer holds (≥ 1).
    @exclusivity(unchecked) private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        voice = Self.buffer(capacity)
        drone = Self.buffer(capacity)
        dryGains = Self.buffer(capacity)
        wetGains = Self.buffer(capacity)
        rootLevels = Self.buffer(capacity)
    }

    deinit {
        for p in [voice, drone, dryGains, wetGains, rootLevels] { p.deallocate() }
    }

    /// Grows every buffer to `capacity` samples if it is shorter (never shrinks).
    func reserve(_ capacity: Int) {
        guard capacity > self.capacity else { return }
        for p in [voice, drone, dryGains, wetGains, rootLevels] { p.deallocate() }
        self.capacity = capacity
        voice = Self.buffer(capacity)
        drone = Self.buffer(capacity)
        dryGains = Self.buffer(capacity)
        wetGains = Self.buffer(capacity)
        rootLevels = Self.buffer(capacity)
    }

    private static func buffer(_ count: Int) -> UnsafeMutablePointer<Float> {
        let p = UnsafeMutablePointer<Float>.allocate(capacity: count)
        p.initialize(repeating: 0, count: count)
        return p
    }
}

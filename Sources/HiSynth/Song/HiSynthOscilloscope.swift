import Touchstone

/// The oscilloscope of the rack (spec §3): the last 1024 output samples, every 10th drawn as a line
/// with y = s·h/2 + h/2. Reads `HiSynthEngine.scope` (a lock-free ring the audio thread writes) from a
/// display thread; allocates, never on the audio thread.
public enum HiSynthOscilloscope {
    /// Samples shown.
    public static let length = 1024
    /// Every `stride`-th sample is a point of the line.
    public static let stride = 10

    /// The points to draw in a view `width` × `height`: x evenly over the width, y = s·h/2 + h/2.
    public static func points(from scope: SampleRingBuffer, width: Double, height: Double) -> [(x: Double, y: Double)] {
        let samples = scope.latest(length)
        let picked = Swift.stride(from: 0, to: samples.count, by: stride).map { samples[$0] }
        guard picked.count > 1 else { return [] }
        return picked.enumerated().map { i, s in
            (Double(i) / Double(picked.count - 1) * width, Double(max(-1, min(1, s))) * height / 2 + height / 2)
        }
    }
}

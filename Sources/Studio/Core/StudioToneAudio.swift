import Foundation
import Touchstone

/// The test tone's sound: a sine whose frequency and level glide to their targets (20 ms one-pole
/// smoothing, so that no change clicks). Control reaches it through a command ring only.
public final class StudioToneAudio: StudioAudioEngine, @unchecked Sendable {
    struct Target {
        var frequency: Double
        /// Linear amplitude 0…1.
        var amplitude: Double
    }

    private let commands = SPSCRingBuffer<Target>(minimumCapacity: 256)
    private var target = Target(frequency: 1000, amplitude: 0)
    private var frequency = 1000.0
    private var amplitude = 0.0
    private var phase = 0.0
    private var sampleRate = 48_000.0
    private var smoothing = 0.0

    public init() { prepare(sampleRate: 48_000, maximumFrames: 1024) }

    /// Control thread: where the tone goes (Hz 20…20000, linear amplitude 0…0.5). False when the ring is full.
    @discardableResult
    public func send(frequency: Double, amplitude: Double) -> Bool {
        commands.push(Target(frequency: min(20_000, max(20, frequency)), amplitude: min(0.5, max(0, amplitude))))
    }

    public func prepare(sampleRate: Double, maximumFrames: Int) {
        self.sampleRate = sampleRate
        smoothing = 1 - exp(-1 / (0.020 * sampleRate))
    }

    public func render(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) {
        while let t = commands.pop() { target = t }
        let k = smoothing
        let twoPi = 2 * Double.pi
        for i in 0..<frameCount {
            frequency += (target.frequency - frequency) * k
            amplitude += (target.amplitude - amplitude) * k
            phase += twoPi * frequency / sampleRate
            if phase >= twoPi { phase -= twoPi }
            let s = Float(amplitude * sin(phase))
            left[i] = s
            right[i] = s
        }
    }
}

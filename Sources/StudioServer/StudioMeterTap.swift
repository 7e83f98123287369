import Foundation
import Oberon
import Studio
import Synchronization
import Touchstone

/// Between the audio thread and the panels: the driver pushes each rendered period (stereo) into a
/// lock-free ring; the panel ticker drains it at 30 Hz into Oberon's meters (peak with its fall and hold,
/// RMS over 300 ms), a scope window and a spectrum, and encodes the binary frames. With nothing pushed
/// (`--audio none`, a stalled driver) the meters fall to silence.
public final class StudioMeterTap: @unchecked Sendable {
    /// Samples per scope frame and FFT size.
    public static let scopeLength = 512
    public static let fftSize = 2048
    /// Spectrum bars, log-spaced 40 Hz … 16 kHz.
    public static let bars = 48

    private let ring = SPSCRingBuffer<Float>(minimumCapacity: 96_000)  // 0.5 s of stereo at 96 kHz, interleaved
    private let renderRate = Atomic<UInt64>(48_000.0.bitPattern)
    private var peakL: PeakMeter
    private var peakR: PeakMeter
    private var rmsL: RMSMeter
    private var rmsR: RMSMeter
    private var history: [Float]
    private var historyIndex = 0
    private let analyzer = SpectrumAnalyzer(size: StudioMeterTap.fftSize)
    private var magnitudes: [Float]
    private var drained: [Float] = []
    /// Seconds of silence fed since the last pushed audio.
    private var silentSeconds = 0.0
    /// After this much silence every meter has fallen to its floor and the history is zeros: more silence
    /// changes nothing, so an idle studio stops computing it (peak fall and RMS window are shorter).
    static let settledAfterSilence = 10.0
    public private(set) var sampleRate: Double

    public init(sampleRate: Double = 48_000) {
        self.sampleRate = sampleRate
        renderRate.store(sampleRate.bitPattern, ordering: .relaxed)
        peakL = PeakMeter(sampleRate: sampleRate)
        peakR = PeakMeter(sampleRate: sampleRate)
        rmsL = RMSMeter(sampleRate: sampleRate)
        rmsR = RMSMeter(sampleRate: sampleRate)
        history = [Float](repeating: 0, count: Self.fftSize)
        magnitudes = [Float](repeating: 0, count: Self.fftSize / 2 + 1)
    }

    /// The driver's rate (its `prepare` thread); the panel thread rebuilds the meters for it.
    public func noteSampleRate(_ rate: Double) { renderRate.store(rate.bitPattern, ordering: .relaxed) }

    /// Audio thread: one period, interleaved into the ring (dropped whole when the reader is behind, so that the
    /// ring always holds whole left/right pairs and the reader never starts on a right sample).
    public func push(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frameCount: Int) {
        // Only this thread adds, so the room seen here can only grow before the pushes below.
        guard ring.capacity - ring.count >= 2 * frameCount else { return }
        for i in 0..<frameCount {
            _ = ring.push(left[i])
            _ = ring.push(right[i])
        }
    }

    /// Panel thread: drains what arrived; when nothing did for `elapsed` seconds, feeds silence of that
    /// length so that the ballistics fall as they would. While no page shows a panel (`shown` false), only the
    /// newest ``fftSize`` frames of what arrived (43 ms at 48 kHz, the scope's and spectrum's whole window) go
    /// through the meters: a page that opens a panel sees the scope and spectrum of now at once, and the meters
    /// settle within their 300 ms window; a studio that is only listened to does not meter every sample.
    public func update(silentFor elapsed: Double, shown: Bool = true) {
        let rate = Double(bitPattern: renderRate.load(ordering: .relaxed))
        if rate != sampleRate, rate > 0 {
            sampleRate = rate
            peakL = PeakMeter(sampleRate: rate)
            peakR = PeakMeter(sampleRate: rate)
            rmsL = RMSMeter(sampleRate: rate)
            rmsR = RMSMeter(sampleRate: rate)
        }
        // Local copies in the per-sample loops: a class's stored property there costs an exclusivity check per
        // sample (most of this method's time, measured, at 48 000 frames a second of a listening studio).
        var samples: [Float] = []
        swap(&samples, &drained)
        samples.removeAll(keepingCapacity: true)
        // Whole pairs only (the render thread may be between a period's left and right samples now): the rest
        // waits for the next tick, so every update starts on a left sample.
        var take = ring.count & ~1
        if !shown, take > 2 * Self.fftSize {
            // Unseen, the older part is given back to the ring in one step instead of being read sample by sample
            // (a listening studio's 4 Hz tick finds about 24 000 samples each time and keeps 4 096).
            take -= ring.discard(take - 2 * Self.fftSize)
        }
        samples.reserveCapacity(take)
        for _ in 0..<take {
            guard let sample = ring.pop() else { break }
            samples.append(sample)
        }
        if samples.isEmpty {
            guard silentSeconds < Self.settledAfterSilence else {
                drained = samples
                return
            }
            silentSeconds += max(0, elapsed)
            let frames = max(0, Int(elapsed * sampleRate))
            samples.append(contentsOf: repeatElement(0, count: 2 * frames))
        } else {
            silentSeconds = 0
        }
        let frames = samples.count / 2
        guard frames > 0 else {
            drained = samples
            return
        }
        var left = [Float](repeating: 0, count: frames), right = left
        var index = historyIndex
        samples.withUnsafeBufferPointer { interleaved in
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    history.withUnsafeMutableBufferPointer { h in
                        for i in 0..<frames {
                            l[i] = interleaved[2 * i]
                            r[i] = interleaved[2 * i + 1]
                            h[index] = 0.5 * (l[i] + r[i])
                            index += 1
                            if index == h.count { index = 0 }
                        }
                    }
                }
            }
        }
        historyIndex = index
        drained = samples
        left.withUnsafeBufferPointer { peakL.process($0); rmsL.process($0) }
        right.withUnsafeBufferPointer { peakR.process($0); rmsR.process($0) }
    }

    /// Peak L/R (with fall and hold), RMS L/R, linear.
    public var meters: [Float] {
        [peakL.level, peakR.level, Float(rmsL.meanSquare.squareRoot()), Float(rmsR.meanSquare.squareRoot())]
    }

    /// The last ``scopeLength`` samples, oldest first.
    public var scope: [Float] {
        (0..<Self.scopeLength).map { history[(historyIndex - Self.scopeLength + $0 + history.count) % history.count] }
    }

    /// ``bars`` magnitudes in dBFS (a full-scale sine reads about 0 dB), log-spaced.
    public var spectrum: [Float] {
        let ordered = (0..<history.count).map { history[(historyIndex + $0) % history.count] }
        ordered.withUnsafeBufferPointer { input in
            magnitudes.withUnsafeMutableBufferPointer { analyzer.magnitudes(of: input, into: $0) }
        }
        let low = 40.0, high = min(16_000, sampleRate / 2 * 0.95)
        return (0..<Self.bars).map { b in
            let f0 = low * pow(high / low, Double(b) / Double(Self.bars))
            let f1 = low * pow(high / low, Double(b + 1) / Double(Self.bars))
            let k0 = max(1, Int(f0 * Double(Self.fftSize) / sampleRate))
            let k1 = max(k0 + 1, Int(f1 * Double(Self.fftSize) / sampleRate))
            var peak: Float = 0
            for k in k0..<min(k1, magnitudes.count) { peak = max(peak, magnitudes[k]) }
            return Float(20 * log10(Double(max(peak, 1e-7))))
        }
    }
}

import Foundation

/// Turns audio into haptics as haptics.md §5 describes, block by block, on the audio clock.
///
/// Method (numbers chosen within the ranges §5 gives):
/// 1. Mono mix, 50 Hz one-pole high-pass (no rumble below what a phone can play).
/// 2. Every hop of 10 ms, over the last 1024 samples (21 ms at 48 kHz) with a Hann window: RMS
///    (loudness) and a magnitude spectrum.
/// 3. Sharpness from the spectral centroid c: S = log(c / 100 Hz) / log(80), clamped to 0…1 (100 Hz → 0,
///    8 kHz → 1; a log scale, as pitch is heard).
/// 4. Onsets: spectral flux (sum over bins of the rise in log(1 + 1000·|X|)) against an adaptive
///    threshold, 1.5 × the mean flux of the last 0.5 s plus 10 % of the loudest flux so far (so the wobble after a strong attack is not an onset); a peak
///    (higher than its neighbours, one hop of look-ahead) above it is an onset, at least 50 ms after the
///    previous one. Its strength is its flux over the loudest flux so far; its time is the middle of
///    the hop's window minus a quarter window, where a sharp attack's flux peaks.
/// 5. Each onset is a `HapticTransient`: intensity √strength, sharpness from the centroid then.
///
/// Times are frames of the audio clock (the `frame` given with each block) ÷ sample rate, so live
/// events carry the time the sound they follow was rendered at. Not for the audio thread (it appends
/// to arrays): feed it from a ring the audio thread writes, or after an offline render's blocks.
public final class AudioHapticTracker {
    /// One analysis hop.
    public struct Frame: Sendable, Hashable {
        /// Seconds on the audio clock (the window's middle).
        public var time: Double
        /// RMS of the window, linear full scale.
        public var rms: Double
        /// Sharpness 0…1 from the spectral centroid.
        public var sharpness: Double
    }

    /// One detected onset.
    public struct Onset: Sendable, Hashable {
        public var time: Double
        /// 0…1 relative to the strongest onset so far.
        public var strength: Double
        public var sharpness: Double
    }

    public static let windowSize = 1024
    public static let hopTime = 0.010
    public static let minimumOnsetGap = 0.050
    public static let thresholdHistory = 0.5
    public static let thresholdFactor = 1.5
    public static let thresholdFloor = 0.1

    public let sampleRate: Double
    let hop: Int
    let spectrum = SpectrumAnalyzer(size: AudioHapticTracker.windowSize)
    var ring: [Float]
    var written: Int64 = 0
    var nextHopEnd: Int64
    var previousLog: [Float]
    var fluxHistory: [Double] = []
    var maxFlux = 0.0
    var pending: (time: Double, flux: Double, sharpness: Double)?
    var beforePending = 0.0
    var lastOnset = -Double.infinity
    var highPassState: Float = 0
    var previousInput: Float = 0
    let highPassCoefficient: Float
    var frameScratch: [Float]

    /// Every hop analysed so far (only the latest when `keepsHistory` is false).
    public private(set) var frames: [Frame] = []
    /// Every onset found so far (when `keepsHistory` is false: those not yet drained).
    public private(set) var onsets: [Onset] = []
    var drained = 0
    /// Whether frames and drained onsets are kept (offline, for `AudioHaptics`); live trackers that run
    /// for hours pass false, so memory stays bounded.
    public let keepsHistory: Bool

    /// - Parameters:
    ///   - sampleRate: Hz, 8 000…384 000.
    ///   - keepsHistory: keep every frame and onset (offline analysis) or only what is not yet drained (live).
    public init(sampleRate: Double, keepsHistory: Bool = true) {
        self.keepsHistory = keepsHistory
        self.sampleRate = min(max(sampleRate.isFinite ? sampleRate : 48_000, 8_000), 384_000)
        hop = max(1, Int((Self.hopTime * self.sampleRate).rounded()))
        ring = Array(repeating: 0, count: Self.windowSize)
        nextHopEnd = Int64(Self.windowSize)
        previousLog = Array(repeating: 0, count: Self.windowSize / 2 + 1)
        highPassCoefficient = Float(exp(-2 * Double.pi * 50 / self.sampleRate))
        frameScratch = Array(repeating: 0, count: Self.windowSize)
    }

    /// Feeds a block of stereo (or mono: pass the same buffer twice) audio that starts at audio-clock
    /// frame `frame`. Blocks must follow each other without gaps; a gap restarts the analysis there.
    public func process(left: UnsafeBufferPointer<Float>, right: UnsafeBufferPointer<Float>, frame: Int64) {
        if frame != written { restart(at: frame) }
        let n = min(left.count, right.count)
        for i in 0..<n {
            let x = 0.5 * (left[i] + right[i])
            // One-pole high-pass: y[n] = a·(y[n−1] + x[n] − x[n−1]).
            let y = highPassCoefficient * (highPassState + x - previousInput)
            previousInput = x
            highPassState = y.isFinite ? y : 0
            ring[Int(written % Int64(Self.windowSize))] = highPassState
            written += 1
            if written == nextHopEnd {
                analyseHop()
                nextHopEnd += Int64(hop)
            }
        }
    }

    /// Feeds mono samples starting at `frame`.
    public func process(mono: [Float], frame: Int64) {
        mono.withUnsafeBufferPointer { process(left: $0, right: $0, frame: frame) }
    }

    func restart(at frame: Int64) {
        written = frame
        nextHopEnd = frame + Int64(Self.windowSize)
        for i in ring.indices { ring[i] = 0 }
        for i in previousLog.indices { previousLog[i] = 0 }
        pending = nil
    }

    func analyseHop() {
        let size = Self.windowSize
        let start = Int(written % Int64(size))
        var sum = 0.0
        for i in 0..<size {
            let v = ring[(start + i) % size]
            frameScratch[i] = v
            sum += Double(v) * Double(v)
        }
        let time = Double(written - Int64(size / 2)) / sampleRate
        frameScratch.withUnsafeBufferPointer { spectrum.analyse($0) }
        let mags = spectrum.magnitudes
        var weighted = 0.0, total = 0.0, flux = 0.0
        let binHz = sampleRate / Double(size)
        for k in 1..<mags.count {
            let m = Double(mags[k])
            weighted += m * Double(k) * binHz
            total += m
            let l = Float(log(1 + 1000 * m / Double(size)))
            flux += Double(max(0, l - previousLog[k]))
            previousLog[k] = l
        }
        let centroid = total > 1e-9 ? weighted / total : 100
        let sharpness = min(max(log(max(centroid, 1) / 100) / log(80), 0), 1)
        if !keepsHistory { frames.removeAll(keepingCapacity: true) }
        frames.append(Frame(time: time, rms: (sum / Double(size)).squareRoot(), sharpness: sharpness))
        detect(flux: flux, time: time, sharpness: sharpness)
    }

    func detect(flux: Double, time: Double, sharpness: Double) {
        maxFlux = max(maxFlux, flux)
        let historyCount = max(1, Int(Self.thresholdHistory / Self.hopTime))
        // The candidate from the previous hop is a peak if this hop's flux is lower.
        if let p = pending {
            if flux < p.flux {
                let mean = fluxHistory.isEmpty ? 0 : fluxHistory.reduce(0, +) / Double(fluxHistory.count)
                let threshold = Self.thresholdFactor * mean + Self.thresholdFloor * maxFlux
                let onsetTime = p.time - Double(Self.windowSize) / 4 / sampleRate
                if p.flux > threshold, p.flux > beforePending, onsetTime - lastOnset >= Self.minimumOnsetGap {
                    onsets.append(Onset(time: onsetTime, strength: maxFlux > 0 ? min(1, p.flux / maxFlux) : 0, sharpness: p.sharpness))
                    lastOnset = onsetTime
                }
                pending = nil
            } else {
                pending = nil
            }
        }
        if pending == nil, let last = fluxHistory.last, flux > last {
            pending = (time, flux, sharpness)
            beforePending = last
        }
        fluxHistory.append(flux)
        if fluxHistory.count > historyCount { fluxHistory.removeFirst(fluxHistory.count - historyCount) }
    }

    /// Transients for the onsets found since the last call (live use: play or send them as they come).
    public func drainTransients() -> [HapticEvent] {
        let events = onsets[drained...].map { HapticEvent.transient(at: $0.time, intensity: $0.strength.squareRoot(), sharpness: $0.sharpness) }
        if keepsHistory { drained = onsets.count } else { onsets.removeAll(keepingCapacity: true); drained = 0 }
        return events
    }
}

import Foundation

/// A spectrogram on a fixed grid (`columns` over the programme's length × `rows` log-spaced bands),
/// so memory does not depend on how long the programme is.
///
/// The mono mix (mean of the channels) is analysed with a Hann-windowed FFT every `hop` samples; each
/// frame's power is added to the column its centre falls in, and each band takes the largest bin power
/// within it (the nearest bin for bands narrower than a bin). Cells hold the mean over the column's
/// frames, in dBFS as `SpectrumAnalyzer` scales them (a full-scale sine reads 0 dB). Columns no frame
/// reached (programmes shorter than a window) copy their left neighbour.
public final class Spectrogram {
    /// Sample rate in Hz.
    public let sampleRate: Double
    /// Frames the programme is expected to last (sets the column width; later frames go to the last column).
    public let totalFrames: Int
    /// Time columns and frequency rows (row 0 = lowest band).
    public let columns: Int, rows: Int
    /// Lowest and highest band edge in Hz.
    public let lowestFrequency: Double, highestFrequency: Double
    /// Samples between analysis frames.
    public let hop: Int
    private let analyzer: SpectrumAnalyzer
    private var ring: [Float]
    private var frame: [Float]
    private var amplitudes: [Float]
    private var powers: [Double]
    private var frameCounts: [Int]
    private var bandLow: [Int], bandHigh: [Int]
    private var written = 0
    private var sinceLastFrame = 0

    /// - Parameters: `totalFrames` > 0; `columns` 1…8192; `rows` 1…1024; `fftSize` a power of two
    ///   (256…16 384, default 2048); bands from `lowestFrequency` (Hz, default 30) to Nyquist.
    public init(sampleRate: Double, totalFrames: Int, columns: Int, rows: Int, fftSize: Int = 2048, lowestFrequency: Double = 30) {
        self.sampleRate = sampleRate
        self.totalFrames = max(1, totalFrames)
        self.columns = min(max(columns, 1), 8192)
        self.rows = min(max(rows, 1), 1024)
        analyzer = SpectrumAnalyzer(size: fftSize, window: .hann)
        hop = min(max(self.totalFrames / self.columns, 64), fftSize / 2)
        ring = [Float](repeating: 0, count: fftSize)
        frame = [Float](repeating: 0, count: fftSize)
        amplitudes = [Float](repeating: 0, count: fftSize / 2 + 1)
        powers = [Double](repeating: 0, count: self.columns * self.rows)
        frameCounts = [Int](repeating: 0, count: self.columns)
        let nyquist = sampleRate / 2
        self.lowestFrequency = min(max(lowestFrequency, sampleRate / Double(fftSize)), nyquist / 2)
        highestFrequency = nyquist
        bandLow = []; bandHigh = []
        let binWidth = sampleRate / Double(fftSize)
        let ratio = highestFrequency / self.lowestFrequency
        for r in 0..<self.rows {
            let low = self.lowestFrequency * pow(ratio, Double(r) / Double(self.rows))
            let high = self.lowestFrequency * pow(ratio, Double(r + 1) / Double(self.rows))
            let lowBin = Int((low / binWidth).rounded())
            let highBin = max(lowBin + 1, Int((high / binWidth).rounded()))
            bandLow.append(min(lowBin, fftSize / 2))
            bandHigh.append(min(highBin, fftSize / 2 + 1))
        }
    }

    /// The centre frequency of row `r` in Hz (geometric mean of its edges).
    public func frequency(ofRow r: Int) -> Double {
        lowestFrequency * pow(highestFrequency / lowestFrequency, (Double(r) + 0.5) / Double(rows))
    }

    /// Feeds one frame per index of the channel buffers (equal lengths).
    public func process(_ channels: [UnsafeBufferPointer<Float>]) {
        guard let first = channels.first else { return }
        let size = analyzer.size
        let gain = 1 / Float(channels.count)
        for i in 0..<first.count {
            var sum: Float = 0
            for c in channels { let x = c[i]; sum += x.isFinite ? x : 0 }
            ring[written % size] = sum * gain
            written += 1
            sinceLastFrame += 1
            if sinceLastFrame >= hop && written >= size / 2 {
                sinceLastFrame = 0
                analyse(endingAt: written)
            }
        }
    }

    private func analyse(endingAt end: Int) {
        let size = analyzer.size
        for n in 0..<size {
            let index = end - size + n
            frame[n] = index >= 0 ? ring[index % size] : 0
        }
        frame.withUnsafeBufferPointer { input in
            amplitudes.withUnsafeMutableBufferPointer { analyzer.magnitudes(of: input, into: $0) }
        }
        let centre = max(0, end - size / 2)
        let column = min(columns - 1, Int(Int64(centre) * Int64(columns) / Int64(totalFrames)))
        frameCounts[column] += 1
        for r in 0..<rows {
            var largest: Float = 0
            for k in bandLow[r]..<bandHigh[r] { largest = max(largest, amplitudes[k]) }
            powers[column * rows + r] += Double(largest) * Double(largest)
        }
    }

    /// Cell levels in dBFS, `values[column][row]` (floored at −140 dB).
    public var decibels: [[Float]] {
        var result: [[Float]] = []
        var previous = [Float](repeating: -140, count: rows)
        for c in 0..<columns {
            if frameCounts[c] == 0 {
                result.append(previous)
                continue
            }
            var column = [Float](repeating: -140, count: rows)
            for r in 0..<rows {
                let power = powers[c * rows + r] / Double(frameCounts[c])
                column[r] = Float(max(-140, 10 * log10(max(power, 1e-30))))
            }
            result.append(column)
            previous = column
        }
        return result
    }
}

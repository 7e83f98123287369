import Foundation

/// One pass over a programme that yields its `LoudnessReport` and, when asked, the data for its
/// picture (waveform overview and spectrogram), all in memory fixed at creation.
///
/// Feed channel blocks in order with `process`; call `finish()` once at the end.
public final class ProgrammeAnalyzer {
    /// Sample rate in Hz.
    public let sampleRate: Double
    /// Channels (1…5 measured for loudness; all are drawn up to 8).
    public let channelCount: Int
    /// Loudness (momentary, short-term, integrated, range).
    public let loudness: LoudnessMeter
    /// True peak over all channels.
    public let truePeak: TruePeakMeter
    /// Min/max per column, when a picture was asked for.
    public let overview: WaveformOverview?
    /// Spectrogram grid, when a picture was asked for.
    public let spectrogram: Spectrogram?
    private var samplePeak: Float = 0
    private var frames = 0

    /// - Parameters:
    ///   - sampleRate: the programme's sample rate, Hz (> 0).
    ///   - channelCount: the programme's channels, 1…8 (clamped); the loudness figures take the first five.
    ///   - totalFrames: the programme's expected length (sets the picture's columns; ignored without).
    ///   - pictureColumns: columns of the overview and spectrogram, or nil for figures only.
    ///   - spectrogramRows: the spectrogram's frequency rows (default 160).
    public init(sampleRate: Double, channelCount: Int, totalFrames: Int = 0, pictureColumns: Int? = nil, spectrogramRows: Int = 160) {
        self.sampleRate = sampleRate
        self.channelCount = min(max(channelCount, 1), 8)
        loudness = LoudnessMeter(sampleRate: sampleRate, channelCount: min(self.channelCount, 5))
        truePeak = TruePeakMeter(channelCount: self.channelCount)
        if let columns = pictureColumns {
            overview = WaveformOverview(channelCount: self.channelCount, columns: columns, totalFrames: totalFrames)
            spectrogram = Spectrogram(sampleRate: sampleRate, totalFrames: totalFrames, columns: columns, rows: spectrogramRows)
        } else {
            overview = nil
            spectrogram = nil
        }
    }

    /// Feeds one block: one buffer per channel, equal lengths.
    public func process(_ channels: [UnsafeBufferPointer<Float>]) {
        precondition(channels.count == channelCount, "one buffer per channel")
        let measured = Array(channels.prefix(loudness.channelCount))
        measured.withUnsafeBufferPointer { loudness.process($0) }
        for (c, samples) in channels.enumerated() {
            truePeak.process(channel: c, samples)
            for x in samples where x.isFinite { samplePeak = max(samplePeak, abs(x)) }
        }
        overview?.process(channels)
        spectrogram?.process(channels)
        frames += channels.first?.count ?? 0
    }

    /// Convenience for whole arrays (one per channel).
    public func process(_ channels: [[Float]]) {
        func nest(_ index: Int, _ pointers: [UnsafeBufferPointer<Float>]) {
            if index == channels.count { process(pointers); return }
            channels[index].withUnsafeBufferPointer { nest(index + 1, pointers + [$0]) }
        }
        nest(0, [])
    }

    /// Flushes the true-peak interpolation; call once after the last block.
    public func finish() { truePeak.finish() }

    /// The figures so far.
    public var report: LoudnessReport {
        func decibels(_ linear: Float) -> Double? { linear > 0 ? 20 * log10(Double(linear)) : nil }
        let momentary = loudness.momentaryMaximum
        return LoudnessReport(
            samplePeakDBFS: decibels(samplePeak),
            truePeakDBTP: decibels(truePeak.maximum),
            integratedLUFS: loudness.integratedLoudness,
            loudnessRange: loudness.loudnessRange,
            shortTermMaxLUFS: loudness.shortTermMaximum,
            momentaryMaxLUFS: momentary.isFinite && momentary > LoudnessHistogram.absoluteGate ? momentary : nil,
            durationSeconds: Double(frames) / sampleRate)
    }
}

import Foundation

/// A waveform overview: the smallest and largest sample per column and channel, over a fixed number
/// of columns spanning the programme, so a picture of any length costs the same memory.
public final class WaveformOverview {
    /// Channels (1…8).
    public let channelCount: Int
    /// Columns across the programme.
    public let columns: Int
    /// Frames the programme is expected to last (later frames go to the last column).
    public let totalFrames: Int
    /// `minimum[channel][column]` and `maximum[channel][column]`, linear; 0 for columns no sample reached.
    public private(set) var minimum: [[Float]]
    public private(set) var maximum: [[Float]]
    private var written = 0

    /// - Parameters: `channelCount` 1…8; `columns` 1…16 384; `totalFrames` > 0.
    public init(channelCount: Int, columns: Int, totalFrames: Int) {
        self.channelCount = min(max(channelCount, 1), 8)
        self.columns = min(max(columns, 1), 16_384)
        self.totalFrames = max(1, totalFrames)
        minimum = [[Float]](repeating: [Float](repeating: 0, count: self.columns), count: self.channelCount)
        maximum = minimum
    }

    /// Feeds one frame per index of the channel buffers (equal lengths, `channelCount` of them).
    public func process(_ channels: [UnsafeBufferPointer<Float>]) {
        guard let first = channels.first else { return }
        for i in 0..<first.count {
            let column = min(columns - 1, Int(Int64(written) * Int64(columns) / Int64(totalFrames)))
            for c in 0..<min(channels.count, channelCount) {
                let raw = channels[c][i]
                let x = raw.isFinite ? raw : 0
                if x < minimum[c][column] { minimum[c][column] = x }
                if x > maximum[c][column] { maximum[c][column] = x }
            }
            written += 1
        }
    }
}

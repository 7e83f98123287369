/// The levels of one audio block, measured on the audio thread by ``LiveMeterTap``: per channel the
/// largest sample magnitude and the sum of squares (linear, 1 = full scale), and the block's length.
/// A plain value, so the ring carries it without allocating or counting references.
public struct LiveMeterBlock: Sendable, Hashable {
    public var frameCount: Int
    public var peakLeft: Float
    public var peakRight: Float
    public var sumOfSquaresLeft: Double
    public var sumOfSquaresRight: Double

    public init(frameCount: Int, peakLeft: Float, peakRight: Float, sumOfSquaresLeft: Double, sumOfSquaresRight: Double) {
        self.frameCount = frameCount
        self.peakLeft = peakLeft
        self.peakRight = peakRight
        self.sumOfSquaresLeft = sumOfSquaresLeft
        self.sumOfSquaresRight = sumOfSquaresRight
    }
}

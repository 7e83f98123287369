/// Browser audio's render-and-encode step: renders one block of an engine into buffers it owns and
/// encodes it as a ``StudioPCMFrame`` with the next sequence number. Everything is allocated in `init`;
/// ``render(_:)`` allocates nothing (proved by the allocation-counting test), so the render thread can
/// call it once per block.
public final class StudioPCMBlockRenderer: @unchecked Sendable {
    public let sampleRate: Double
    public let blockFrames: Int
    private let left: UnsafeMutablePointer<Float>
    private let right: UnsafeMutablePointer<Float>
    private let bytes: UnsafeMutableRawBufferPointer
    /// The sequence number the next block carries (wraps at 2³²).
    public private(set) var sequence: UInt32 = 0

    /// - Parameters: `blockFrames` within ``StudioPCMFrame/frameLimit`` (clamped).
    public init(sampleRate: Double, blockFrames: Int) {
        self.sampleRate = sampleRate
        self.blockFrames = min(StudioPCMFrame.frameLimit.upperBound, max(StudioPCMFrame.frameLimit.lowerBound, blockFrames))
        left = .allocate(capacity: self.blockFrames)
        right = .allocate(capacity: self.blockFrames)
        bytes = .allocate(byteCount: StudioPCMFrame.byteCount(frames: self.blockFrames), alignment: 8)
    }

    deinit {
        left.deallocate()
        right.deallocate()
        bytes.deallocate()
    }

    /// The last block's samples (valid until the next ``render(_:)``).
    public var leftSamples: UnsafePointer<Float> { UnsafePointer(left) }
    public var rightSamples: UnsafePointer<Float> { UnsafePointer(right) }

    /// Renders one block of `engine` (nil: silence) and returns the encoded frame message (valid until
    /// the next call). Render thread; no allocation.
    public func render(_ engine: (any StudioAudioEngine)?) -> UnsafeRawBufferPointer {
        left.update(repeating: 0, count: blockFrames)
        right.update(repeating: 0, count: blockFrames)
        engine?.render(frameCount: blockFrames, left: left, right: right)
        let length = StudioPCMFrame.encode(
            sequence: sequence, sampleRate: UInt32(sampleRate), left: left, right: right, frameCount: blockFrames, into: bytes)
        sequence &+= 1
        return UnsafeRawBufferPointer(rebasing: bytes[0..<length])
    }
}

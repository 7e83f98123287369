import Touchstone

/// Helpers shared by the kernel tests.
enum Render {
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256)

    /// Renders `count` samples of a generator in 256-frame blocks.
    static func generate<G: SignalGenerator>(_ g: inout G, count: Int, block: Int = 256) -> [Float] {
        var out = [Float](repeating: 0, count: count)
        out.withUnsafeMutableBufferPointer { buffer in
            var start = 0
            while start < count {
                let n = min(block, count - start)
                g.generate(into: UnsafeMutableBufferPointer(rebasing: buffer[start..<(start + n)]))
                start += n
            }
        }
        return out
    }

    /// True when every sample is finite and not subnormal.
    static func isClean(_ samples: [Float]) -> Bool {
        samples.allSatisfy { $0.isFinite && !$0.isSubnormal }
    }
}

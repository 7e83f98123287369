import Testing
import Touchstone

@Suite struct FlushToZeroTests {
    /// Operands the optimiser cannot see, so the product is computed at run time.
    static func opaqueTiny() -> (Float, Float) {
        (Float("1e-20")!, Float("1e-20")!)
    }

    @Test func denormalProductStaysDenormalWithoutFlushToZero() {
        let (a, b) = Self.opaqueTiny()
        let product = a * b
        #expect(!FlushToZero.isEnabled)
        #expect(product != 0)
        #expect(product.isSubnormal)
    }

    @Test func denormalProductBecomesZeroWithFlushToZero() throws {
        try #require(FlushToZero.isSupported)
        let (a, b) = Self.opaqueTiny()
        let product = withFlushToZero { a * b }
        #expect(product == 0)
        // Denormal inputs are treated as zero too (DAZ on x86_64, FZ on arm64).
        let denormal = Float(bitPattern: 0x0000_1000)
        #expect(denormal.isSubnormal)
        let scaled = withFlushToZero { denormal * Float("1.0")! }
        #expect(scaled == 0)
    }

    @Test func restoreReturnsThePreviousMode() throws {
        try #require(FlushToZero.isSupported)
        #expect(!FlushToZero.isEnabled)
        let saved = FlushToZero.enable()
        #expect(FlushToZero.isEnabled)
        let nested = FlushToZero.enable()
        FlushToZero.restore(nested)
        #expect(FlushToZero.isEnabled)
        FlushToZero.restore(saved)
        #expect(!FlushToZero.isEnabled)
        let (a, b) = Self.opaqueTiny()
        #expect((a * b).isSubnormal)
    }
}

import Foundation
import Testing
import Touchstone

@Suite struct FastTrigonometryTests {
    @Test func sineAndCosineMatchLibmOverTheirDomain() {
        var worst = 0.0
        for i in 0...30_000 {
            let turns = -1.5 + 3 * Double(i) / 30_000
            worst = max(worst, abs(Double(FastTrigonometry.sin(turns: Float(turns))) - sin(2 * Double.pi * Double(Float(turns)))))
        }
        #expect(worst < 5e-7, "sin error \(worst)")
        var worstCos = 0.0
        for i in 0...10_000 {
            let turns = Float(i) / 10_000
            worstCos = max(worstCos, abs(Double(FastTrigonometry.cos(turns: turns)) - cos(2 * Double.pi * Double(turns))))
        }
        #expect(worstCos < 5e-7, "cos error \(worstCos)")
    }

    @Test func tangentIsAccurateUpTo0_49() {
        var worst = 0.0
        for i in 1...4_900 {
            let x = Float(i) / 10_000                    // 0.0001 … 0.49 (the SVF's normalized cutoff)
            let exact = tan(Double.pi * Double(x))
            worst = max(worst, abs(Double(FastTrigonometry.tanPi(x)) / exact - 1))
        }
        #expect(worst < 5e-6, "relative tan error \(worst)")
    }
}

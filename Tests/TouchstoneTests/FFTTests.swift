import Foundation
import ProsperoTestSupport
import Testing
import Touchstone

@Suite struct FFTTests {
    /// An impulse transforms to all ones; a complex exponential to a single bin of N.
    @Test func impulseAndExponential() {
        let fft = FFT<Double>(size: 64)
        var re = [Double](repeating: 0, count: 64), im = re
        re[0] = 1
        fft.forward(real: &re, imaginary: &im)
        #expect(re.allSatisfy { abs($0 - 1) < 1e-12 } && im.allSatisfy { abs($0) < 1e-12 })
        re = (0..<64).map { cos(2 * Double.pi * 5 * Double($0) / 64) }
        im = (0..<64).map { sin(2 * Double.pi * 5 * Double($0) / 64) }
        fft.forward(real: &re, imaginary: &im)
        for k in 0..<64 {
            #expect(abs(re[k] - (k == 5 ? 64 : 0)) < 1e-9 && abs(im[k]) < 1e-9)
        }
    }

    /// Both precisions against the tests' own radix-2 transform (`Spectrum.fft`, written in this test
    /// target) on seeded noise: Double to rounding, Float within its precision (log2 N stages of error).
    @Test(arguments: [2, 16, 256, 4096])
    func floatAndDoubleMatchTheReference(size: Int) {
        var random = SeededRandom(seed: UInt64(size))
        let re = (0..<size).map { _ in random.double(-1...1) }, im = (0..<size).map { _ in random.double(-1...1) }
        var expectedRe = re, expectedIm = im
        Spectrum.fft(&expectedRe, &expectedIm)
        let scale = Double(size).squareRoot()

        var dRe = re, dIm = im
        FFT<Double>(size: size).forward(real: &dRe, imaginary: &dIm)
        var fRe = re.map(Float.init), fIm = im.map(Float.init)
        FFT<Float>(size: size).forward(real: &fRe, imaginary: &fIm)
        for k in 0..<size {
            #expect(abs(dRe[k] - expectedRe[k]) < 1e-12 * scale && abs(dIm[k] - expectedIm[k]) < 1e-12 * scale, "Double bin \(k)")
            #expect(abs(Double(fRe[k]) - expectedRe[k]) < 1e-5 * scale && abs(Double(fIm[k]) - expectedIm[k]) < 1e-5 * scale, "Float bin \(k)")
        }
    }
}

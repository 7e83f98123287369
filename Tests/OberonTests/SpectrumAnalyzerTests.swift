import Foundation
import Oberon
import ProsperoTestSupport
import Testing

/// The spectrum against numpy's FFT (peer) and against theory.
@Suite struct SpectrumAnalyzerTests {
    static func testSignal(count: Int) -> [Float] {
        var random = SeededRandom(seed: 0x0BE_0001)
        return (0..<count).map { n in
            let t = Double(n) / 48_000
            return Float(0.5 * sin(2 * Double.pi * 1_000 * t) + 0.1 * sin(2 * Double.pi * 7_777 * t + 0.4)) + 0.01 * random.float(-1...1)
        }
    }

    /// Every window: bin amplitudes equal numpy.fft.rfft of the same windowed samples, scaled the same
    /// way (2/Σw, DC and Nyquist once), to 1e-5 of full scale.
    @Test(arguments: WindowFunction.allCases)
    func matchesNumpy(_ window: WindowFunction) throws {
        try TestPeers.require(TestPeers.python(module: "numpy"), "python3 with numpy")
        let size = 1_024
        let signal = Self.testSignal(count: size)
        let path = OberonTestSupport.temporaryPath(".f32")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try signal.withUnsafeBufferPointer { try Data(buffer: $0).write(to: URL(fileURLWithPath: path)) }
        // The windows as their textbook cosine sums (periodic form), written independently here.
        let script = """
            import sys, numpy as np
            x = np.fromfile(sys.argv[1], dtype='<f4').astype(np.float64)
            n = len(x); k = np.arange(n)
            terms = {'rectangular': [1.0], 'hann': [0.5, 0.5], 'hamming': [0.54, 0.46], 'blackman': [0.42, 0.5, 0.08],
                     'blackmanHarris': [0.35875, 0.48829, 0.14128, 0.01168],
                     'flatTop': [0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368]}[sys.argv[2]]
            w = sum(((-1) ** i) * a * np.cos(2 * np.pi * i * k / n) for i, a in enumerate(terms))
            a = np.abs(np.fft.rfft(x * w)) * 2 / w.sum()
            a[0] /= 2; a[-1] /= 2
            print(' '.join('%.17g' % v for v in a))
            """
        let output = try #require(OberonTestSupport.python(script, [path, window.rawValue]))
        let expected = output.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let analyzer = SpectrumAnalyzer(size: size, window: window)
        var amplitudes = [Float](repeating: 0, count: analyzer.binCount)
        signal.withUnsafeBufferPointer { input in amplitudes.withUnsafeMutableBufferPointer { analyzer.magnitudes(of: input, into: $0) } }
        #expect(expected.count == amplitudes.count)
        let worst = zip(amplitudes, expected).map { abs(Double($0) - $1) }.max() ?? 1
        #expect(worst < 1e-5, "largest difference \(worst)")
    }

    /// Theory: a sine on a bin centre reads its amplitude with every window; between bins the flat-top
    /// window still reads it within 0.02 dB while Hann loses up to 1.42 dB.
    @Test func sineAmplitudesFromTheory() {
        let size = 4_096, rate = 48_000.0
        func peak(_ window: WindowFunction, bin: Double) -> Double {
            let frequency = bin * rate / Double(size)
            let x = (0..<size).map { Float(0.25 * sin(2 * Double.pi * frequency * Double($0) / rate)) }
            let analyzer = SpectrumAnalyzer(size: size, window: window)
            return Double(analyzer.decibels(of: x).max()!)
        }
        let level = 20 * log10(0.25)
        for window in WindowFunction.allCases { #expect(abs(peak(window, bin: 100) - level) < 0.01, "\(window) on a bin") }
        #expect(abs(peak(.flatTop, bin: 100.5) - level) < 0.02)
        #expect(abs(peak(.hann, bin: 100.5) - (level - 1.42)) < 0.02)
    }

    /// The spectrogram puts a tone in the row whose band holds it, loudest there, in each column.
    @Test func spectrogramFindsATone() {
        let rate = 48_000.0
        let x = (0..<48_000).map { Float(0.5 * sin(2 * Double.pi * 2_000 * Double($0) / rate)) }
        let spectrogram = Spectrogram(sampleRate: rate, totalFrames: x.count, columns: 20, rows: 64)
        x.withUnsafeBufferPointer { spectrogram.process([$0]) }
        let grid = spectrogram.decibels
        #expect(grid.count == 20)
        for column in grid[2..<18] {
            let loudest = column.indices.max { column[$0] < column[$1] }!
            let low = spectrogram.frequency(ofRow: loudest) / pow(spectrogram.highestFrequency / spectrogram.lowestFrequency, 0.5 / 64)
            let high = low * pow(spectrogram.highestFrequency / spectrogram.lowestFrequency, 1.0 / 64)
            #expect(low <= 2_000 * 1.03 && high >= 2_000 / 1.03, "row \(loudest) spans \(low)…\(high) Hz")
            #expect(abs(Double(column[loudest]) - 20 * log10(0.5)) < 1.5)
        }
    }
}

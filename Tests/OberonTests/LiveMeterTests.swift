import AllocationCounting
import Ariel
import Foundation
import Oberon
import Testing

/// The live meters: the audio thread's tap (per-block peak and sum of squares through the lock-free
/// ring) and the reader's ballistics, against the per-sample definitions and with no allocation.
@Suite struct LiveMeterTests {
    static let rate = 48_000.0

    /// Feeds `signal` in `block`-frame blocks through a tap into a LiveMeter; calls `each` after every block.
    static func run(_ left: [Float], _ right: [Float], block: Int, meter: LiveMeter, tap: LiveMeterTap,
                    each: (Int, Int) -> Void = { _, _ in }) {
        left.withUnsafeBufferPointer { l in
            right.withUnsafeBufferPointer { r in
                var start = 0
                while start < l.count {
                    let end = min(l.count, start + block)
                    tap.measure(left: UnsafeBufferPointer(rebasing: l[start..<end]), right: UnsafeBufferPointer(rebasing: r[start..<end]))
                    meter.update(from: tap)
                    each(start, end)
                    start = end
                }
            }
        }
    }

    @Test func blockPeaksFollowThePerSampleMeterWithinOneBlock() {
        let block = 256
        // A burst at 0.3 s, a louder one at 1.0 s, then silence: attack, hold and fall on both channels.
        var left = [Float](repeating: 0, count: Int(Self.rate * 3)), right = left
        left[14_400 + 37] = 0.5
        right[48_000 + 200] = -0.8
        let tap = LiveMeterTap(), meter = LiveMeter(sampleRate: Self.rate)
        var reference = (PeakMeter(sampleRate: Self.rate), PeakMeter(sampleRate: Self.rate))
        // The most a block-fed reading may exceed the per-sample one: one block more of hold, so one block less fall.
        let oneBlockOfFall = 20 / 1.7 * Double(block) / Self.rate
        var worst = 0.0
        Self.run(left, right, block: block, meter: meter, tap: tap) { start, end in
            left.withUnsafeBufferPointer { reference.0.process(UnsafeBufferPointer(rebasing: $0[start..<end])) }
            right.withUnsafeBufferPointer { reference.1.process(UnsafeBufferPointer(rebasing: $0[start..<end])) }
            let s = meter.snapshot
            for (shown, exact) in [(s.peakLeftDBFS, reference.0.levelDecibels), (s.peakRightDBFS, reference.1.levelDecibels)] {
                guard exact > PeakMeter.floorDecibels + 1 else { continue }
                #expect(shown >= exact - 1e-9, "never below the definition")
                worst = max(worst, shown - exact)
            }
        }
        #expect(worst <= oneBlockOfFall + 1e-9, "\(worst) dB over")
        let s = meter.snapshot
        #expect(abs(s.maximumPeakDBFS - 20 * log10(0.8)) < 1e-6)
        // 3 s: the left burst (0.3 s) held to 0.8 s then fell 2.2 s × 20/1.7 dB/s ≈ 25.9 dB.
        #expect(abs(s.peakLeftDBFS - (20 * log10(0.5) - 20 / 1.7 * (3 - 0.3 - 0.5))) < oneBlockOfFall + 0.01)
        #expect(s.droppedBlocks == 0 && abs(s.seconds - 3) < 1e-9)
    }

    @Test func blockRMSIsThePlainRootMeanSquareOfTheLastThreeHundredMilliseconds() {
        // A full-scale sine on the left reads −3.01 dBFS (no AES17 offset); a −20 dBFS square wave on the right reads −20.
        let n = 48_000
        let left = (0..<n).map { Float(sin(2 * Double.pi * 997 * Double($0) / Self.rate)) }
        let right = (0..<n).map { Float($0 / 24 % 2 == 0 ? 0.1 : -0.1) }
        let tap = LiveMeterTap(), meter = LiveMeter(sampleRate: Self.rate)
        Self.run(left, right, block: 480, meter: meter, tap: tap)
        #expect(abs(meter.snapshot.rmsLeftDBFS - 20 * log10(1 / 2.0.squareRoot())) < 0.01)
        #expect(abs(meter.snapshot.rmsRightDBFS + 20) < 1e-4)
        // Then 150 ms of silence: half the window is the square wave, so its power halves (−3.01 dB).
        let silence = [Float](repeating: 0, count: 7_200)
        Self.run(silence, silence, block: 480, meter: meter, tap: tap)
        #expect(abs(meter.snapshot.rmsRightDBFS - (-20 - 10 * log10(2.0))) < 1e-3)
        // Against the per-sample RMSMeter over the same samples, at a block size that does not divide the window.
        let rms = RMSMeter(sampleRate: Self.rate)
        let tap2 = LiveMeterTap(), meter2 = LiveMeter(sampleRate: Self.rate)
        let mixed = (0..<30_000).map { Float(sin(Double($0) * 0.013) * (Double($0 % 7_000) / 7_000)) }
        Self.run(mixed, mixed, block: 1_000, meter: meter2, tap: tap2)
        mixed.withUnsafeBufferPointer { rms.process($0) }
        #expect(abs(meter2.snapshot.rmsLeftDBFS - rms.levelDecibels) < 0.05, "\(meter2.snapshot.rmsLeftDBFS) vs \(rms.levelDecibels)")
        // Silence and non-finite samples read the floor, never −∞ or NaN.
        let tap3 = LiveMeterTap(), meter3 = LiveMeter(sampleRate: Self.rate)
        Self.run([.nan, .infinity, 0, 0], [0, 0, 0, 0], block: 4, meter: meter3, tap: tap3)
        #expect(meter3.snapshot == LiveMeterSnapshot(seconds: 4 / Self.rate))
        #expect(meter3.snapshot.line == "peak -120.0/-120.0 dBFS  RMS -120.0/-120.0 dBFS")
    }

    @Test func aReaderOnAnotherThreadSeesEveryBlockOrCountsItDropped() async {
        let tap = LiveMeterTap(capacity: 64)
        let blocks = 20_000
        let producer = Task.detached {
            let buffer = [Float](repeating: 0.25, count: 64)
            buffer.withUnsafeBufferPointer { b in for _ in 0..<blocks { tap.measure(left: b, right: b) } }
        }
        var frames = 0, peak: Float = 0
        while true {
            tap.drain { frames += $0.frameCount; peak = max(peak, $0.peakLeft) }
            if frames / 64 + tap.droppedBlockCount == blocks { break }
            await Task.yield()
        }
        await producer.value
        #expect(frames % 64 == 0 && peak == 0.25 && frames / 64 + tap.droppedBlockCount == blocks)
    }
}

@Suite(.enabled(if: !AllocationCounter.isDisabledBySanitizer, "malloc interposition is compiled out under sanitizers"))
struct LiveMeterAllocationTests {
    @Test func theTapAndTheBallisticsAllocateNothingPerBlock() throws {
        try #require(AllocationCounter.isAvailable)
        let block = UnsafeMutableBufferPointer<Float>.allocate(capacity: 256)
        defer { block.deallocate() }
        for i in 0..<256 { block[i] = Float(sin(Double(i) * 0.07)) * 0.5 }
        let samples = UnsafeBufferPointer(block)
        let tap = LiveMeterTap()
        let meter = LiveMeter(sampleRate: 48_000)
        tap.measure(left: samples, right: samples)  // warm-up
        meter.update(from: tap)
        // The audio side: 1 000 blocks into the ring (it holds 1 024).
        let audio = AllocationCounter.allocations {
            for _ in 0..<1_000 { tap.measure(left: samples, right: samples) }
        }
        #expect(audio == 0)
        // The reader: drain, ballistics and snapshot.
        var shown = 0.0
        let reader = AllocationCounter.allocations {
            meter.update(from: tap)
            shown = meter.snapshot.peakLeftDBFS
        }
        #expect(reader == 0)
        #expect(abs(shown - 20 * log10(Double(samples.max()!))) < 1e-6)
    }
}

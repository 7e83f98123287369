import AllocationCounting
import Foundation
import Testing
import Touchstone

/// Every real-time entry point of the effects, dynamics and real-time helpers
/// allocates nothing once prepared — including parameter changes made on the
/// audio thread between blocks (as a drained command would make them).
@Suite(.enabled(if: !AllocationCounter.isDisabledBySanitizer, "malloc interposition is compiled out under sanitizers"))
struct EffectsAllocationTests {
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256, channelCount: 2)
    static let blocks = 400

    /// Prepared buffers for one measurement (allocated outside the counted region).
    final class Buffers {
        let left = UnsafeMutableBufferPointer<Float>.allocate(capacity: 256)
        let right = UnsafeMutableBufferPointer<Float>.allocate(capacity: 256)
        let modulation = UnsafeMutableBufferPointer<Float>.allocate(capacity: 256)
        init() {
            for i in 0..<256 {
                left[i] = Float(sin(Double(i) * 0.07)) * 2
                right[i] = Float(cos(Double(i) * 0.05)) * 2
                modulation[i] = Float(sin(Double(i) * 0.01)) * 0.002
            }
        }
        /// Refills with a loud, changing signal so kernels keep working (no idle fast paths).
        func refill(_ block: Int) {
            let scale = Float(block % 7) + 0.5
            for i in 0..<256 {
                left[i] = scale * Float(sin(Double(i &+ block) * 0.07))
                right[i] = scale * Float(cos(Double(i &+ block) * 0.05))
            }
        }
        deinit {
            left.deallocate()
            right.deallocate()
            modulation.deallocate()
        }
    }

    /// Counts allocations over `blocks` calls of `body(block)`, after one uncounted warm-up call.
    static func allocations(_ body: (Int) -> Void) -> Int {
        body(0)
        return AllocationCounter.allocations {
            for block in 1...blocks { body(block) }
        }
    }

    @Test func monoEffects() throws {
        try #require(AllocationCounter.isAvailable)
        let buffers = Buffers()
        var tone = ToneFilter(cutoff: 3_000)
        var fuzz = Fuzz(drive: 20)
        var clip = SoftClipDistortion(gain: 6, mix: 0.7)
        var crusher = Decimator(reductionFactor: 3.5, bitDepth: 6, mix: 0.8)
        tone.prepare(Self.spec); fuzz.prepare(Self.spec); clip.prepare(Self.spec); crusher.prepare(Self.spec)
        let count = Self.allocations { block in
            buffers.refill(block)
            tone.tone = Float(block % 10) / 10
            fuzz.drive = Float(block % 48)
            fuzz.mix = Float(block % 3) / 2
            clip.gain = Float(block % 60) - 40
            crusher.bitDepth = Float(block % 24) + 1
            crusher.targetSampleRate = Float(4_000 + block)
            tone.process(buffers.left)
            fuzz.process(buffers.left)
            clip.process(buffers.left)
            crusher.process(buffers.left)
            for i in 0..<64 { buffers.right[i] = crusher.processSample(tone.processSample(buffers.right[i])) }
        }
        #expect(count == 0)
    }

    @Test func delayLines() throws {
        try #require(AllocationCounter.isAvailable)
        let buffers = Buffers()
        let delay = DelayLine(maximumDelay: 1, delayTime: 0.3, feedback: 0.6, mix: 0.5)
        let stereo = StereoDelay(maximumDelay: 1)
        delay.prepare(Self.spec)
        stereo.prepare(Self.spec)
        let count = Self.allocations { block in
            buffers.refill(block)
            delay.delayTime = 0.1 + Float(block % 9) * 0.05
            delay.dampingCutoff = 1_000 + Float(block) * 10
            delay.feedback = Float(block % 20) / 20
            delay.process(buffers.left)
            delay.process(buffers.left, modulation: UnsafeBufferPointer(buffers.modulation))
            stereo.delayTime = 0.2 + Float(block % 5) * 0.01
            stereo.rightTimeOffset = 0.01
            stereo.process(left: buffers.left, right: buffers.right)
            _ = stereo.processFrame(left: 0.1, right: 0.2)
        }
        #expect(count == 0)
    }

    @Test func reverb() throws {
        try #require(AllocationCounter.isAvailable)
        let buffers = Buffers()
        let reverb = FeedbackDelayNetworkReverb(decayTime: 3, size: 1, damping: 0.4, mix: 0.4)
        reverb.prepare(Self.spec)
        let count = Self.allocations { block in
            buffers.refill(block)
            reverb.decayTime = 0.5 + Float(block % 10)
            reverb.damping = Float(block % 5) / 5
            reverb.mix = Float(block % 4) / 4
            if block % 50 == 0 { reverb.size = 0.5 + Float(block % 150) / 100 }  // prime search
            reverb.process(left: buffers.left, right: buffers.right)
            _ = reverb.processFrame(left: 0.3, right: -0.3)
        }
        #expect(count == 0)
    }

    @Test func limiterAndSpikeProtector() throws {
        try #require(AllocationCounter.isAvailable)
        let buffers = Buffers()
        let limiter = BrickwallLimiter(ceiling: -6)
        var protector = SpikeProtector()
        limiter.prepare(Self.spec)
        protector.prepare(Self.spec)
        var meter: Float = 0
        let count = Self.allocations { block in
            buffers.refill(block)
            limiter.ceiling = -Float(block % 20)
            limiter.releaseTime = 0.05 + Float(block % 3) * 0.1
            protector.process(left: buffers.left, right: buffers.right)
            limiter.process(left: buffers.left, right: buffers.right)
            _ = limiter.processFrame(left: 100, right: -100)
            meter += limiter.gainReductionDecibels + Float(limiter.latencySamples)
            if block % 100 == 0 { limiter.reset() }
        }
        #expect(meter > 0)
        #expect(count == 0)
    }

    @Test func ringBuffersAndFlushToZero() throws {
        try #require(AllocationCounter.isAvailable)
        let commands = SPSCRingBuffer<Int>(minimumCapacity: 64)
        let scope = SampleRingBuffer(minimumCapacity: 1_024)
        let buffers = Buffers()
        var sum = 0
        let count = Self.allocations { block in
            for i in 0..<100 { commands.push(block &* 100 &+ i) }  // some are dropped (capacity 64)
            while let value = commands.pop() { sum &+= value }
            commands.drain { sum &+= $0 }
            scope.write(UnsafeBufferPointer(buffers.left))
            scope.write(0.5)
            let saved = FlushToZero.enable()
            FlushToZero.restore(saved)
            withFlushToZero { sum &+= 1 }
        }
        #expect(sum > 0)
        #expect(commands.droppedCount > 0)
        #expect(count == 0)
    }

    /// The counter can fail: the same harness sees a kernel's prepare() allocate.
    @Test func harnessSeesAllocatingWork() throws {
        try #require(AllocationCounter.isAvailable)
        let delay = DelayLine(maximumDelay: 0.5)
        let count = Self.allocations { _ in delay.prepare(Self.spec) }
        #expect(count >= Self.blocks)
    }
}

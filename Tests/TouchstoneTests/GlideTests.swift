import Foundation
import Testing
import Touchstone

@Suite struct GlideTests {
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256)

    @Test func glideByTimeTakesTheSameTimeForAnyInterval() {
        for target in [440.0 * 2, 440.0 * 1.5, 440.0 / 4] {
            var glide = Glide(mode: .time(0.1), frequency: 440)
            glide.prepare(Self.spec)
            glide.setTarget(frequency: target)
            let path = (0..<4_800).map { _ in Double(glide.nextSample()) }
            #expect(abs(path.last! - target) < 1e-3)
            #expect(!glide.isGliding)
            // Straight in pitch: halfway in time is the geometric mean.
            #expect(abs(path[2_399] / (440 * (target / 440).squareRoot()) - 1) < 1e-4)
        }
    }

    @Test func glideByRateTakesTimeProportionalToTheInterval() {
        var glide = Glide(mode: .rate(semitonesPerSecond: 24), frequency: 220)
        glide.prepare(Self.spec)
        glide.setTarget(frequency: 440)               // 12 semitones at 24 st/s = 0.5 s
        var n = 0
        while glide.isGliding { _ = glide.nextSample(); n += 1 }
        #expect(n == 24_000)
        glide.setTarget(midiNote: 57 + 19)            // A3 + 7 semitones... from A4 (69): 7 st = 0.2917 s
        n = 0
        while glide.isGliding { _ = glide.nextSample(); n += 1 }
        #expect(abs(n - 14_000) <= 1)
        #expect(abs(glide.frequency - 440 * pow(2, 7.0 / 12)) < 1e-6)
    }

    @Test func retargetMidGlideIsContinuousAndOffJumps() {
        var glide = Glide(mode: .time(0.2), frequency: 100)
        glide.prepare(Self.spec)
        glide.setTarget(frequency: 1_000)
        for _ in 0..<3_000 { _ = glide.nextSample() }
        let here = glide.frequency
        glide.setTarget(frequency: 50)
        let next = Double(glide.nextSample())
        #expect(abs(next / here - 1) < 0.01)
        glide.mode = .off
        glide.setTarget(frequency: 300)
        #expect(glide.nextSample() == 300 && !glide.isGliding)
        glide.jump(to: -5)                            // clamped to a positive frequency
        #expect(glide.frequency == Glide.minimumFrequency)
    }
}

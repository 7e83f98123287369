import AllocationCounting
import Ariel
import Foundation
import Games
import ProsperoTestSupport
import Testing
import Touchstone

@Suite(.allocationCounting)
struct GameAudioAllocationTests {
    static func check(_ music: GameMusic) throws {
        try #require(AllocationCounter.isAvailable)
        let engine = GameAudioEngine(music: music)
        engine.prepare(ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256, channelCount: 2))
        var l = [Float](repeating: 0, count: 256), r = l
        let commands: [GameAudioEngine.Command] = [
            .musicLevel(1, ramp: 1.5), .tremolo(rate: 3, depth: 0.8), .playHarmony(4), .masterLevel(0.7, ramp: 0.1),
            .playHarmony(11), .tremolo(rate: 0.2, depth: 0.1), .restartMusic, .musicLevel(0.2, ramp: 0.1), .playHarmony(99),
        ]
        l.withUnsafeMutableBufferPointer { lp in r.withUnsafeMutableBufferPointer { rp in engine.render(left: lp, right: rp) } }
        let count = l.withUnsafeMutableBufferPointer { lp in
            r.withUnsafeMutableBufferPointer { rp in
                AllocationCounter.allocations {
                    for c in commands {
                        engine.handle(c)
                        for _ in 0..<40 { engine.render(left: lp, right: rp) }
                        _ = engine.snapshot()
                    }
                }
            }
        }
        #expect(count == 0)
    }

    @Test func songBlocksAllocateNothing() throws { try Self.check(.song) }

    @Test func wavBlocksAllocateNothing() throws {
        let tone = (0..<24_000).map { Float(sin(Double($0) * 0.05)) * 0.3 }
        try Self.check(.samples(left: tone, right: tone, sampleRate: 48_000))
    }
}

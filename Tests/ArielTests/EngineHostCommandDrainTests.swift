import Ariel
import Touchstone
import Testing

/// An engine that only counts the commands it handles.
private final class CountingEngine: AudioEngine {
    var handled: [Int] = []
    func prepare(_ spec: ProcessSpec) {}
    func reset() {}
    func handle(_ command: Int) { handled.append(command) }
    func handle(midi message: MIDIShortMessage) {}
    func render(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {}
    func snapshot() -> Int { handled.count }
    func releaseAllNotes() {}
}

@Suite struct EngineHostCommandDrainTests {
    /// 300 queued commands with a bound of 128 per block: 128, then 256, then all 300, in send order.
    @Test func aBurstOfCommandsIsSpreadOverBlocksInOrder() {
        let engine = CountingEngine()
        let host = EngineHost(engine: engine, spec: ProcessSpec(sampleRate: 48_000, maximumBlockSize: 64, channelCount: 2),
                              commandCapacity: 512, maximumCommandsPerBlock: 128)
        for k in 0..<300 { #expect(host.send(k)) }
        var left = [Float](repeating: 0, count: 64), right = left
        var counts: [Int] = []
        for _ in 0..<4 {
            left.withUnsafeMutableBufferPointer { l in right.withUnsafeMutableBufferPointer { r in host.process(left: l, right: r) } }
            counts.append(engine.handled.count)
        }
        #expect(counts == [128, 256, 300, 300])
        #expect(engine.handled == Array(0..<300))
    }
}

import Ariel
import Touchstone

/// Renders any engine offline through `EngineHost`, the way the audio thread runs it, with commands
/// landing on their exact frames (a block ends where the next command is due). The engine tests of
/// Hecate and HiSynth share it.
public enum EngineRender {
    /// Renders `seconds` of `engine` at `sampleRate` in blocks of at most `block` frames, sending each
    /// command at its time in seconds; returns the left and right channels.
    public static func render<Engine: AudioEngine>(
        _ engine: Engine, seconds: Double, sampleRate: Double, block: Int = 256,
        commands: [(Double, Engine.Command)] = []
    ) -> (left: [Float], right: [Float]) {
        let host = EngineHost(engine: engine, spec: ProcessSpec(sampleRate: sampleRate, maximumBlockSize: block, channelCount: 2))
        let total = Int(seconds * sampleRate)
        var left = [Float](repeating: 0, count: total)
        var right = [Float](repeating: 0, count: total)
        let scheduled = commands.map { (Int(($0.0 * sampleRate).rounded()), $0.1) }.sorted { $0.0 < $1.0 }
        var next = 0
        var position = 0
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                while position < total {
                    while next < scheduled.count && scheduled[next].0 <= position {
                        _ = host.send(scheduled[next].1)
                        next += 1
                    }
                    var end = min(total, position + block)
                    if next < scheduled.count { end = min(end, max(position + 1, scheduled[next].0)) }
                    host.process(
                        left: UnsafeMutableBufferPointer(rebasing: l[position..<end]),
                        right: UnsafeMutableBufferPointer(rebasing: r[position..<end]))
                    position = end
                }
            }
        }
        return (left, right)
    }
}

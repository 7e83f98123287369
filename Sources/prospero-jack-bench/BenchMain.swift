import Foundation
import ProsperoJACK

/// `prospero-jack-bench [--server NAME] [--seconds N] [--midi-in PORT]`: runs a live session
/// with a representative workload and prints xruns and callback times (run by scripts/bench-jack).
@main
struct BenchMain {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var server: String?
        var seconds = 60
        var midiIn: [String] = []
        while !arguments.isEmpty {
            let flag = arguments.removeFirst()
            guard let value = arguments.first else { break }
            arguments.removeFirst()
            switch flag {
            case "--server": server = value
            case "--seconds": seconds = Int(value) ?? seconds
            case "--midi-in": midiIn.append(value)
            default: break
            }
        }
        let session = LiveSession(
            handler: BenchVoices(),
            options: LiveSessionOptions(
                client: JACKClient.Configuration(clientName: "ProsperoBench", serverName: server),
                midiInputSources: midiIn,
                duration: .seconds(seconds)
            )
        )
        do {
            let outcome = try session.run()
            let s = session.statistics
            print("RESULT seconds=\(seconds) periods=\(s.periods) frames=\(s.frames) xruns=\(s.xruns) "
                + "longest_callback_us=\(Double(s.longestCallbackNanoseconds) / 1000) "
                + "mean_callback_us=\(Double(s.averageCallbackNanoseconds) / 1000) "
                + "midi_out_dropped=\(s.midiOutputDropped) midi_in_lost=\(s.midiInputLost) outcome=\"\(outcome)\"")
            exit(outcome.isClean ? 0 : 1)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(1)
        }
    }
}

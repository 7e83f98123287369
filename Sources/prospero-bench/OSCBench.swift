import Enobarbus
import Foundation

/// OSC decoding speed on one core: `OSCDecoder.decode` over the packets of `OSCMessageMix`, each
/// decoded into `OSCPacket` values (addresses, typed arguments) and walked message by message.
enum OSCBench {
    static func run(seconds: Double) -> MarkdownTable {
        let mix: OSCMessageMix
        do { mix = try OSCMessageMix() } catch {
            fatalError("OSC mix does not encode: \(error)")
        }
        var table = MarkdownTable(title: "OSC decoding, one core (`prospero-bench osc`)",
                                  header: ["Packets", "Messages/s", "MB/s"])
        let share = seconds / Double(mix.kinds.count + 1)
        for kind in mix.kinds + [mix.frame] {
            let (messagesPerSecond, bytesPerSecond) = measure(kind, seconds: kind.name.hasPrefix("mix") ? seconds - share * Double(mix.kinds.count) : share)
            let label = kind.name.hasPrefix("mix") ? "**\(kind.name)**" : kind.name
            let rate = kind.name.hasPrefix("mix") ? "**\(scaled(messagesPerSecond))**" : scaled(messagesPerSecond)
            table.rows.append([label, rate, String(format: "%.0f", bytesPerSecond / 1e6)])
        }
        return table
    }

    /// Returns messages and bytes decoded per CPU second.
    static func measure(_ kind: OSCMessageMix.Kind, seconds: Double) -> (Double, Double) {
        var decodedMessages = 0
        var decodedArguments = 0
        var failures = 0
        let (cpu, calls) = repeatForCPU(seconds: max(0.2, seconds)) {
            for _ in 0..<64 {
                for packet in kind.packets {
                    packet.withUnsafeBytes { bytes in
                        do {
                            let decoded = try OSCDecoder.decode(bytes)
                            decoded.forEachMessage { message in
                                decodedMessages &+= 1
                                decodedArguments &+= message.arguments.count
                            }
                        } catch {
                            failures += 1
                        }
                    }
                }
            }
        }
        precondition(failures == 0, "\(kind.name): \(failures) packets failed to decode")
        precondition(decodedMessages == (calls + 1) * 64 * kind.messageCount, "\(kind.name): wrong message count")
        precondition(decodedArguments > 0)
        let rounds = Double(calls * 64)
        return (rounds * Double(kind.messageCount) / cpu, rounds * Double(kind.byteCount) / cpu)
    }
}

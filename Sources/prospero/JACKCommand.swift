import ArgumentParser
import Foundation
import ProsperoJACK

/// `prospero jack …`: the JACK platform edge's diagnostics.
struct JACKCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jack",
        abstract: "JACK audio and MIDI diagnostics.",
        subcommands: [Status.self]
    )

    /// `prospero jack status`: what the server runs at and which ports it has.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Connect to the JACK server and print its sample rate, period, realtime flag, CPU load and ports."
        )

        @Option(name: [.short, .long], help: "JACK server name (default: $JACK_DEFAULT_SERVER, else \"default\").")
        var server: String?

        func run() throws {
            let status: JACKServerStatus
            do {
                status = try JACKServerStatus.query(serverName: server)
            } catch {
                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                throw ExitCode.failure
            }
            print("JACK server: \(status.serverName ?? "default") (libjack \(status.libraryVersion))")
            print("sample rate: \(status.sampleRate) Hz")
            print("buffer size: \(status.bufferSize) frames (\(String(format: "%.2f", status.periodMilliseconds)) ms)")
            print("realtime: \(status.isRealtime ? "yes" : "no")")
            print("CPU load: \(String(format: "%.1f", status.cpuLoad)) %")
            for (type, label) in [(JACKPortType.audio, "audio"), (.midi, "MIDI")] {
                for (isInput, direction) in [(false, "outputs (sources)"), (true, "inputs (destinations)")] {
                    let ports = status.ports.filter { $0.type == type && $0.isInput == isInput }
                    print("\(label) \(direction): \(ports.isEmpty ? "none" : "")")
                    for port in ports {
                        let physical = port.isPhysical ? " [hardware]" : ""
                        let links = port.connections.isEmpty ? "" : " \(isInput ? "←" : "→") \(port.connections.joined(separator: ", "))"
                        print("  \(port.name)\(physical)\(links)")
                    }
                }
            }
            let others = status.ports.filter { if case .other = $0.type { return true } else { return false } }
            for port in others { print("other (\(port.type)): \(port.name)") }
        }
    }
}

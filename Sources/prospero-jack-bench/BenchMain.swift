import Foundation
import Glibc
import ProsperoJACK

/// `prospero-jack-bench SUBCOMMAND`: the live figures on real JACK (``BenchOptions/usage``), printed as Markdown
/// table rows; with `--check` each is compared with its target (``BenchTargets``) and every miss is named.
/// Run by hand through `scripts/bench/live`, never by the test command: these are the machine's figures.
@main
struct BenchMain {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains("--help") || arguments.contains("-h") {
            print(BenchOptions.usage)
            exit(0)
        }
        let options: BenchOptions
        switch BenchOptions.parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let failure):
            FileHandle.standardError.write(Data("error: \(failure)\n\(BenchOptions.usage)\n".utf8))
            exit(2)
        }
        ChildProcesses.stopOnSignals()
        let server: BenchServer
        do {
            server = try BenchServer(name: options.server ?? ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"] ?? "default",
                                     jackdPID: options.jackdPID, prospero: try ProsperoRun.executable(options.prospero))
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(2)
        }
        if options.header { FileHandle.standardOutput.write(Data((BenchRow.header + "\n").utf8)) }
        let steps: [BenchOptions.Subcommand] = options.subcommand == .all ? [.latency, .gesture, .inputDelay, .callbacks] : [options.subcommand]
        var missed: [String] = []
        for step in steps {
            progress("-p \(server.period): \(step.rawValue)…")
            let rows: [BenchRow] = switch step {
            case .latency: LatencyBench.rows(on: server)
            case .gesture: GestureBench.rows(on: server)
            case .inputDelay: InputDelayBench.rows(on: server)
            case .callbacks, .all: CallbackBench.rows(on: server, seconds: options.seconds, midiIn: options.midiIn, lockMemory: options.lockMemory)
            }
            for row in rows {
                // Each row as soon as it is measured: a run stopped half-way keeps what it printed.
                FileHandle.standardOutput.write(Data((row.markdown + "\n").utf8))
                missed += row.missed.map { "\(row.figure) at -p \(row.period): \($0)" }
            }
        }
        guard options.check else { exit(0) }
        for miss in missed { progress("missed: \(miss)") }
        exit(missed.isEmpty ? 0 : 1)
    }

    static func progress(_ line: String) {
        FileHandle.standardError.write(Data("prospero-jack-bench: \(line)\n".utf8))
    }
}

import Foundation

/// What `prospero-jack-bench` was asked: a subcommand and its options (parsed by hand: the bench depends on no
/// argument parser).
struct BenchOptions {
    enum Subcommand: String, CaseIterable {
        case latency, gesture, inputDelay = "input-delay", callbacks, all
    }

    var subcommand: Subcommand
    var server: String?
    var jackdPID: Int32?
    var prospero: String?
    var check = false
    var header = true
    var seconds = 30.0
    var midiIn: [String] = []
    var lockMemory = true

    static let usage = """
        usage: prospero-jack-bench latency|gesture|input-delay|callbacks|all [--server NAME] [--jackd-pid PID]
               [--prospero PATH] [--check] [--no-header] [--seconds N] [--midi-in PORT]… [--no-lock-memory]

        Measures the live figures on a running JACK server (scripts/bench/live starts one per period and runs this),
        in JACK frames at 48 kHz, and prints them as the rows of a Markdown table (progress and full reports on
        standard error):
          latency      UDP → out_left and UDP → midi_out of `prospero hands --output both`
          gesture      gesture → sound: native bundle and Face Cap to `prospero hecate`, MIDI in to `prospero play`,
                       the native bundle to the studio's Hecate beside the command's
          input-delay  the input delay each live face frame needs, against the default delay
          callbacks    the process callback's wall and CPU time of a 16-voice session for --seconds (default 30),
                       played by the MIDI of --midi-in (scripts/bench/live gives jack_midiseq's)
          all          each of them, in that order
        --check        compare each figure with its target; exit 1 naming every missed target
        --jackd-pid    the server's jackd, whose threads' CPU wait counts against an event
        --prospero     the prospero executable (default: the one beside this bench)
        Exit status: 0 measured (and with --check, every target met), 1 a target missed, 2 a bad option.
        """

    /// Parses `arguments` (without the executable's name); the message names what was wrong.
    static func parse(_ arguments: [String]) -> Result<BenchOptions, BenchFailure> {
        var arguments = arguments
        guard let first = arguments.first else { return .failure(BenchFailure("a subcommand is needed")) }
        guard let subcommand = Subcommand(rawValue: first) else {
            return .failure(BenchFailure("unknown subcommand \(first) (\(Subcommand.allCases.map(\.rawValue).joined(separator: ", ")))"))
        }
        arguments.removeFirst()
        var options = BenchOptions(subcommand: subcommand)
        while !arguments.isEmpty {
            let flag = arguments.removeFirst()
            switch flag {
            case "--check": options.check = true
            case "--no-header": options.header = false
            case "--no-lock-memory": options.lockMemory = false
            case "--server", "--jackd-pid", "--prospero", "--seconds", "--midi-in":
                guard let value = arguments.first else { return .failure(BenchFailure("\(flag) needs a value")) }
                arguments.removeFirst()
                switch flag {
                case "--server": options.server = value
                case "--prospero": options.prospero = value
                case "--midi-in": options.midiIn.append(value)
                case "--jackd-pid":
                    guard let pid = Int32(value), pid > 0 else { return .failure(BenchFailure("--jackd-pid must be a process id, not \(value)")) }
                    options.jackdPID = pid
                default:
                    guard let s = Double(value), s > 0, s.isFinite else { return .failure(BenchFailure("--seconds must be a positive number, not \(value)")) }
                    options.seconds = s
                }
            default: return .failure(BenchFailure("unknown option \(flag)"))
            }
        }
        return .success(options)
    }
}

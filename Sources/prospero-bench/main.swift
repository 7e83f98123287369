// prospero-bench: release-mode benchmarks of Prospero's render, input and parsing paths.
//
//   prospero-bench [patch] [--seconds S] [--runs N] [--output FILE.f32]   reference patch (dsp-references.md §3), voices in SIMD lanes
//                  [--scalar] [--check]                                  voice by voice / both, printing the largest difference
//                  [--stepped-lanes]                                     the lanes without their block paths (the --check reference)
//   prospero-bench kernels                                                per-kernel costs in ns/sample
//   prospero-bench osc [--seconds S]                                      OSC decoding, messages per second, one core
//   prospero-bench midi [--seconds S]                                     SMF and MIDI stream parsing, MB/s
//   prospero-bench alloc                                                  heap allocations per rendered block (must be 0)
//   prospero-bench engines [--seconds S] [--runs N] [--only NAME]         every AudioEngine through EngineHost: median × real time of N, allocations
//   prospero-bench voices                                                 voices per core: poly synth voices within 50 % of a 64-frame period
//   prospero-bench all                                                    osc, midi, alloc and engines as Markdown tables
//
// Build in release: `swift build -c release --product prospero-bench`. scripts/bench/compare runs these next to
// Faust and Csound and prints the README's table. Timing lives here, never in unit tests.
import Foundation

struct Options {
    var command = "patch"
    var seconds: Double?
    var runs = 3
    var output: String?
    /// `patch`: render the voices one by one instead of in SIMD lanes.
    var scalar = false
    /// `patch`: render the lanes stepped sample by sample (no held gains, no ramp runs): the bit-for-bit reference.
    var steppedLanes = false
    /// `patch`: render lanes, stepped lanes and scalar voices and print their differences.
    var check = false
}

let usage = """
    usage: prospero-bench [patch|kernels|osc|midi|alloc|engines|voices|all] [--seconds S] [--runs N] [--output FILE.f32]
           [--scalar] [--check]  (patch: voice by voice instead of SIMD lanes / both, printing their largest difference)
           [--stepped-lanes]  (patch: the lanes stepped sample by sample, the reference --check compares bit for bit)
           [--only NAME]  (engines: only the rows whose name contains NAME)

    """

func parseOptions() -> Options {
    var options = Options()
    var args = CommandLine.arguments.dropFirst()
    if let first = args.first, !first.hasPrefix("-") {
        options.command = first
        args = args.dropFirst()
    }
    func fail() -> Never {
        FileHandle.standardError.write(usage.data(using: .utf8)!)
        exit(2)
    }
    while let arg = args.popFirst() {
        switch arg {
        case "--seconds":
            guard let s = Double(args.popFirst() ?? ""), s > 1 else { fail() }
            options.seconds = s
        case "--runs":
            guard let n = Int(args.popFirst() ?? ""), n >= 1 else { fail() }
            options.runs = n
        case "--output": options.output = args.popFirst()
        case "--scalar": options.scalar = true
        case "--stepped-lanes": options.steppedLanes = true
        case "--check": options.check = true
        case "--kernels": options.command = "kernels"
        case "--only":
            guard let name = args.popFirst() else { fail() }
            EngineBench.nameFilter = name
        default: fail()
        }
    }
    return options
}

let options = parseOptions()
switch options.command {
case "patch": ReferencePatch.main(options)
case "kernels": KernelBench.run()
case "osc": print(OSCBench.run(seconds: options.seconds ?? 3).markdown)
case "midi": print(MIDIParsingBench.run(seconds: options.seconds ?? 3).markdown)
case "alloc":
    let table = AllocationBench.run()
    print(table.markdown)
    if !table.allZero { exit(1) }
case "engines":
    EngineBench.timedRuns = options.runs
    print(EngineBench.run(seconds: options.seconds ?? 20).markdown)
case "voices": print(VoicesPerCoreBench.run().markdown)
case "all":
    print(OSCBench.run(seconds: options.seconds ?? 3).markdown)
    print(MIDIParsingBench.run(seconds: options.seconds ?? 3).markdown)
    let table = AllocationBench.run()
    print(table.markdown)
    print(EngineBench.run(seconds: 20).markdown)
    if !table.allZero { exit(1) }
default:
    FileHandle.standardError.write(usage.data(using: .utf8)!)
    exit(2)
}

import AllocationCounting
import Ariel
import Foundation
import Hecate
import HiSynth
import Touchstone

/// Renders any `AudioEngine` through `EngineHost` the way a JACK callback or `OfflineRenderer` does —
/// 48 kHz, 256-frame stereo blocks, MIDI at frame offsets, commands through the ring — and reports
/// how many times faster than real time it runs on one core and how many heap allocations each
/// block makes (must be 0).
///
/// ## Adding an engine (the hook for Ariel's poly synth and Hecate)
/// Add one `measure` call to `EngineBench.rows(seconds:)`. For example, once `PolySynth` and
/// `DroneSynthEngine` are on main (`import Hecate` and add "Hecate" to prospero-bench's dependencies):
///
///     measure("Ariel poly synth, 16 voices, all effects", target: nil, seconds: seconds,
///             midi: .heldChord(notes: Array(48..<64), retriggerEvery: 2, seconds: seconds)) {
///         PolySynth(/* preset with tone, fuzz, delay and reverb on */)
///     },
///     measure("Hecate, every tone sounding", target: 200, seconds: seconds,
///             midi: .none, commands: [/* the face frame that opens every chord tone */]) {
///         DroneSynthEngine(/* sound pack */)
///     },
///
/// `target` is the × real-time goal (the row says whether it is met); `midi` is played identically
/// every run; `commands` are queued before the first block. Rows print through `prospero-bench
/// engines` and `scripts/bench/compare`.
enum EngineBench {
    static let sampleRate = 48_000.0
    static let blockSize = 256

    struct Result {
        var name: String
        var seconds: Double
        var cpu: Double
        var allocationsPerBlock: Double
        var peak: Float
        var finite: Bool
        var target: Double?
        var realTimeFactor: Double { seconds / cpu }
    }

    /// MIDI played into an engine while it renders: note-ons at block offsets, precomputed before
    /// rendering so the measured loop only reads them.
    struct MIDIScript {
        /// Events for each block index (blocks without events are absent).
        var eventsByBlock: [Int: [TimedMIDIMessage]] = [:]

        static let none = MIDIScript()

        /// Holds `notes` from the first block (staggered by one frame each), releasing and striking them
        /// again every `retriggerEvery` seconds, so voices stay busy and the note paths are exercised.
        static func heldChord(notes: [UInt8], velocity: UInt8 = 100, retriggerEvery: Double, seconds: Double) -> MIDIScript {
            var script = MIDIScript()
            let blocksPerRetrigger = max(1, Int(retriggerEvery * sampleRate) / blockSize)
            let totalBlocks = Int(seconds * sampleRate) / blockSize
            for block in stride(from: 0, to: totalBlocks, by: blocksPerRetrigger) {
                var events: [TimedMIDIMessage] = []
                for (i, note) in notes.enumerated() {
                    let offset = min(i, blockSize - 1)
                    if block > 0, let off = MIDIShortMessage(status: 0x80, data1: note, data2: 64) {
                        events.append(TimedMIDIMessage(frameOffset: offset, message: off))
                    }
                    if let on = MIDIShortMessage(status: 0x90, data1: note, data2: velocity) {
                        events.append(TimedMIDIMessage(frameOffset: offset, message: on))
                    }
                }
                events.sort { $0.frameOffset < $1.frameOffset }
                script.eventsByBlock[block] = events
            }
            return script
        }
    }

    /// The engines measured by `prospero-bench engines`. Add a row per engine here (see above).
    /// Timed renders per engine; the table reports the median.
    nonisolated(unsafe) static var timedRuns = 3

    /// Only rows whose name contains this (case-insensitive), e.g. "hecate" for profiling one engine.
    nonisolated(unsafe) static var nameFilter: String?

    static func rows(seconds: Double) -> [Result] {
        [Result?](arrayLiteral:
            measure("Touchstone chain through EngineHost (glide, saw, SVF, ADSR, tremolo, delay, FDN reverb, limiter)",
                    target: nil, seconds: seconds,
                    midi: .heldChord(notes: [57], retriggerEvery: 0.5, seconds: seconds),
                    commands: [.cutoff(1_200), .tremoloDepth(0.5)]) { KernelChainEngine() },
            measure("Touchstone chain as above, limiter on sample peaks (the cost of true-peak detection is the difference)",
                    target: nil, seconds: seconds,
                    midi: .heldChord(notes: [57], retriggerEvery: 0.5, seconds: seconds),
                    commands: [.cutoff(1_200), .tremoloDepth(0.5)]) { KernelChainEngine(truePeakLimiter: false) },
            measure("Ariel poly synth, 16 voices, tone + fuzz + delay + reverb", target: 200, seconds: seconds,
                    midi: .heldChord(notes: Array(48..<64), retriggerEvery: 2, seconds: seconds)) {
                var settings = PolySynthSettings()
                settings.tone.enabled = true
                settings.fuzz.enabled = true
                settings.delay.enabled = true
                settings.reverb.enabled = true
                return PolySynth(capacity: 16, settings: settings)
            },
            measure("Hecate DroneSynthEngine, every tone, bass, shimmer, tremolo and reverb sounding (Coven)",
                    target: 250, seconds: seconds, midi: .none,
                    commands: [.face(FaceAmounts(root: 1, third: 1, fifth: 1, seventh: 1, ninth: 1, octave: 1, bass: 1,
                                                 cutoff: 0.6, resonance: 0.5, formantF1: 0.5, formantF2: 0.5, brightness: 1)),
                               .tremolo(shape: .sine, division: .eighth, depth: 0.5)]) {
                DroneSynthEngine(preset: SoundPack.coven.preset)
            },
            measure("HiSynth, 16 voices (8 notes × 2 layers), 3 LFOs on all four targets, decimator + drive + delay + reverb",
                    target: 150, seconds: seconds,
                    midi: .heldChord(notes: [48, 52, 55, 59, 62, 65, 69, 72], retriggerEvery: 2, seconds: seconds)) {
                HiSynthEngine(settings: HiSynthBenchPatch.settings)
            }
        ).compactMap { $0 }
    }

    /// Renders `seconds` of `makeEngine()` through `EngineHost` and measures it.
    ///
    /// One second is rendered first as a warm-up (lazy metadata, first-touch pages, caches); then the
    /// engine is reset and the measured pass renders from silence with the same MIDI script.
    static func measure<Engine: AudioEngine>(
        _ name: String, target: Double?, seconds: Double, midi: MIDIScript,
        commands: [Engine.Command] = [], _ makeEngine: () -> Engine
    ) -> Result? {
        if let filter = nameFilter, !name.lowercased().contains(filter.lowercased()) { return nil }
        let spec = ProcessSpec(sampleRate: sampleRate, maximumBlockSize: blockSize, channelCount: 2)
        let host = EngineHost(engine: makeEngine(), spec: spec)
        let left = UnsafeMutableBufferPointer<Float>.allocate(capacity: blockSize)
        let right = UnsafeMutableBufferPointer<Float>.allocate(capacity: blockSize)
        defer { left.deallocate(); right.deallocate() }
        // Flattened script: one contiguous buffer and a per-block range, so the loop never touches a dictionary.
        let totalBlocks = Int(seconds * sampleRate) / blockSize
        var flat: [TimedMIDIMessage] = []
        var ranges = [Range<Int>](repeating: 0..<0, count: totalBlocks)
        for block in 0..<totalBlocks {
            let events = midi.eventsByBlock[block] ?? []
            ranges[block] = flat.count..<(flat.count + events.count)
            flat += events
        }

        func pass(blocks: Int, peak: inout Float, finite: inout Bool) {
            for command in commands { host.send(command) }
            flat.withUnsafeBufferPointer { events in
                ranges.withUnsafeBufferPointer { ranges in
                    for block in 0..<blocks {
                        host.process(left: left, right: right,
                                     midi: UnsafeBufferPointer(rebasing: events[ranges[block]]))
                        let (blockPeak, blockFinite) = Self.peak(left, right)
                        peak = max(peak, blockPeak)
                        if !blockFinite { finite = false }
                    }
                }
            }
        }

        var peak: Float = 0
        var finite = true
        pass(blocks: min(totalBlocks, Int(sampleRate) / blockSize), peak: &peak, finite: &finite)
        peak = 0
        var allocations = 0
        // The median of several timed renders: a shared VM's neighbours move single runs by ±10 %.
        var times: [Double] = []
        for _ in 0..<timedRuns {
            host.engine.reset()
            let start = cpuSeconds()
            allocations += AllocationCounter.allocations {
                pass(blocks: totalBlocks, peak: &peak, finite: &finite)
            }
            times.append(cpuSeconds() - start)
        }
        let cpu = times.sorted()[times.count / 2]
        return Result(name: name, seconds: Double(totalBlocks * blockSize) / sampleRate, cpu: cpu,
                      allocationsPerBlock: Double(allocations) / Double(totalBlocks * timedRuns),
                      peak: peak, finite: finite, target: target)
    }

    /// The largest magnitude of a stereo block and whether every sample is finite, eight lanes at a time: this
    /// check runs inside the timed pass, where a scalar loop cost 3–4 % of an engine's figure.
    static func peak(_ left: UnsafeMutableBufferPointer<Float>, _ right: UnsafeMutableBufferPointer<Float>) -> (Float, Bool) {
        var peaks = SIMD8<Float>()
        // x × 0 is 0 for every finite x and NaN for ±infinity and NaN, so a sum of them tells if all were finite.
        var poison = SIMD8<Float>()
        var i = 0
        let count = min(left.count, right.count)
        while i + 8 <= count {
            let l = UnsafeRawPointer(left.baseAddress! + i).loadUnaligned(as: SIMD8<Float>.self)
            let r = UnsafeRawPointer(right.baseAddress! + i).loadUnaligned(as: SIMD8<Float>.self)
            // Masks, not the generic `pointwiseMax`, which stays an out-of-line call.
            let al = l.replacing(with: -l, where: l .< 0), ar = r.replacing(with: -r, where: r .< 0)
            let m = al.replacing(with: ar, where: ar .> al)
            peaks = peaks.replacing(with: m, where: m .> peaks)
            poison += l * 0 + r * 0
            i += 8
        }
        var peak = peaks.max()
        var finite = poison == SIMD8()
        while i < count {
            let m = max(abs(left[i]), abs(right[i]))
            if !m.isFinite { finite = false }
            peak = max(peak, m)
            i += 1
        }
        return (peak, finite)
    }

    static func run(seconds: Double) -> MarkdownTable {
        var table = MarkdownTable(
            title: "Engines through EngineHost, 48 kHz, 256-frame stereo blocks, one core, median of \(timedRuns) renders (`prospero-bench engines`)",
            header: ["Engine", "Rendered", "CPU (median)", "× real time", "Target", "Allocations per block", "Peak"])
        precondition(AllocationCounter.isAvailable, "allocation counting is not interposing malloc")
        for r in rows(seconds: seconds) {
            let verdict = r.target.map { r.realTimeFactor >= $0 ? "≥ \(Int($0))× met" : "≥ \(Int($0))× **missed**" } ?? "—"
            table.rows.append([r.name, String(format: "%.0f s", r.seconds), String(format: "%.3f s", r.cpu),
                               String(format: "%.0f×", r.realTimeFactor), verdict,
                               r.allocationsPerBlock == 0 ? "0" : String(format: "**%.2f**", r.allocationsPerBlock),
                               r.finite ? String(format: "%.3f", r.peak) : "**not finite**"])
        }
        return table
    }
}

import Ariel
import Foundation
import Touchstone

/// Voices per core: the most voices of Ariel's poly synth (saw, every effect on, as the engine row)
/// that render a 64-frame period at 48 kHz within half of its duration (0.667 ms), on one core.
///
/// Every voice holds its own note (notes spread over the MIDI channels, so the allocator never
/// steals); the CPU time of 0.5 s of 64-frame blocks is measured after a warm-up, and the median of
/// three such passes gives the mean cost of a period. The search doubles the voice count while the
/// budget holds, then bisects in steps of 8 (one group of SIMD lanes). Both renderers are measured, so
/// the table shows what the lanes buy.
enum VoicesPerCoreBench {
    static let sampleRate = 48_000.0
    static let period = 64
    /// The share of a period the synth may take.
    static let budgetShare = 0.5

    /// CPU seconds per 64-frame period with `voices` voices sounding.
    static func periodCost(voices: Int, rendering: PolySynthVoiceRendering) -> Double {
        var settings = PolySynthSettings()
        settings.waveform = .saw
        settings.polyphony = voices
        settings.tone.enabled = true
        settings.fuzz.enabled = true
        settings.delay.enabled = true
        settings.reverb.enabled = true
        let synth = PolySynth(capacity: voices, settings: settings)
        synth.voiceRendering = rendering
        synth.prepare(ProcessSpec(sampleRate: sampleRate, maximumBlockSize: period, channelCount: 2))
        let left = UnsafeMutableBufferPointer<Float>.allocate(capacity: period)
        let right = UnsafeMutableBufferPointer<Float>.allocate(capacity: period)
        defer { left.deallocate(); right.deallocate() }
        for v in 0..<voices {
            let channel = UInt8(v / 48), note = UInt8(36 + v % 48)
            synth.handle(midi: MIDIShortMessage(status: 0x90 | channel, data1: note, data2: 100)!)
        }
        let blocks = Int(0.5 * sampleRate) / period
        for _ in 0..<blocks / 2 { synth.render(left: left, right: right) }   // warm-up, attack and decay done
        var costs: [Double] = []
        for _ in 0..<3 {
            let start = cpuSeconds()
            for _ in 0..<blocks { synth.render(left: left, right: right) }
            costs.append((cpuSeconds() - start) / Double(blocks))
        }
        return costs.sorted()[1]
    }

    /// The most voices (a multiple of 8, up to `PolySynth.maximumCapacity`) within the budget, and the
    /// cost of a period at that count.
    static func search(_ rendering: PolySynthVoiceRendering) -> (voices: Int, cost: Double, capped: Bool) {
        let budget = budgetShare * Double(period) / sampleRate
        var good = 0, goodCost = 0.0
        var bad = PolySynth.maximumCapacity + 8
        var n = 8
        while n <= PolySynth.maximumCapacity {
            let cost = periodCost(voices: n, rendering: rendering)
            if cost <= budget { good = n; goodCost = cost } else { bad = n; break }
            n *= 2
        }
        if good == PolySynth.maximumCapacity { return (good, goodCost, true) }
        if bad > PolySynth.maximumCapacity { bad = PolySynth.maximumCapacity + 8 }
        while bad - good > 8 {
            let mid = (good + bad) / 16 * 8
            let cost = periodCost(voices: mid, rendering: rendering)
            if cost <= budget { good = mid; goodCost = cost } else { bad = mid }
        }
        return (good, goodCost, false)
    }

    static func run() -> MarkdownTable {
        let budgetMs = budgetShare * Double(period) / sampleRate * 1e3
        var table = MarkdownTable(
            title: String(format: "Voices per core: Ariel poly synth (saw, tone + fuzz + delay + reverb, limiter), 64-frame periods at 48 kHz, within %.0f %% of a period (%.3f ms) (`prospero-bench voices`)", budgetShare * 100, budgetMs),
            header: ["Voice rendering", "Voices per core", "CPU per period at that count", "Share of the period"])
        for rendering in [PolySynthVoiceRendering.lanes, .scalar] {
            let r = search(rendering)
            let label = rendering == .lanes ? "SIMD lanes (default)" : "scalar, voice by voice (reference)"
            let voices = r.voices == 0 ? "< 8" : (r.capped ? "≥ \(r.voices) (the synth's maximum)" : "\(r.voices)")
            table.rows.append([label, voices, String(format: "%.3f ms", r.cost * 1e3),
                               String(format: "%.0f %%", r.cost / (Double(period) / sampleRate) * 100)])
        }
        return table
    }
}

// The reference patch of dsp-references.md section 3, rendered from Touchstone kernels.
//
// Patch: 64 voices, f_i = 55·2^(i/12); band-limited saw (Touchstone: four-point PolyBLEP; Faust: two-point) → SVF low-pass 2 kHz, Q 5 → ADSR 10/200/0.7/500 ms;
// gate off at 59 s (S − 1 s), S seconds (default 60) at 48 kHz mono, 256-frame blocks, output = sum/64.
// Faust's C++ of the same patch: ≈5.8 ns per voice-sample on the reference 2-core VM, peak 0.684, RMS 0.121;
// scripts/bench/compare builds and times Faust and Csound on this machine for a side-by-side figure.
//
// Voices render eight at a time in SIMD lanes (`renderLanes`): `BandLimitedOscillatorLanes` (saw),
// `StateVariableFilterLanes`, `ADSRLanes`, one vector step for eight voices; the eight lanes' sum is
// kept per sample as a vector and reduced once for all 64 voices. While two groups' envelopes are held
// (a reached sustain, idle: `ADSRLanes.isHeld`) the pair renders in two passes (`renderHeldPair`): both
// groups' saws, then both filters, each pass two independent recursions side by side. `--stepped-lanes`
// renders the lanes sample by sample without those paths; `--check` compares the two bit for bit.
// `--scalar` renders the same patch voice by voice (four side by side, so the filters' feedback latencies
// overlap), the reference the lanes are compared with: `--check` renders it too and prints the largest
// difference.
import Foundation
import Touchstone

struct Voice {
    var oscillator: BandLimitedOscillator
    var filter: StateVariableFilter
    var envelope: ADSR

    /// Adds this voice's output for `range` of `mix`.
    @inline(__always)
    mutating func render(into mix: UnsafeMutableBufferPointer<Float>, _ range: Range<Int>) {
        var osc = oscillator
        var svf = filter
        var env = envelope
        for i in range {
            let saw = osc.nextSaw()
            let filtered = svf.processSample(saw, as: LowPassResponse.self)
            mix[i] += filtered * env.nextSample()
        }
        oscillator = osc
        filter = svf
        envelope = env
    }
}

/// Renders four voices side by side: their recursions are independent, so the CPU overlaps them
/// (one voice alone is bound by the filter's feedback latency).
/// While the four filters are settled (the usual case) their coefficients and states live in registers
/// for the whole block; otherwise each voice takes the general per-sample path.
@inline(__always)
func renderGroup(_ voices: UnsafeMutableBufferPointer<Voice>, _ first: Int, into mix: UnsafeMutableBufferPointer<Float>, _ range: Range<Int>) {
    let settled = !(voices[first].filter.isSmoothing || voices[first + 1].filter.isSmoothing
        || voices[first + 2].filter.isSmoothing || voices[first + 3].filter.isSmoothing)
    guard settled else {
        for v in first..<(first + 4) { voices[v].render(into: mix, range) }
        return
    }
    var oa = voices[first].oscillator, ob = voices[first + 1].oscillator
    var oc = voices[first + 2].oscillator, od = voices[first + 3].oscillator
    var ea = voices[first].envelope, eb = voices[first + 1].envelope
    var ec = voices[first + 2].envelope, ed = voices[first + 3].envelope
    var fa = voices[first].filter.channelState, fb = voices[first + 1].filter.channelState
    var fc = voices[first + 2].filter.channelState, fd = voices[first + 3].filter.channelState
    let ca = voices[first].filter.currentCoefficients, cb = voices[first + 1].filter.currentCoefficients
    let cc = voices[first + 2].filter.currentCoefficients, cd = voices[first + 3].filter.currentCoefficients
    for i in range {
        let ya = fa.tick(oa.nextSaw(), ca).low * ea.nextSample()
        let yb = fb.tick(ob.nextSaw(), cb).low * eb.nextSample()
        let yc = fc.tick(oc.nextSaw(), cc).low * ec.nextSample()
        let yd = fd.tick(od.nextSaw(), cd).low * ed.nextSample()
        mix[i] += (ya + yb) + (yc + yd)
    }
    voices[first].oscillator = oa; voices[first + 1].oscillator = ob
    voices[first + 2].oscillator = oc; voices[first + 3].oscillator = od
    voices[first].envelope = ea; voices[first + 1].envelope = eb
    voices[first + 2].envelope = ec; voices[first + 3].envelope = ed
    voices[first].filter.channelState = fa; voices[first + 1].filter.channelState = fb
    voices[first + 2].filter.channelState = fc; voices[first + 3].filter.channelState = fd
}

/// Eight voices of the patch in SIMD lanes. The scalar `ADSR`s stay the owners of stages and gates;
/// `ADSRLanes` mirrors them and hands back the lanes whose segment ends.
struct VoiceLanes {
    var oscillators: BandLimitedOscillatorLanes
    var filters: StateVariableFilterLanes
    var envelopes: ADSRLanes

    /// Loads eight scalar voices (their oscillators must be saws at phase 0, their filters settled).
    init(_ voices: UnsafeMutableBufferPointer<Voice>, first: Int, spec: ProcessSpec) {
        var frequencies = BandLimitedOscillatorLanes.Vector()
        for lane in 0..<8 { frequencies[lane] = voices[first + lane].oscillator.frequency }
        oscillators = BandLimitedOscillatorLanes(waveform: .saw, frequencies: frequencies)
        oscillators.prepare(spec)
        filters = StateVariableFilterLanes()
        envelopes = ADSRLanes()
        for lane in 0..<8 {
            filters.load(lane, from: voices[first + lane].filter)
            envelopes.load(lane, from: voices[first + lane].envelope)
        }
    }
}

/// Adds eight voices' output for `range` to `mix`, lane by lane (the lanes are summed later, once for
/// all groups). `envelopes` are the group's eight scalar envelopes; `gains` is scratch for one block.
/// While every envelope is held (`ADSRLanes.isHeld`: a reached sustain, idle) one gain serves the whole
/// range; otherwise `renderSteppedLanes`. The same bits either way (`--check`).
@inline(__always)
func renderLanes(_ group: inout VoiceLanes, _ envelopes: UnsafeMutablePointer<ADSR>,
                 into mix: UnsafeMutablePointer<SIMD8<Float>>, gains: UnsafeMutablePointer<SIMD8<Float>>,
                 _ range: Range<Int>) {
    guard group.envelopes.isHeld else {
        renderSteppedLanes(&group, envelopes, into: mix, gains: gains, range)
        return
    }
    let gain = group.envelopes.output
    var osc = group.oscillators, svf = group.filters
    for i in range {
        mix[i] += svf.tick(osc.nextSaw()).low * gain
    }
    group.oscillators = osc; group.filters = svf
}

/// Fills `sawsA[0..<count]` and `sawsB[0..<count]` with two groups' next band-limited saw samples
/// (`nextSaw()`): the oscillators alone in one loop, so the band-limiting branches and residuals keep
/// their state in registers, apart from the filters, and the two phase recursions overlap in the CPU.
@inline(never)
func renderSaws(_ a: inout BandLimitedOscillatorLanes, _ b: inout BandLimitedOscillatorLanes,
                into sawsA: UnsafeMutablePointer<SIMD8<Float>>, _ sawsB: UnsafeMutablePointer<SIMD8<Float>>, count: Int) {
    var oscA = a, oscB = b
    // Where both groups need the band-limiting residual in most samples (the patch's highest eight voices and
    // the eight below), computing it always beats a branch that predicts badly (3 % of the render, measured).
    if oscA.residualSampleFraction >= 0.5 && oscB.residualSampleFraction >= 0.5 {
        for i in 0..<count {
            sawsA[i] = oscA.nextSawUnbranched()
            sawsB[i] = oscB.nextSawUnbranched()
        }
    } else {
        for i in 0..<count {
            sawsA[i] = oscA.nextSaw()
            sawsB[i] = oscB.nextSaw()
        }
    }
    a = oscA; b = oscB
}

/// Two held groups: their saws first (`renderSaws`), then both filters in one loop, their independent
/// recursions overlapping in the CPU. Each sample adds group `a`'s output, then group `b`'s, as two
/// `renderLanes` calls in turn do: the same bits.
@inline(never)
func renderHeldPair(_ a: inout VoiceLanes, _ b: inout VoiceLanes, into mix: UnsafeMutablePointer<SIMD8<Float>>,
                    saws: UnsafeMutablePointer<SIMD8<Float>>, _ range: Range<Int>) {
    let count = range.count, sawsA = saws, sawsB = saws + count
    renderSaws(&a.oscillators, &b.oscillators, into: sawsA, sawsB, count: count)
    let gainA = a.envelopes.output, gainB = b.envelopes.output
    var svfA = a.filters, svfB = b.filters
    let out = mix + range.lowerBound
    for i in 0..<count {
        let ya = svfA.tick(sawsA[i]).low * gainA
        let yb = svfB.tick(sawsB[i]).low * gainB
        out[i] = (out[i] + ya) + yb
    }
    a.filters = svfA; b.filters = svfB
}

/// `renderLanes` with the envelopes stepped every sample: two passes, envelopes then audio (apart, each
/// keeps its state in registers). The lane path as it was before the held gains and the held pairs, kept
/// as the reference `--check` compares the lanes with bit for bit (`--stepped-lanes` times it).
@inline(__always)
func renderSteppedLanes(_ group: inout VoiceLanes, _ envelopes: UnsafeMutablePointer<ADSR>,
                        into mix: UnsafeMutablePointer<SIMD8<Float>>, gains: UnsafeMutablePointer<SIMD8<Float>>,
                        _ range: Range<Int>) {
    var env = group.envelopes
    for i in range {
        let ended = env.step()
        if ADSRLanes.anyLane(ended) {
            for lane in 0..<8 where ended[lane] { env.endSegment(lane, &envelopes[lane]) }
        }
        gains[i] = env.output
    }
    group.envelopes = env
    var osc = group.oscillators, svf = group.filters
    for i in range {
        mix[i] += svf.tick(osc.nextSaw()).low * gains[i]
    }
    group.oscillators = osc; group.filters = svf
}

/// How `run` renders the voices.
enum Rendering {
    /// Eight voices per SIMD lane group, with the block paths (`renderLanes`): what is timed.
    case lanes
    /// The lanes stepped sample by sample (`renderSteppedLanes`): the bit-for-bit reference of `.lanes`.
    case steppedLanes
    /// Voice by voice, four side by side (`renderGroup`): the scalar kernels, equal to the lanes to Float rounding.
    case scalar
}

func cpuSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

struct RunResult {
    var cpu: Double
    var wall: Double
    var peak: Float
    var rms: Double
    var samples: [Float]
}

func run(seconds: Double, keep: Bool, rendering: Rendering = .lanes) -> RunResult {
    let lanes = rendering != .scalar, stepped = rendering == .steppedLanes
    let sampleRate = 48_000.0
    let blockSize = 256
    let spec = ProcessSpec(sampleRate: sampleRate, maximumBlockSize: blockSize)
    let totalFrames = Int(seconds * sampleRate)
    let gateOffFrame = Int((seconds - 1) * sampleRate)
    let parameters = ADSR.Parameters(attack: 0.01, decay: 0.2, sustain: 0.7, release: 0.5)

    var voices = (0..<64).map { i -> Voice in
        let frequency = Float(55 * pow(2, Double(i) / 12))
        var v = Voice(oscillator: BandLimitedOscillator(waveform: .saw, frequency: frequency),
                      filter: StateVariableFilter(mode: .lowPass, cutoff: 2_000, q: 5),
                      envelope: ADSR(parameters))
        v.oscillator.prepare(spec)
        v.filter.prepare(spec)
        v.envelope.prepare(spec)
        v.envelope.gateOn()
        return v
    }
    var output = [Float](repeating: 0, count: keep ? totalFrames : 0)
    var mix = [Float](repeating: 0, count: blockSize)
    // Lanes: eight groups mirroring the scalar voices, a vector sum per sample, scalar envelopes apart.
    var groups = voices.withUnsafeMutableBufferPointer { v in (0..<8).map { VoiceLanes(v, first: 8 * $0, spec: spec) } }
    var envelopes = voices.map(\.envelope)
    var laneMix = [SIMD8<Float>](repeating: SIMD8(), count: blockSize)
    // Scratch: one block of gains (stepped envelopes) or two of saws (held pairs).
    var laneGains = [SIMD8<Float>](repeating: SIMD8(), count: 2 * blockSize)
    var peak: Float = 0
    var sumSquares = 0.0

    let wallStart = ContinuousClock.now
    let cpuStart = cpuSeconds()
    mix.withUnsafeMutableBufferPointer { mix in
      voices.withUnsafeMutableBufferPointer { voices in
        laneMix.withUnsafeMutableBufferPointer { laneMix in
          groups.withUnsafeMutableBufferPointer { groups in
            envelopes.withUnsafeMutableBufferPointer { envelopes in
            laneGains.withUnsafeMutableBufferPointer { laneGains in
            var start = 0
            while start < totalFrames {
                let n = min(blockSize, totalFrames - start)
                // Sample-accurate gate: split the block at the gate-off frame.
                let split = (start..<(start + n)).contains(gateOffFrame) ? gateOffFrame - start : n
                if lanes {
                    let lm = laneMix.baseAddress!, e = envelopes.baseAddress!, lg = laneGains.baseAddress!
                    for i in 0..<n { lm[i] = SIMD8() }
                    if stepped {
                        for g in groups.indices { renderSteppedLanes(&groups[g], e + 8 * g, into: lm, gains: lg, 0..<split) }
                    } else {
                        for g in stride(from: 0, to: groups.count, by: 2) {
                            if groups[g].envelopes.isHeld && groups[g + 1].envelopes.isHeld {
                                renderHeldPair(&groups[g], &groups[g + 1], into: lm, saws: lg, 0..<split)
                            } else {
                                renderLanes(&groups[g], e + 8 * g, into: lm, gains: lg, 0..<split)
                                renderLanes(&groups[g + 1], e + 8 * g + 8, into: lm, gains: lg, 0..<split)
                            }
                        }
                    }
                    if split < n {
                        for g in groups.indices {
                            for lane in 0..<8 { groups[g].envelopes.update(lane, &e[8 * g + lane]) { $0.gateOff() } }
                        }
                        for g in groups.indices {
                            if stepped { renderSteppedLanes(&groups[g], e + 8 * g, into: lm, gains: lg, split..<n) }
                            else { renderLanes(&groups[g], e + 8 * g, into: lm, gains: lg, split..<n) }
                        }
                    }
                    for i in 0..<n {
                        let four = lm[i].lowHalf + lm[i].highHalf
                        let two = four.lowHalf + four.highHalf
                        mix[i] = two.x + two.y
                    }
                } else {
                    for i in 0..<n { mix[i] = 0 }
                    for g in stride(from: 0, to: voices.count, by: 4) { renderGroup(voices, g, into: mix, 0..<split) }
                    if split < n {
                        for v in voices.indices { voices[v].envelope.gateOff() }
                        for g in stride(from: 0, to: voices.count, by: 4) { renderGroup(voices, g, into: mix, split..<n) }
                    }
                }
                var blockSquares: Float = 0
                for i in 0..<n {
                    let y = mix[i] * (1 / 64)
                    mix[i] = y
                    peak = max(peak, abs(y))
                    blockSquares += y * y
                }
                sumSquares += Double(blockSquares)
                if keep { for i in 0..<n { output[start + i] = mix[i] } }
                start += n
            }
            }
            }
          }
        }
      }
    }
    let cpu = cpuSeconds() - cpuStart
    let wall = (ContinuousClock.now - wallStart) / .seconds(1)
    return RunResult(cpu: cpu, wall: wall, peak: peak, rms: (sumSquares / Double(totalFrames)).squareRoot(), samples: output)
}

enum ReferencePatch {
    static func main(_ options: Options) {
        let seconds = options.seconds ?? 60
        if options.check {
            // The lanes against the scalar voices, sample by sample (same patch, same seconds), and against
            // the lanes stepped sample by sample, bit for bit.
            let lanes = run(seconds: seconds, keep: true, rendering: .lanes)
            let scalar = run(seconds: seconds, keep: true, rendering: .scalar)
            let stepped = run(seconds: seconds, keep: true, rendering: .steppedLanes)
            let difference = zip(lanes.samples, scalar.samples).map { abs($0 - $1) }.max() ?? 0
            print(String(format: "lanes vs scalar voices: largest difference %.2e over %d samples (output sum/64)",
                          difference, lanes.samples.count))
            let unequal = zip(lanes.samples, stepped.samples).count { $0.bitPattern != $1.bitPattern }
            print("lanes vs stepped lanes: \(unequal) of \(lanes.samples.count) samples differ in any bit")
            if !(difference <= 2e-5) || unequal != 0 { exit(1) }
            return
        }
        var results: [RunResult] = []
        for r in 0..<options.runs {
            results.append(run(seconds: seconds, keep: options.output != nil && r == 0,
                               rendering: options.scalar ? .scalar : options.steppedLanes ? .steppedLanes : .lanes))
        }
        let best = results.min { $0.cpu < $1.cpu }!
        let sortedCPU = results.map(\.cpu).sorted()
        let median = sortedCPU[sortedCPU.count / 2]
        let voiceSamples = 64 * seconds * 48_000
        print("reference patch: 64 voices band-limited (4-point PolyBLEP) saw -> SVF LP 2 kHz Q 5 -> ADSR 10/200/0.7/500 ms, \(seconds) s at 48 kHz, 256-frame blocks, \(options.scalar ? "scalar voices" : options.steppedLanes ? "voices in SIMD lanes, stepped per sample" : "voices in SIMD lanes")")
        print(String(format: "runs: %d   CPU seconds best %.3f  median %.3f   (wall best %.3f)", options.runs, best.cpu, median, results.map(\.wall).min()!))
        // One machine-readable line for scripts/bench/compare: the render loop's CPU alone (no start-up, no output file).
        print(String(format: "render-cpu-seconds %.4f", median))
        print(String(format: "ns per voice-sample: best %.2f  median %.2f   (Faust reference ≈5.8, budget 8.7)", best.cpu / voiceSamples * 1e9, median / voiceSamples * 1e9))
        print(String(format: "real-time factor: %.1fx", seconds / best.cpu))
        print(String(format: "output peak %.3f  RMS %.3f   (Faust: peak 0.684, RMS 0.121)", best.peak, best.rms))
        if let path = options.output, let first = results.first {
            let data = first.samples.withUnsafeBufferPointer { Data(buffer: $0) }
            guard FileManager.default.createFile(atPath: path, contents: data) else {
                FileHandle.standardError.write("cannot write \(path)\n".data(using: .utf8)!)
                exit(1)
            }
            print("wrote \(first.samples.count) float32 samples to \(path)")
        }
    }
}

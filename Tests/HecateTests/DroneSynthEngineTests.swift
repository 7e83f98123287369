import AllocationCounting
import Ariel
import Foundation
import Hecate
import Horatio
import ProsperoTestSupport
import Testing
import Touchstone

/// Levels, timing and safety of the engine, measured in the rendered signal.
@Suite struct DroneSynthEngineTests {
    static let rate = 48_000.0

    static func everyTone(_ amount: Float = 1) -> FaceAmounts {
        FaceAmounts(root: amount, third: amount, fifth: amount, seventh: amount, ninth: amount, octave: amount, bass: amount,
                    cutoff: amount, resonance: amount, formantF1: amount, formantF2: amount, brightness: amount)
    }

    @Test(arguments: [(false, OutputRoute.wired, -6.0), (true, .wired, -10), (true, .speaker, -10), (true, .bluetooth, -14)])
    func outputNeverExceedsTheCeilingUnderWildFaces(playAlong: Bool, route: OutputRoute, ceiling: Double) {
        #expect(route.limiterCeiling(playAlong: playAlong) == ceiling)
        var random = SeededRandom(seed: 0x5EED &+ UInt64(ceiling.magnitude))
        func next() -> Float { random.float(0...1) }
        let weird: [Float] = [.nan, .infinity, -.infinity, -5, 40, 1, 0]
        var commands: [(Double, DroneSynthEngine.Command)] = [(0, .output(playAlong: playAlong, route: route))]
        var preset = SoundPack.coven.preset
        preset.reverbMix = 1
        preset.droneLevel = 1
        preset.bassLevel = 1
        preset.subLevel = 1
        preset.filterResonanceMax = 20
        commands.append((0, .preset(preset)))
        commands.append((0, .tremolo(shape: .square, division: .sixteenth, depth: 1)))
        for frame in 0..<120 {
            let t = Double(frame) / 30
            func value() -> Float { next() < 0.15 ? weird[Int(next() * Float(weird.count)) % weird.count] : next() }
            let amounts = FaceAmounts(root: value(), third: value(), fifth: value(), seventh: value(), ninth: value(),
                                      octave: value(), bass: value(), cutoff: value(), resonance: value(),
                                      formantF1: value(), formantF2: value(), brightness: value())
            commands.append((t, .face(amounts)))
            if frame % 20 == 7 { commands.append((t, .chord(NashvilleDegree.allCases[frame % 7]))) }
            if frame % 40 == 13 { commands.append((t, .bpm(Double(value()) * 400))) }
        }
        let out = renderEngine(seconds: 4.2, commands: commands)
        let limit = Float(pow(10, ceiling / 20)) * 1.0001
        #expect(out.left.allSatisfy(\.isFinite) && out.right.allSatisfy(\.isFinite))
        #expect(peak(out.left) <= limit && peak(out.right) <= limit, "peak \(decibels(Double(max(peak(out.left), peak(out.right))))) dBFS, ceiling \(ceiling)")
        // And the limiter is really working: the signal reaches the ceiling.
        #expect(peak(out.left) > limit * 0.7)
    }

    /// RMS every 1 ms over a window of four periods of C3 (the resting root; 1468 samples, whole periods of the drone too), centred on
    /// each millisecond, for timing measurements.
    static func envelope(_ s: [Float]) -> [Double] {
        let window = 1468
        return stride(from: 0, to: s.count, by: 48).map { centre in
            let from = max(0, centre - window / 2), to = min(s.count, from + window)
            return rms(s, from..<to)
        }
    }

    /// RMS in plain windows (for modulation-rate measurements).
    static func blockRMS(_ s: [Float], window: Int) -> [Double] {
        stride(from: 0, to: s.count - window, by: window).map { rms(s, $0..<($0 + window)) }
    }

    @Test func faceLostFadesOutIn100msAndBackIn450ms() {
        var p = measuringPreset()
        p.droneLevel = 0.2
        p.detuneCents = 0
        let engine = DroneSynthEngine(preset: p)
        let out = renderEngine(engine, seconds: 3.5, commands: [(0, .faceFound), (1.0, .faceLost), (2.0, .faceFound)])
        let env = Self.envelope(out.left)
        let steady = env[900]
        // Fade times from the command to the level's crossing of −60 dB (down) and −0.1 dB (up); the
        // window spans ±7.6 ms, so crossings are read where the window's centre passes them.
        let downEnd = (1000..<env.count).first { env[$0] < steady * 0.001 }!
        let down = Double(downEnd - 1000)
        let upEnd = (2000..<env.count).first { env[$0] > steady * 0.9886 }!
        let up = Double(upEnd - 2000)
        #expect((85...120).contains(down), "fade out \(down) ms")
        #expect((400...470).contains(up), "fade in \(up) ms")
        // Silent while lost (drone included).
        #expect(env[1500] < 1e-5)
        print("face-lost fade measured: out \(down) ms (to −60 dB), in \(up) ms (to −0.1 dB)")
    }

    @Test func launchFadesIn() {
        var p = measuringPreset()
        p.detuneCents = 0
        let out = renderEngine(DroneSynthEngine(preset: p), seconds: 1, commands: [(0, .faceFound)])
        let env = Self.envelope(out.left)
        #expect(env[0] < env[800] * 0.01)
        #expect(env[300] < env[800] * 0.9)  // still rising at 300 ms
        #expect(abs(decibels(env[500] / env[800])) < 0.2)  // up by 500 ms
    }

    @Test(arguments: [(120.0, NoteDivision.eighth), (90.0, NoteDivision.sixteenth), (100.0, NoteDivision.eighth.triplet)])
    func arpeggiatorStepsThroughActiveTonesInPitchOrderAtTheTempo(bpm: Double, division: NoteDivision) {
        var p = measuringPreset()
        p.detuneCents = 0
        let engine = DroneSynthEngine(preset: p)
        let face = FaceAmounts.neutral.with(.third, 1).with(.fifth, 0.6)  // root, third, fifth active
        let start = 0.6
        let step = division.seconds(bpm: bpm)
        let out = renderEngine(engine, seconds: start + step * 17, commands: [
            (0, .face(face)), (0, .bpm(bpm)), (0, .arpeggiatorDivision(division)), (start, .arpeggiator(true)),
        ])
        let tones: [ChordTone] = [.root, .third, .fifth]
        var order: [ChordTone] = []
        for k in 0..<16 {
            let from = start + Double(k) * step
            // Gate open for 80 % of the step: measure 20…75 %, then the closed tail at 85…98 %.
            let open = seconds(from + 0.2 * step, from + 0.75 * step)
            let loudest = tones.max { toneAmplitude(out.left, at: toneFrequency($0), in: open) < toneAmplitude(out.left, at: toneFrequency($1), in: open) }!
            order.append(loudest)
            let closed = seconds(from + 0.88 * step, from + 0.98 * step)
            #expect(rms(out.left, closed) < rms(out.left, open) * 0.2, "step \(k) gate closes")
        }
        // 8 steps cycling root, third, fifth; the pattern restarts at step 0.
        let eight: [ChordTone] = [.root, .third, .fifth, .root, .third, .fifth, .root, .third]
        #expect(order == eight + eight)
    }

    @Test(arguments: [(120.0, NoteDivision.eighth, TremoloShape.sine), (100.0, .sixteenth, .square), (90.0, .quarter.dotted, .triangle), (140.0, .eighth.triplet, .saw)])
    func tremoloRateFollowsTempoAndDivision(bpm: Double, division: NoteDivision, shape: TremoloShape) {
        var p = measuringPreset()
        p.detuneCents = 0
        let engine = DroneSynthEngine(preset: p)
        let out = renderEngine(engine, seconds: 4.5, commands: [(0, .faceFound), (0, .bpm(bpm)), (0, .tremolo(shape: shape, division: division, depth: 0.8))])
        let env = Self.blockRMS(out.left, window: 48)  // 1 ms
        let envRate = 1000.0
        let expected = division.frequency(bpm: bpm)
        let range = 800..<env.count
        var best = (hz: 0.0, amplitude: 0.0)
        for hz in stride(from: 0.5, through: 20, by: 0.01) {
            let a = toneAmplitude(env.map(Float.init), at: hz, in: range, sampleRate: envRate)
            if a > best.amplitude { best = (hz, a) }
        }
        #expect(abs(best.hz - expected) < 0.03 * expected, "tremolo \(best.hz) Hz, expected \(expected) Hz")
    }

    /// Largest sample-to-sample step in `range` of both channels.
    static func maxJump(_ s: (left: [Float], right: [Float]), _ range: Range<Int>) -> Float {
        var j: Float = 0
        for i in range.dropFirst() {
            j = max(j, abs(s.left[i] - s.left[i - 1]), abs(s.right[i] - s.right[i - 1]))
        }
        return j
    }

    @Test func packChangeMidPerformanceDoesNotClick() {
        let face: (Double, DroneSynthEngine.Command) = (0, .face(Self.everyTone(0.7)))
        let out = renderEngine(DroneSynthEngine(preset: SoundPack.cathedral.preset), seconds: 4.5, commands: [
            face, (1.5, .preset(SoundPack.coven.preset)), (3.0, .preset(SoundPack.cathedral.preset)),
        ])
        // References: each pack alone. Oscillator phases advance the same whatever the pack, so at any
        // moment the references show the largest step each pack makes there on its own (detuned saws
        // line their edges up only now and then).
        let cathedral = renderEngine(DroneSynthEngine(preset: SoundPack.cathedral.preset), seconds: 4.5, commands: [face])
        let coven = renderEngine(DroneSynthEngine(preset: SoundPack.coven.preset), seconds: 4.5, commands: [face])
        for change in [1.5, 3.0] {
            let window = seconds(change - 0.05, change + 0.4)
            let bound = max(Self.maxJump(cathedral, window), Self.maxJump(coven, window)) * 1.25
            let jump = Self.maxJump(out, window)
            #expect(jump <= bound, "at \(change) s: largest step \(jump), packs alone \(Self.maxJump(cathedral, window)) / \(Self.maxJump(coven, window))")
        }
        // And the sound really changed: the saw pack is brighter.
        #expect(spectralCentroid(out.left, in: seconds(2.4, 2.6)) > spectralCentroid(out.left, in: seconds(1.2, 1.4)) * 1.2)
    }

    @Test func chordChangesGlideWithoutClicks() {
        var p = measuringPreset()
        p.detuneCents = 0
        var commands: [(Double, DroneSynthEngine.Command)] = [(0, .face(Self.everyTone(0.8)))]
        let bar: [NashvilleDegree] = [.four, .five, .six, .two, .seven, .three, .one]
        for (i, d) in bar.enumerated() { commands.append((1.0 + Double(i) * 0.6, .chord(d))) }
        commands.append((5.2, .key(.fSharp)))
        let out = renderEngine(DroneSynthEngine(preset: p), seconds: 6.0, commands: commands)
        // Each change: the glide's steps stay within the larger of the chords' own steady steps.
        for change in commands.dropFirst().map(\.0) {
            let before = Self.maxJump(out, seconds(change - 0.3, change))
            let after = Self.maxJump(out, seconds(change + 0.35, change + 0.6))
            let glide = Self.maxJump(out, seconds(change, change + 0.35))
            #expect(glide <= max(before, after) * 1.3, "at \(change) s: glide \(glide), steady \(before)/\(after)")
        }
        // After the key change (I in F♯) the root sounds at its new pitch.
        let root = toneFrequency(.root, key: .fSharp)
        #expect(toneAmplitude(out.left, at: root, in: seconds(5.6, 6.0)) > 10 * toneAmplitude(out.left, at: toneFrequency(.root), in: seconds(5.6, 6.0)))
    }

    @Test func droneStaysOnTheKeyRootWhileChordsMove() {
        var p = measuringPreset()
        p.droneLevel = 0.6
        p.detuneCents = 0
        let voicing = DroneVoicing(key: .a, degree: .five)
        let droneHz = DroneVoicing.frequency(voicing.droneRoot)
        let out = renderEngine(DroneSynthEngine(preset: p, key: .a), seconds: 2.5, commands: [(0, .faceFound), (0, .key(.a)), (1.0, .chord(.five))])
        let before = toneAmplitude(out.left, at: droneHz, in: seconds(0.6, 1.0))
        let after = toneAmplitude(out.left, at: droneHz, in: seconds(1.6, 2.0))
        #expect(before > 0.01 && abs(decibels(after / before)) < 1, "drone \(decibels(before)) → \(decibels(after)) dB")
        #expect(abs(droneHz - 55) < 0.01)  // A1: the key root, an octave under the voicing's key root (A2)
    }

    @Test func everyKeyAndChordVoicesTheBassInItsSweetSpot() {
        for key in MusicalKey.allCases {
            for degree in NashvilleDegree.allCases {
                let v = DroneVoicing(key: key, degree: degree)
                let bass = DroneVoicing.frequency(v.bass)
                #expect(DroneVoicing.bassSweetSpot.contains(bass), "\(key) \(degree): \(bass) Hz")
                #expect((v.bass - v.tones[0]) % 12 == 0)
                #expect(v.sub == v.tones[0] - 12)
                #expect(v.droneRoot % 12 == key.rawValue)
            }
        }
    }

    @Test func snapshotsReportTheDisplayState() {
        let engine = DroneSynthEngine(preset: measuringPreset())
        let host = EngineHost(engine: engine, spec: ProcessSpec(sampleRate: Self.rate, maximumBlockSize: 256, channelCount: 2))
        host.send(.face(FaceAmounts.neutral.with(.fifth, 1)))
        host.send(.bassLevel(1))
        host.send(.sculpt(.brightness, 1))
        host.send(.sculpt(.cutoff, 1))
        host.send(.tremolo(shape: .sine, division: .quarter, depth: 0.5))
        var l = [Float](repeating: 0, count: 256), r = l
        var snaps: [DroneSynthSnapshot] = []
        for _ in 0..<(48_000 / 256) {
            l.withUnsafeMutableBufferPointer { lp in r.withUnsafeMutableBufferPointer { rp in host.process(left: lp, right: rp) } }
            let (s, isNew) = host.latestSnapshot()
            if isNew, let s { snaps.append(s) }
        }
        // EngineHost publishes on the first block after each 1/30 s: every 7th 256-frame block.
        #expect((26...31).contains(snaps.count), "\(snaps.count) snapshots in 1 s")
        let last = snaps.last!
        #expect(abs(last.root - 1) < 0.01 && abs(last.fifth - 1) < 0.01 && last.third < 0.01)
        #expect(abs(last.bass - 1) < 0.01)
        #expect(abs(last.shimmer - Float(SoundPack.cathedral.preset.brightnessCap)) < 0.01)
        #expect(last.filterSweep > 0.98)
        #expect(last.rms > 0.01 && last.faceFade == 1)
        #expect((0...1).contains(last.tremoloPhase) && (0...1).contains(last.breathPhase))
        // Smoothed RMS: 0.7 × old + 0.3 × new, so it rises over several snapshots after the fade-in.
        #expect(snaps[1].rms < snaps[10].rms)
        var wave = [Float](repeating: 0, count: 256)
        let ok = wave.withUnsafeMutableBufferPointer { engine.waveform.readLatest(into: $0) }
        #expect(ok && wave == Array(l.suffix(256)))
    }

    @Test func snapshotsShowTheKeyAndChordTheAudioThreadPlays() {
        let engine = DroneSynthEngine(key: .d)
        let host = EngineHost(engine: engine, spec: ProcessSpec(sampleRate: Self.rate, maximumBlockSize: 256, channelCount: 2))
        var l = [Float](repeating: 0, count: 256), r = l
        func run(blocks: Int) -> DroneSynthSnapshot? {
            for _ in 0..<blocks {
                l.withUnsafeMutableBufferPointer { lp in r.withUnsafeMutableBufferPointer { rp in host.process(left: lp, right: rp) } }
            }
            return host.latestSnapshot().snapshot
        }
        let first = run(blocks: 8)
        #expect(first?.key == MusicalKey.d.rawValue && first?.chord == 1)
        host.send(.chord(.six))
        host.send(.key(.bFlat))
        // A command reaches the engine at the next block; the snapshot after the next 1/30 s shows it.
        let later = run(blocks: 8)
        #expect(later?.key == 10 && later?.chord == 6)
    }
}

@Suite(.allocationCounting)
struct DroneSynthEngineAllocationTests {
    @Test func renderAndCommandsAllocateNothing() throws {
        try #require(AllocationCounter.isAvailable)
        let engine = DroneSynthEngine()
        let host = EngineHost(engine: engine, spec: ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256, channelCount: 2))
        var l = [Float](repeating: 0, count: 256), r = l
        l.withUnsafeMutableBufferPointer { lp in r.withUnsafeMutableBufferPointer { rp in host.process(left: lp, right: rp) } }
        let commands: [DroneSynthEngine.Command] = [
            .face(DroneSynthEngineTests.everyTone(0.9)), .chord(.five), .key(.eFlat), .bpm(133), .arpeggiator(true),
            .arpeggiatorDivision(.sixteenth), .tremolo(shape: .square, division: .eighth, depth: 0.7), .reverbMix(0.5),
            .output(playAlong: true, route: .bluetooth), .preset(SoundPack.coven.preset), .faceLost, .faceFound,
            .toneLevel(.ninth, 0.3), .bassLevel(0.4), .sculpt(.resonance, 0.8),
        ]
        let count = l.withUnsafeMutableBufferPointer { lp in
            r.withUnsafeMutableBufferPointer { rp in
                AllocationCounter.allocations {
                    for (i, c) in commands.enumerated() {
                        engine.handle(c)
                        for _ in 0..<(i % 3 + 1) { engine.render(left: lp, right: rp) }
                        _ = engine.snapshot()
                    }
                    for _ in 0..<200 { engine.render(left: lp, right: rp) }
                }
            }
        }
        #expect(count == 0)
    }
}

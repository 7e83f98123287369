import Foundation
import HiSynth
import InstrumentSettings
import Oberon

extension HiSynthStudioInstrument {
    /// FFT length of the spectrum (the original taps 2048 values).
    public static let spectrumSize = 2048
    /// Spectrum bars (spec §1: 100 log-spaced bars, 20 Hz … 22 kHz).
    public static let spectrumBarCount = 100
    public static let spectrumRange = 20.0...22_000.0
    /// Scope: the last 1024 output samples, every 10th (spec §3).
    public static let scopeLength = 1024
    public static let scopeStride = 10

    /// Band edges of the spectrum bars, Hz (101 values, log-spaced over ``spectrumRange``).
    public static let spectrumEdges: [Double] = (0...spectrumBarCount).map {
        spectrumRange.lowerBound * pow(spectrumRange.upperBound / spectrumRange.lowerBound, Double($0) / Double(spectrumBarCount))
    }
    /// Bar centres (geometric), Hz: where the filter response is evaluated.
    public static let spectrumCentres: [Double] = (0..<spectrumBarCount).map { (spectrumEdges[$0] * spectrumEdges[$0 + 1]).squareRoot() }

    /// The rack's frame: at most 30 a second, and only while the engine renders (a new snapshot).
    ///
    /// Members: `player` {song, position, duration (s), playing, looping, starting}; `roll`: the piano
    /// roll's bars of the last 64 note events (keyboard, player and MIDI in) within its 4 s window, each
    /// [note, start, end, held] with start/end in seconds before now (a held note's end is 0);
    /// `held` (notes the engine holds), `voices` (sounding); `lfo` {values: 3 outputs −1…1, phases: 3
    /// cycle positions 0…1 since the last key sync}; `cutoffs` {low, high} (Hz, with the LFOs);
    /// `spectrum`: 100 bars in dBFS of the filter-out signal (2048-point FFT, Hann; a full-scale sine
    /// reads 0 dB); `response`: the filters' magnitude response in dB at the bars' centres
    /// (``spectrumCentres``) from the coefficients they run with; `scope`: the last 1024 output samples,
    /// every 10th; `envelopeLabel`; `engine`: the settings the synth runs, in engine units
    /// (``settingsJSON(_:)``); `clockBPM`: the tempo of the MIDI clock the song follows (only while one runs).
    /// `player.tempo` is the scale the song plays at now (the clock's tempo over the song's own while one runs).
    public func frameJSON(now: Double) -> [String: StudioValue]? {
        guard now - lastFrameTime >= 1 / Self.maximumFrameRate - 0.002 else { return nil }
        let (snapshot, isNew) = host.latestSnapshot()
        guard let snapshot, isNew else { return nil }
        lastSnapshot = snapshot
        lastFrameTime = now
        let engine = host.engine.engine
        let rate = host.spec.sampleRate
        let p = snapshot.player
        let events = engine.noteLog.events()
        let roll = HiSynthPianoRoll(events: events, now: p.engineFrame, sampleRate: rate)
        var frame: [String: StudioValue] = [:]
        frame["player"] = .object([
            "song": .number(Double(snapshot.song)), "position": .number(Self.round(p.position, 1000)),
            "duration": .number(Self.round(p.duration, 1000)), "playing": .bool(p.isPlaying || snapshot.starting),
            "looping": .bool(p.isLooping), "starting": .bool(snapshot.starting),
            "tempo": .number(Self.round(p.tempoScale, 1000)),
        ])
        if let bpm = live.followedBPM { frame["clockBPM"] = .number(bpm) }
        frame["roll"] = .array(roll.bars.map {
            .array([.number(Double($0.note)), .number(Self.round($0.start, 1000)), .number(Self.round($0.end, 1000)), .bool($0.isHeld)])
        })
        frame["held"] = .array((0..<128).filter { p.synth.isHeld(UInt8($0)) }.map { .number(Double($0)) })
        frame["voices"] = .number(Double(p.synth.soundingVoiceCount))
        // LFO phases: every note-on restarts them (key sync), so they run from the newest note-on.
        let lastOn = events.last(where: \.isOn)?.frame ?? 0
        let elapsed = max(0, Double(p.engineFrame - lastOn) / rate)
        let v = p.synth.lfoValues
        frame["lfo"] = .object([
            "values": .array([v.x, v.y, v.z].map { .number(Self.round(Double($0), 1000)) }),
            "phases": .array(preset.lfos.map { lfo in
                let cycles = Double(lfo.speed) * elapsed
                return .number(Self.round(cycles - cycles.rounded(.down), 1000))
            }),
        ])
        frame["cutoffs"] = .object(["low": .number(Self.round(Double(p.synth.lowPassCutoff), 10)),
                                    "high": .number(Self.round(Double(p.synth.highPassCutoff), 10))])
        frame["spectrum"] = .array(spectrum(engine.filterScope.latest(Self.spectrumSize), sampleRate: rate).map { .number(Self.round($0, 10)) })
        let response = HiSynthEngine.filterResponse(
            lowCutoff: p.synth.lowPassCutoff, lowResonance: Float(preset.filters.lowPass.resonance),
            highCutoff: p.synth.highPassCutoff, highResonance: Float(preset.filters.highPass.resonance),
            sampleRate: rate, frequencies: Self.spectrumCentres)
        frame["response"] = .array(response.map { .number(Self.round(max($0, -120), 10)) })
        let scope = engine.scope.latest(Self.scopeLength)
        frame["scope"] = .array(stride(from: 0, to: scope.count, by: Self.scopeStride).map {
            .number(Self.round(Double(max(-1, min(1, scope[$0]))), 1000))
        })
        frame["envelopeLabel"] = .string(Self.envelopeLabel(preset.envelope))
        frame["engine"] = Self.settingsJSON(snapshot.settings)
        return frame
    }

    /// The 100 bars in dBFS: each the strongest bin in its band; a band narrower than a bin takes the bin
    /// at its centre. Bands above Nyquist read the floor (−140 dB).
    func spectrum(_ samples: [Float], sampleRate: Double) -> [Double] {
        var magnitudes = [Float](repeating: 0, count: analyzer.binCount)
        samples.withUnsafeBufferPointer { input in
            magnitudes.withUnsafeMutableBufferPointer { analyzer.magnitudes(of: input, into: $0) }
        }
        let binWidth = sampleRate / Double(Self.spectrumSize)
        return (0..<Self.spectrumBarCount).map { b in
            let lo = Self.spectrumEdges[b], hi = Self.spectrumEdges[b + 1]
            guard lo < sampleRate / 2 else { return -140 }
            let k0 = Int((lo / binWidth).rounded(.up)), k1 = min(Int((hi / binWidth).rounded(.down)), magnitudes.count - 1)
            var peak: Float = 0
            if k0 <= k1 {
                for k in k0...k1 { peak = max(peak, magnitudes[k]) }
            } else {
                peak = magnitudes[min(Int((Self.spectrumCentres[b] / binWidth).rounded()), magnitudes.count - 1)]
            }
            return 20 * log10(max(Double(peak), 1e-7))
        }
    }

    static func round(_ x: Double, _ scale: Double) -> Double { x.isFinite ? (x * scale).rounded() / scale : 0 }
}

extension HiSynthPreset {
    /// The name a preset gets when its name field does not decode (bad base64 or invalid UTF-8),
    /// as in the original.
    public static let untitledName = "Untitled"

    /// Decodes a preset string `b64(name):OSC:ENV:FILTER:LFO:AFX` exactly as the original app does
    /// (spec §2), throwing instead of crashing where the original crashes.
    ///
    /// Accepted like the original: whitespace around the string (trimmed), fields after the sixth,
    /// bytes after a section's last field, bool bytes ≥ 2 (true), a name that fails to decode
    /// ("Untitled"). Such strings re-encode to the canonical string. Finite values outside the UI
    /// ranges are kept exactly.
    ///
    /// - Throws: `HiSynthPresetError` naming the section and the problem.
    public init(string: String) throws(HiSynthPresetError) {
        let trimmed = Self.trimmingWhitespace(string)
        guard !trimmed.isEmpty else { throw .empty }
        let fields = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count >= 6 else { throw .tooFewFields(found: fields.count) }

        let name = HiSynthBase64.decode(fields[0]).flatMap { String(validating: $0, as: UTF8.self) } ?? Self.untitledName
        func payload(_ section: HiSynthPresetSection) throws(HiSynthPresetError) -> HiSynthPayloadReader {
            guard let compressed = HiSynthBase64.decode(fields[section.rawValue]) else { throw .badBase64(section) }
            return HiSynthPayloadReader(try HiSynthRawDeflate.inflate(compressed, section: section), section: section)
        }

        var osc = try payload(.oscillators)
        let waveform1 = try osc.waveform("waveform1")
        let waveform2 = try osc.waveform("waveform2")
        let level1 = try osc.float16("level1")
        let level2 = try osc.float16("level2")
        let pitch1 = try osc.float16("pitch1")
        let pitch2 = try osc.float16("pitch2")

        var env = try payload(.envelope)
        let envelope = Envelope(
            attack: try env.float16("attack"), decay: try env.float16("decay"),
            sustain: try env.float16("sustain"), release: try env.float16("release"))

        var flt = try payload(.filters)
        let lowPass = Filter(cutoff: try flt.float16("lpCutoff"), resonance: try flt.float16("lpRes"))
        let highPass = Filter(cutoff: try flt.float16("hpCutoff"), resonance: try flt.float16("hpRes"))

        var lfo = try payload(.lfos)
        let n = Self.lfoCount
        try lfo.count("waveforms", expected: n)
        var waveforms: [HiSynthWaveform] = []
        for index in 0..<n { waveforms.append(try lfo.waveform("waveforms[\(index)]")) }
        func floats(_ field: String) throws(HiSynthPresetError) -> [Float16] {
            try lfo.count(field, expected: n)
            var values: [Float16] = []
            for index in 0..<n { values.append(try lfo.float16("\(field)[\(index)]")) }
            return values
        }
        func bools(_ field: String) throws(HiSynthPresetError) -> [Bool] {
            try lfo.count(field, expected: n)
            var values: [Bool] = []
            for index in 0..<n { values.append(try lfo.bool("\(field)[\(index)]")) }
            return values
        }
        let depths = try floats("depths")
        let speeds = try floats("speeds")
        let phases = try floats("phases")
        let modPitch = try bools("modPitch")
        let modAmplitude = try bools("modAmplitude")
        let modFilterLow = try bools("modFilterLow")
        let modFilterHigh = try bools("modFilterHigh")

        var afx = try payload(.effects)
        let reverbSize = try afx.float16("reverbSize")
        let reverbType = try afx.reverbType("reverbType")
        let reverbMix = try afx.float16("reverbMix")
        let reverbOn = try afx.bool("reverbOn")
        let delayFeedback = try afx.float16("delayFeedback")
        let delayTime = try afx.float16("delayTime")
        let delayMix = try afx.float16("delayMix")
        let delayOn = try afx.bool("delayOn")
        let decimatorRate = try afx.float16("decimatorRate")
        let decimatorMix = try afx.float16("decimatorMix")
        let decimatorOn = try afx.bool("decimatorOn")
        let driveGain = try afx.float16("driveGain")
        let driveMix = try afx.float16("driveMix")
        let driveOn = try afx.bool("driveOn")

        self.init(
            name: name,
            oscillators: [
                Oscillator(waveform: waveform1, level: level1, pitch: pitch1),
                Oscillator(waveform: waveform2, level: level2, pitch: pitch2),
            ],
            envelope: envelope,
            filters: Filters(lowPass: lowPass, highPass: highPass),
            lfos: (0..<n).map { index in
                LFO(
                    waveform: waveforms[index], depth: depths[index], speed: speeds[index], phase: phases[index],
                    pitch: modPitch[index], amplitude: modAmplitude[index],
                    filterLow: modFilterLow[index], filterHigh: modFilterHigh[index])
            },
            effects: Effects(
                reverb: Reverb(on: reverbOn, size: reverbSize, type: reverbType, mix: reverbMix),
                delay: Delay(on: delayOn, feedback: delayFeedback, time: delayTime, mix: delayMix),
                decimator: Decimator(on: decimatorOn, rate: decimatorRate, mix: decimatorMix),
                drive: Drive(on: driveOn, gain: driveGain, mix: driveMix)))
    }

    /// The canonical preset string, byte-identical to what the original app exports for the same
    /// values (raw DEFLATE level 5, standard base64).
    ///
    /// - Throws: `HiSynthPresetError.wrongArrayCount` when `oscillators` is not 2 or `lfos` not 3 long,
    ///   `.nonFinite` for a NaN or infinite value (the original could not read them back).
    public func encoded() throws(HiSynthPresetError) -> String {
        guard oscillators.count == Self.oscillatorCount else {
            throw .wrongArrayCount(.oscillators, field: "oscillators", count: oscillators.count, expected: Self.oscillatorCount)
        }
        var osc = HiSynthPayloadWriter(section: .oscillators)
        osc.code(oscillators[0].waveform.rawValue)
        osc.code(oscillators[1].waveform.rawValue)
        try osc.float16(oscillators[0].level, "level1")
        try osc.float16(oscillators[1].level, "level2")
        try osc.float16(oscillators[0].pitch, "pitch1")
        try osc.float16(oscillators[1].pitch, "pitch2")

        var env = HiSynthPayloadWriter(section: .envelope)
        try env.float16(envelope.attack, "attack")
        try env.float16(envelope.decay, "decay")
        try env.float16(envelope.sustain, "sustain")
        try env.float16(envelope.release, "release")

        var flt = HiSynthPayloadWriter(section: .filters)
        try flt.float16(filters.lowPass.cutoff, "lpCutoff")
        try flt.float16(filters.lowPass.resonance, "lpRes")
        try flt.float16(filters.highPass.cutoff, "hpCutoff")
        try flt.float16(filters.highPass.resonance, "hpRes")

        var lfo = HiSynthPayloadWriter(section: .lfos)
        let n = Self.lfoCount
        try lfo.count(lfos.count, "lfos", expected: n)
        for item in lfos { lfo.code(item.waveform.rawValue) }
        try lfo.count(n, "depths", expected: n)
        for (index, item) in lfos.enumerated() { try lfo.float16(item.depth, "depths[\(index)]") }
        try lfo.count(n, "speeds", expected: n)
        for (index, item) in lfos.enumerated() { try lfo.float16(item.speed, "speeds[\(index)]") }
        try lfo.count(n, "phases", expected: n)
        for (index, item) in lfos.enumerated() { try lfo.float16(item.phase, "phases[\(index)]") }
        try lfo.count(n, "modPitch", expected: n)
        for item in lfos { lfo.bool(item.pitch) }
        try lfo.count(n, "modAmplitude", expected: n)
        for item in lfos { lfo.bool(item.amplitude) }
        try lfo.count(n, "modFilterLow", expected: n)
        for item in lfos { lfo.bool(item.filterLow) }
        try lfo.count(n, "modFilterHigh", expected: n)
        for item in lfos { lfo.bool(item.filterHigh) }

        var afx = HiSynthPayloadWriter(section: .effects)
        try afx.float16(effects.reverb.size, "reverbSize")
        afx.code(effects.reverb.type.rawValue)
        try afx.float16(effects.reverb.mix, "reverbMix")
        afx.bool(effects.reverb.on)
        try afx.float16(effects.delay.feedback, "delayFeedback")
        try afx.float16(effects.delay.time, "delayTime")
        try afx.float16(effects.delay.mix, "delayMix")
        afx.bool(effects.delay.on)
        try afx.float16(effects.decimator.rate, "decimatorRate")
        try afx.float16(effects.decimator.mix, "decimatorMix")
        afx.bool(effects.decimator.on)
        try afx.float16(effects.drive.gain, "driveGain")
        try afx.float16(effects.drive.mix, "driveMix")
        afx.bool(effects.drive.on)

        var fields = [HiSynthBase64.encode(Array(name.utf8))]
        for writer in [osc, env, flt, lfo, afx] {
            fields.append(HiSynthBase64.encode(try HiSynthRawDeflate.compress(writer.bytes, section: writer.section)))
        }
        return fields.joined(separator: ":")
    }

    /// `text` without leading and trailing whitespace and newlines (a pasted string often has some).
    static func trimmingWhitespace(_ text: String) -> Substring {
        var slice = Substring(text)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return slice
    }
}

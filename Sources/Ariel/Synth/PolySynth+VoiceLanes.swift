import Touchstone

extension PolySynth {
    /// Adds every sounding voice to `mid` and `side`, eight voices at a time in SIMD lanes; the same
    /// sound as `renderVoices` (the scalar path) to Float rounding. Each group's lanes are summed into
    /// one vector per sample, and the vectors are reduced once for all groups.
    func renderVoiceLanes(_ n: Int) {
        let ml = midLanes.baseAddress!, sl = sideLanes.baseAddress!
        for i in 0..<n {
            ml[i] = SIMD8()
            sl[i] = SIMD8()
        }
        var first = 0
        var group = 0
        while first < capacity {
            let count = min(8, capacity - first)
            var sounding = false
            for v in first..<(first + count) {
                // A stolen voice whose fade ended with the last block starts its waiting note now.
                if !voices[v].envelope.isActive, let start = voices[v].pending { voices[v].begin(start) }
                if voices[v].envelope.isActive { sounding = true }
            }
            if sounding { renderLaneGroup(group, first: first, count: count, n) }
            first += 8
            group += 1
        }
        let m = mid.baseAddress!, sd = side.baseAddress!
        for i in 0..<n {
            m[i] += Self.laneSum(ml[i])
            sd[i] += Self.laneSum(sl[i])
        }
        for v in 0..<capacity where !voices[v].isSounding && allocator.state(of: v) != .free {
            allocator.voiceBecameIdle(v)
        }
    }

    @inline(__always)
    static func laneSum(_ x: SIMD8<Float>) -> Float {
        let four = x.lowHalf + x.highHalf
        let two = four.lowHalf + four.highHalf
        return two.x + two.y
    }

    /// Renders one group of eight voices for the block in runs. Each run has two passes over the same
    /// samples: control (envelopes, gains, glides and note events, into `laneAmplitudes` and
    /// `laneFrequencies`), then audio (oscillators × amplitude, into the lane sums). Apart, each pass keeps
    /// its state in registers (together they spill with 16 vector registers). A run ends early where a
    /// waiting note starts in another waveform, so the audio pass's waveform step is chosen again.
    private func renderLaneGroup(_ group: Int, first: Int, count: Int, _ n: Int) {
        var lanes = laneGroups[group]
        lanes.load(voices, first: first, count: count)
        var i = 0
        while i < n && lanes.active != 0 {
            let waves = lanes.waves
            let wave = lanes.uniformWave
            let run = renderLaneControl(&lanes, first: first, from: i, to: n)
            switch wave {
            case .sine?: renderLaneAudio(UniformLaneWave<SineShape>.self, &lanes, waves, i..<run.end, fixedPitch: run.fixedPitch)
            case .saw?: renderLaneAudio(UniformLaneWave<SawShape>.self, &lanes, waves, i..<run.end, fixedPitch: run.fixedPitch)
            case .triangle?: renderLaneAudio(UniformLaneWave<TriangleShape>.self, &lanes, waves, i..<run.end, fixedPitch: run.fixedPitch)
            case .square?: renderLaneAudio(UniformLaneWave<SquareShape>.self, &lanes, waves, i..<run.end, fixedPitch: run.fixedPitch)
            case nil: renderLaneAudio(MixedLaneWave.self, &lanes, waves, i..<run.end, fixedPitch: run.fixedPitch)
            }
            i = run.end
        }
        lanes.store(voices, first: first, count: count)
        laneGroups[group] = lanes
    }

    /// Control pass from `start`: per sample the frequency (pitch × bend/vibrato ratio) and the amplitude
    /// (envelope × gain) of every lane. Stops after a sample at which a note started in a different
    /// waveform, or after which every lane is idle. `fixedPitch`: one frequency vector for the whole run.
    @inline(__always)
    private func renderLaneControl(
        _ lanes: inout PolySynthVoiceLanes, first: Int, from start: Int, to end: Int
    ) -> (end: Int, fixedPitch: Bool) {
        let r = UnsafePointer(ratio.baseAddress!)
        let frequencies = laneFrequencies.baseAddress!, amplitudes = laneAmplitudes.baseAddress!
        var env = lanes.envelopes
        var hz = lanes.hz, gains = lanes.gains
        var moving = lanes.gliding | lanes.smoothing
        var fixedPitch = ratioIsFixed && lanes.gliding == 0
        var k = start
        var stop = false
        while k < end && !stop {
            if moving != 0 {
                lanes.hz = hz; lanes.gains = gains
                stepMovingLanes(&lanes, first: first)
                hz = lanes.hz; gains = lanes.gains
                moving = lanes.gliding | lanes.smoothing
            }
            frequencies[k] = hz * r[k]
            let ended = env.step()
            if ADSRLanes.anyLane(ended) {
                let waves = lanes.waves
                lanes.hz = hz; lanes.gains = gains; lanes.envelopes = env
                endLaneSegments(ended, &lanes, first: first)
                env = lanes.envelopes; gains = lanes.gains
                // A lane that fell idle or began a note changes its pitch from the next sample on.
                if lanes.hz != hz { fixedPitch = false }
                hz = lanes.hz
                moving = lanes.gliding | lanes.smoothing
                if moving != 0 { fixedPitch = false }
                stop = lanes.active == 0 || lanes.waves != waves
            }
            amplitudes[k] = env.output * gains
            k += 1
        }
        lanes.envelopes = env
        lanes.hz = hz; lanes.gains = gains
        return (k, fixedPitch)
    }

    /// Audio pass over `range`: oscillators in the waveform step `Wave`, times the control pass's
    /// amplitudes, added to the lane sums (mid, and side weighted by pan).
    @inline(__always)
    private func renderLaneAudio<Wave: PolySynthLaneWave>(
        _ wave: Wave.Type, _ lanes: inout PolySynthVoiceLanes, _ waves: SIMD8<Int32>, _ range: Range<Int>,
        fixedPitch: Bool
    ) {
        guard !range.isEmpty else { return }
        let frequencies = UnsafePointer(laneFrequencies.baseAddress!)
        let amplitudes = UnsafePointer(laneAmplitudes.baseAddress!)
        let ml = midLanes.baseAddress!, sl = sideLanes.baseAddress!
        var osc = lanes.oscillators
        let pans = lanes.pans
        if fixedPitch {
            osc.setFrequencies(frequencies[range.lowerBound])
            for k in range {
                let y = Wave.next(&osc, waves) * amplitudes[k]
                ml[k] += y
                sl[k] += y * pans
            }
        } else {
            for k in range {
                osc.setFrequencies(frequencies[k])
                let y = Wave.next(&osc, waves) * amplitudes[k]
                ml[k] += y
                sl[k] += y * pans
            }
        }
        lanes.oscillators = osc
    }

    /// Steps the glides and gains that move, on the voices themselves (as the scalar renderer does).
    @inline(never)
    private func stepMovingLanes(_ lanes: inout PolySynthVoiceLanes, first: Int) {
        var bits = lanes.gliding
        while bits != 0 {
            let lane = bits.trailingZeroBitCount
            bits &= bits - 1
            lanes.hz[lane] = voices[first + lane].glide.nextSample()
            if !voices[first + lane].glide.isGliding { lanes.gliding &= ~(1 << UInt8(lane)) }
        }
        bits = lanes.smoothing
        while bits != 0 {
            let lane = bits.trailingZeroBitCount
            bits &= bits - 1
            lanes.gains[lane] = voices[first + lane].gain.next()
            if !voices[first + lane].gain.isSmoothing { lanes.smoothing &= ~(1 << UInt8(lane)) }
        }
    }

    /// Ends the segments of the `ended` lanes on their voices' envelopes; a voice whose steal fade is
    /// over begins its waiting note (the scalar renderer does so before the next sample).
    @inline(never)
    private func endLaneSegments(_ ended: ADSRLanes.Mask, _ lanes: inout PolySynthVoiceLanes, first: Int) {
        var bits = ADSRLanes.bits(ended)
        while bits != 0 {
            let lane = bits.trailingZeroBitCount
            bits &= bits - 1
            let v = first + lane
            lanes.envelopes.endSegment(lane, &voices[v].envelope)
            guard !voices[v].envelope.isActive else { continue }
            if let start = voices[v].pending {
                voices[v].begin(start)
                lanes.envelopes.load(lane, from: voices[v].envelope)
            }
            lanes.loadPitchAndGain(lane, voices[v])
        }
    }
}

import Touchstone

extension DroneSynthEngine {
    /// Renders a block. Allocation-free, proven by `DroneSynthEngineAllocationTests` (render and every
    /// command). Not marked `@_noAllocation`: a pack swap inside the block calls Touchstone setters
    /// (reverb size, detune) whose bodies the checker cannot see across modules.
    ///
    /// Work is staged so every kernel runs a tight loop over a buffer: per control run (16 samples) the
    /// voice parts into the stage buffers, then the low-pass and formants over the run (their targets
    /// move at control rate); per chunk the room, tremolo, drone and output stage. A chunk ends early
    /// at the bottom of a pack-change dip, so the room changes exactly where its return is muted.
    public func render(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {
        let count = min(left.count, right.count)
        guard count > 0, let l = left.baseAddress, let r = right.baseAddress else { return }
        let chunk = stage.capacity
        var index = 0
        while index < count {
            index += renderChunk(l + index, r + index, min(count - index, chunk))
        }
        output.measure(left: l, right: r, count: count)
        let beats = beatPhase + Double(count) * bpm / (60 * sampleRate)
        beatPhase = beats - beats.rounded(.down)
        midiOutbox.advance(to: framePosition)
        waveform.write(UnsafeBufferPointer(start: l, count: count))
    }

    /// Renders up to `count` (≤ the stage capacity) frames; returns how many it rendered (fewer when a
    /// pack change reached the bottom of its dip).
    func renderChunk(_ l: UnsafeMutablePointer<Float>, _ r: UnsafeMutablePointer<Float>, _ count: Int) -> Int {
        let voice = stage.voice
        var index = 0
        while index < count && !dip.isAtBottom {
            if controlCountdown == 0 {
                controlTick()
                controlCountdown = Self.controlInterval
            }
            let run = renderVoice(at: index, count: min(controlCountdown, count - index))
            effects.filter(UnsafeMutableBufferPointer(start: voice + index, count: run))
            controlCountdown -= run
            index += run
            framePosition += Int64(run)
        }
        let rendered = index
        effects.process(voice: voice, dryGains: stage.dryGains, wetGains: stage.wetGains, left: l, right: r, count: rendered)
        // The drone enters after the effects: a clean pedal, not pumped or smeared.
        let drone = stage.drone
        for i in 0..<rendered {
            l[i] += drone[i]
            r[i] += drone[i]
        }
        output.limit(left: UnsafeMutableBufferPointer(start: l, count: rendered),
                     right: UnsafeMutableBufferPointer(start: r, count: rendered))
        if dip.isAtBottom {
            applyRoom(incomingPreset)
            dip.leaveBottom()
        }
        return rendered
    }

    /// Control-rate work: sculpt and preset smoothing, then tone and filter targets, glide bookkeeping.
    func controlTick() {
        // Only while something moves: a face held still leaves the filters settled on their fast path.
        if controls.step() {
            // The octave shimmer follows the smoothed smile up to the (smoothed) brightness cap.
            updateToneTargets()
            effects.follow(controls)
        }
        glide.settleIfClose(tones: &tones, pedals: &pedals)
        if midi.isOn { playMIDI() }
    }

    /// What the voices play now, to the MIDI player (``HecateMIDIMap``), at this tick's frame.
    func playMIDI() {
        typealias Sculpt = DroneControls.Sculpt
        // Each face found sends every controller again: a receiver connected since is set before it plays.
        if fade.isFaceInView && !midiSawFace { midi.resendControllers() }
        midiSawFace = fade.isFaceInView
        let fadeGain = fade.gain
        var levels = tones.levels * tones.gates * fadeGain
        var targets = tones.levelTargets
        levels[6] = pedals.bassLevel * fadeGain
        targets[6] = pedals.bassTarget
        levels[7] = 0
        targets[7] = 0
        let sculpt = controls.sculpt
        let controllers = SIMD8<Float>(
            sculpt[Sculpt.cutoff], sculpt[Sculpt.resonance], sculpt[Sculpt.formantF1], sculpt[Sculpt.formantF2],
            sculpt[Sculpt.brightness], fadeGain, controls.preset[DroneControls.Slot.reverbMix], effects.tremolo.depth)
        midi.tick(DroneMIDIPlayer.Voices(levels: levels, targets: targets, notes: voicings.row(key: keyIndex, degree: degreeIndex).notes,
                                         controllers: controllers),
                  frame: framePosition, outbox: midiOutbox)
    }

    /// The voice (tone banks, sub, bass; breath, face fade and pack dip applied) into the stage's voice
    /// buffer, the drone into its drone buffer and the room gains, for one run with fixed control
    /// values (at most `controlInterval` samples) starting at `offset`. Returns the samples rendered:
    /// fewer than `count` when a pack change reached the bottom of its dip.
    @inline(__always)
    func renderVoice(at offset: Int, count: Int) -> Int {
        if !arpeggiator.isOn && glide.isSettled && dip.isSteady && fade.isOpen {
            // The waveform is chosen once per run, so the oscillators inline into the loop.
            switch tones.banks.waveform {
            case .sine: renderSteadyVoice(SineShape.self, at: offset, count: count)
            case .triangle: renderSteadyVoice(TriangleShape.self, at: offset, count: count)
            case .saw: renderSteadyVoice(SawShape.self, at: offset, count: count)
            case .square: renderSteadyVoice(SquareShape.self, at: offset, count: count)
            case .pulse: renderSteadyVoice(PulseShape.self, at: offset, count: count)
            case .reverseSaw: renderSteadyVoice(ReverseSawShape.self, at: offset, count: count)
            }
            return count
        }
        let gains = DroneRunGains(controls, breathing.startRun(count: count))
        let subLevelGain = gains.subLevelGain, bassLevelGain = gains.bassLevelGain, droneGain = gains.droneGain
        let wetMix = gains.wetMix, dryGain = 1 - wetMix
        let toneGain = Self.toneGain
        let levelCoefficient = tones.levelSmoothing
        let bassIsSine = pedals.bass.waveform == .sine
        let arpeggiating = arpeggiator.isOn, gliding = !glide.isSettled
        // Every part in a local for the loop (stores through the buffers could alias the class's fields).
        var tones = self.tones, pedals = self.pedals, glide = self.glide
        var arpeggiator = self.arpeggiator, fade = self.fade, dip = self.dip
        let voiceOut = stage.voice + offset, droneOut = stage.drone + offset
        let dryOut = stage.dryGains + offset, wetOut = stage.wetGains + offset
        var n = 0
        while n < count {
            if arpeggiating { arpeggiator.advance(faceLevels: tones.faceLevels) }
            if gliding { glide.advance(tones: &tones, pedals: &pedals) }
            let chord = tones.next(gateTargets: arpeggiator.gateTargets)
            let low = pedals.next(levelCoefficient: levelCoefficient, bassIsSine: bassIsSine)
            let swap = Float(dip.advance())
            var voice = chord * toneGain
            voice += low.sub * tones.levels[0] * subLevelGain
            voice += low.bass * bassLevelGain
            let faceGain = fade.advance()
            voiceOut[n] = voice * (gains.breathGain(at: n) * swap * faceGain)
            droneOut[n] = low.drone * droneGain * faceGain
            dryOut[n] = dryGain
            wetOut[n] = wetMix * swap
            n += 1
            if dip.isAtBottom { break }
        }
        self.tones = tones
        self.pedals = pedals
        self.glide = glide
        self.arpeggiator = arpeggiator
        self.fade = fade
        self.dip = dip
        if dip.isAtBottom {
            // The oscillators are back in their fields: swap their shape at the silent sample.
            applyVoiceShape(incomingPreset)
            // A run cut short by a pack change leaves the breath up to 15 samples (0.3 ms) ahead: inaudible.
        }
        return n
    }

    /// `renderVoice` while nothing but levels moves (the face in view and settled in, no glide, pack
    /// change or arpeggio): the same sound with the fade, dip and step logic left out, each voice part
    /// in a tight loop of its own over the run.
    @inline(__always)
    func renderSteadyVoice<Shape: OscillatorShape>(_ shape: Shape.Type, at offset: Int, count: Int) {
        let gains = DroneRunGains(controls, breathing.startRun(count: count))
        let voice = stage.voice + offset, rootLevels = stage.rootLevels + offset
        tones.render(Shape.self, gain: Self.toneGain, gateTargets: arpeggiator.gateTargets,
                     into: voice, rootLevels: rootLevels, count: count)
        pedals.render(into: voice, drone: stage.drone + offset, rootLevels: rootLevels, count: count,
                      gains: gains, levelCoefficient: tones.levelSmoothing)
        (stage.dryGains + offset).update(repeating: 1 - gains.wetMix, count: count)
        (stage.wetGains + offset).update(repeating: gains.wetMix, count: count)
    }
}

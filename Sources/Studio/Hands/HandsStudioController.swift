import Ariel
import Enobarbus
import Horatio
import InstrumentSettings
import LiveHost
import Prospero
import Touchstone

/// The hands screen's engine room: page fingers and OSC hands and touches → the live adapter that
/// `prospero hands` plays too (``HandsLiveInstrument``: lifecycle, stabiliser, `MIDIRouter`, Wekinator's
/// controllers, the MIDI clock) → JACK `midi_out` and/or the built-in synth. What this type adds is the
/// page's: fingers held on the pad, the dials, settings by path and the live frame. All calls come from one
/// control thread; the synth is reached only through its engine host's command ring.
///
/// Page fingers hold the router's touch slots (``HandsPadSlots``). A finger that stays still sends
/// no events, so each call re-presents the held fingers to the performer at the current time and its
/// lifecycle never times them out; only `up`, `cancel` or the page going away (``clientGone(_:at:)``)
/// ends a finger's note. OSC touches on a slot a page finger holds are dropped (counted), and a page
/// finger never takes a slot an OSC touch is using.
///
/// The dials (seed 001's HUD) are settings: the **velocity dial** (`velocity`) is the note-on velocity of
/// a page finger that measured no force (the page found no pressure, no contact size and no approach
/// speed: an iPhone's first touch), played as the pressure that the router's velocity mapping turns into
/// exactly that velocity (CC 11 follows it too) until the finger's moves measure something. The **mod
/// dial** (`mod`, 0…127) is the mod wheel: CC 1 on the channels the hands play (MPE: the zone's manager
/// channel 1) at `midi_out`, and for the built-in synth, whose LFO depth CC 1 sets, that depth itself
/// (`synth.lfoDepth` = mod ÷ 127): the panel's LFO depth and the dial are one value, and moving the
/// panel's sends the CC too. A new output or channel assignment hears the current CC 1 again.
///
///     let hands = try HandsStudioController(settings: HandsStudioSettings(), midiOut: jackQueue)
///     try hands.touch(client: "a", id: 0, phase: .down, x: 0.5, y: 0.2, pressure: 0.5, at: now)
///     hands.advance(to: now)            // on a timer; frame(now:) for the page at up to 30 Hz
public final class HandsStudioController {
    public private(set) var settings: HandsStudioSettings
    /// The built-in synth the studio's audio driver renders (prepare it for the driver's rate first).
    public let synth: EngineHost<PolySynth>
    /// JACK `midi_out`'s queue; nil when the session has no JACK MIDI (then `midi` output is refused).
    public let midiOut: (any LiveMIDIOutput)?
    /// Maps an input's arrival to the audio frame it is due at (nil: messages go at the next period's start).
    public let frameClock: (any LiveFrameClock)?
    /// The one hands adapter (the CLI's too); its output follows the `output` setting.
    private let live: HandsLiveInstrument
    private let outputs: HandsOutputRouting
    public private(set) var pad = HandsPadSlots()
    /// The newest position of the finger in each pad slot.
    private var padTouches: [TouchFrame?] = Array(repeating: nil, count: 4)
    /// OSC touches and hands seen, with their newest frame (dropped after the lifecycle's timeout).
    private var oscTouches: [TouchFrame?] = Array(repeating: nil, count: 4)
    private var oscHands: [HandFrame?] = Array(repeating: nil, count: 4)
    private let timeout: Double
    private var lastTime = 0.0
    /// Pad slots whose finger measured no force since it landed: they play the velocity dial.
    private var unmeasured: [Bool] = Array(repeating: false, count: 4)
    private var lastFrame: HandsStudioFrame?
    /// Mod wheel messages sent (the adapter counts the rest).
    private var modSentCount = 0

    /// MIDI messages sent (to either output).
    public var sentCount: Int { live.sent + modSentCount }
    /// Fingers ignored because every touch slot was taken.
    public private(set) var ignoredFingerCount = 0
    /// OSC touch frames dropped because a page finger held their slot.
    public private(set) var droppedOSCTouchCount = 0

    /// - Parameters:
    ///   - midiOut: JACK `midi_out` (nil: none in this session).
    ///   - frameClock: the audio clock: the MIDI an input causes (to `midi_out` and the synth) is due at the
    ///     input's arrival frame plus the clock's input delay, as the live commands do.
    ///   - clock: the MIDI clock arriving at the audio driver; its tempo is in the live frame (`clockBPM`).
    ///   - sampleRate, maximumFrames: the synth's first preparation (the driver re-prepares it).
    ///   - timeout: seconds without frames after which an OSC hand or touch is lost.
    public init(settings: HandsStudioSettings = HandsStudioSettings(), midiOut: (any LiveMIDIOutput)?,
                frameClock: (any LiveFrameClock)? = nil, clock: (any LiveClock)? = nil,
                sampleRate: Double = 48_000, maximumFrames: Int = 4096, timeout: Double = 0.25)
        throws(HandsStudioSettingsError) {
        self.frameClock = frameClock
        var settings = settings
        if midiOut == nil { settings.output = .synth }
        try settings.validate()
        self.settings = settings
        self.midiOut = midiOut
        self.timeout = timeout
        let engine = PolySynth(capacity: max(16, settings.synth.polyphony), settings: settings.synthSettings)
        synth = EngineHost(engine: engine, spec: ProcessSpec(sampleRate: sampleRate, maximumBlockSize: maximumFrames, channelCount: 2))
        outputs = HandsOutputRouting(midiOut: midiOut, synth: PolySynthMIDIOutput(host: synth), destination: settings.output)
        let performer: HandsPerformer
        do { performer = try HandsPerformer(settings: settings.routerSettings, stabilizes: true, timeout: timeout) } catch {
            throw HandsStudioSettingsError(path: error.field, "\(error)")
        }
        live = HandsLiveInstrument(performer: performer, output: outputs, clock: clock, frameClock: frameClock)
    }

    // MARK: Input

    /// A page finger. Returns false when it was ignored (no free slot, never landed, or a
    /// position that is not a number). Positions are clamped into 0…1.
    /// - Parameter measured: false when the page measured no force for this event (its `pressure` is a
    ///   placeholder): the finger plays the velocity dial until an event of it is measured.
    @discardableResult
    public func touch(client: String, id: Int, phase: HandsTouchPhase, x: Double, y: Double, pressure: Double,
                      measured: Bool = true, at time: Double) -> Bool {
        let now = monotonic(time)
        let finger = HandsPadSlots.Finger(client: client, id: id)
        switch phase {
        case .down, .move:
            guard x.isFinite, y.isFinite else { return false }
            let slot: Int
            if let held = pad.slot(of: finger) {
                slot = held
            } else if phase == .down {
                guard let free = pad.claim(finger, avoiding: oscTouchSlots(at: now)) else {
                    ignoredFingerCount += 1
                    return false
                }
                slot = free
            } else {
                return false // a move of a finger that never got a slot
            }
            if phase == .down || measured { unmeasured[slot] = !measured }
            let p = unmeasured[slot] ? dialPressure : pressure.isFinite ? Self.unit(pressure) : 1
            padTouches[slot] = TouchFrame(slot: slot, timestamp: now, x: Float(Self.unit(x)), y: Float(Self.unit(y)),
                                          pressure: Float(p))
            play([], at: now)
            return true
        case .up, .cancel:
            guard let slot = pad.release(finger) else { return false }
            end(slots: [slot], at: now)
            return true
        }
    }

    /// A page went away (socket lost, closed, retention over): every finger it held ends its note.
    public func clientGone(_ client: String, at time: Double) {
        let now = monotonic(time)
        let slots = pad.releaseAll(of: client)
        if !slots.isEmpty { end(slots: slots, at: now) }
    }

    /// Frames from the shared OSC input (hands, touches; faces are not this instrument's).
    public func receive(_ frames: [TrackingFrame], at time: Double) {
        let now = monotonic(time)
        var accepted: [TrackingFrame] = []
        for frame in frames {
            switch frame {
            case .touch(let t):
                guard oscTouches.indices.contains(t.slot) else { continue }
                if padTouches[t.slot] != nil { droppedOSCTouchCount += 1; continue }
                oscTouches[t.slot] = t
                accepted.append(frame)
            case .hand(let h):
                guard oscHands.indices.contains(h.slot) else { continue }
                oscHands[h.slot] = h
                accepted.append(frame)
            case .ended(let id, _):
                switch id {
                case .touch(let slot) where oscTouches.indices.contains(slot):
                    if padTouches[slot] != nil { continue }
                    oscTouches[slot] = nil
                case .hand(let slot) where oscHands.indices.contains(slot):
                    oscHands[slot] = nil
                default:
                    continue
                }
                accepted.append(frame)
            case .face:
                continue
            }
        }
        play(accepted, at: now)
    }

    /// Wekinator's outputs (0…1 each): controllers 20…31 on the hands' channel, changes only, to the outputs
    /// the `output` setting names, as `prospero hands` sends them.
    public func receiveControls(_ outputs: [Float], at time: Double) {
        live.receiveControls(outputs, at: monotonic(time))
    }

    /// Time passes: OSC sources time out, held-back controllers go out.
    public func advance(to time: Double) {
        play([], at: monotonic(time))
    }

    /// The session stops: every note ends (note-offs, CC 123 on the channels that played).
    public func finish(at time: Double) {
        let now = monotonic(time)
        for slot in pad.owners.indices { if let owner = pad.owners[slot] { _ = pad.release(owner) } }
        padTouches = Array(repeating: nil, count: 4)
        live.stop(at: now)
    }

    // MARK: Settings

    /// Sets one setting (path below `hands.`) and returns every path whose value changed.
    /// Notes that no longer fit end; a new output ends every note on the old one first.
    public func set(_ path: String, to value: HandsSettingValue, at time: Double)
        throws(HandsStudioSettingsError) -> [String: HandsSettingValue] {
        let now = monotonic(time)
        let before = settings
        if path.hasPrefix("synth.") {
            guard let control = HandsSynthControl.named(String(path.dropFirst(6))) else {
                throw HandsStudioSettingsError(path: path, "no such synth control", isUnknownSetting: true)
            }
            var next = settings.synth
            let command = try control.apply(value, to: &next)
            settings.synth = next
            synth.send(command)
        } else {
            var next = settings
            try next.set(path, to: value)
            if next.synth != before.synth {
                // The mod dial moved the synth's LFO depth (CC 1's meaning for it).
                synth.send(.set(.lfoDepth, next.synth.lfoDepth))
            }
            if next.output.includesMIDI && midiOut == nil {
                throw HandsStudioSettingsError(path: "output", "this session has no JACK MIDI output; start the studio with JACK audio")
            }
            if next.output != before.output {
                // The old destination hears the note-offs; the new one starts clean.
                live.stop(at: now)
                outputs.destination = next.output
            }
            settings = next
            if next.routerSettings != before.routerSettings {
                do { try live.updateRoutes(next.routerSettings, at: now) } catch {
                    settings = before
                    outputs.destination = before.output
                    throw HandsStudioSettingsError(path: path, "\(error)")
                }
            }
            if next.bendRange != before.bendRange { synth.send(.set(.pitchBendRange, Double(next.bendRange))) }
            play([], at: now)
        }
        // CC 1 when the mod wheel moved, and again for a receiver that a new output or channel assignment reaches.
        if settings.mod != before.mod || settings.output != before.output || settings.routerSettings.channels != before.routerSettings.channels {
            sendModWheel(at: now)
        }
        var changes: [String: HandsSettingValue] = [:]
        for p in HandsStudioSettings.paths + [HandsStudioSettings.modPath] + HandsSynthControl.all.map({ "synth.\($0.name)" }) {
            if let v = settings.value(at: p), v != before.value(at: p) { changes[p] = v }
        }
        return changes
    }

    /// Ends every note and silences the synth at once (All Notes Off on every channel; the synth's panic).
    public func panic(at time: Double) {
        let now = monotonic(time)
        live.stop(at: now)
        for slot in pad.owners.indices { if let owner = pad.owners[slot] { _ = pad.release(owner) } }
        padTouches = Array(repeating: nil, count: 4)
        synth.send(.panic)
    }

    /// The zones for the fret lines and label circles, bottom zone first.
    public var frets: [Fret] { FretLayout(settings.routerSettings).frets }

    // MARK: Display

    /// The live frame at `time`, nil when nothing changed since the last one.
    public func frame(now time: Double) -> HandsStudioFrame? {
        let now = monotonic(time)
        var frame = HandsStudioFrame()
        let active = live.router.activeNotes
        for id in InputSourceID.all {
            guard let voice = active[id] else { continue }
            let (kind, slot): (String, Int)
            switch id {
            case .touch(let s): (kind, slot) = ("touch", s)
            case .hand(let s): (kind, slot) = ("hand", s)
            case .face: continue
            }
            frame.notes.append(.init(kind: kind, slot: slot, channel: voice.channel.number, note: voice.note, velocity: voice.velocity))
        }
        frame.velocity = active.isEmpty ? 0 : Double(live.newestVelocity ?? 0) / 127
        frame.clockBPM = live.clockBPM
        for slot in 0..<4 {
            if let t = padTouches[slot] {
                frame.touches.append(.init(slot: slot, x: Double(t.x), y: Double(t.y), pressure: Double(t.pressure), pad: true))
            } else if let t = oscTouches[slot], now - t.timestamp <= timeout {
                frame.touches.append(.init(slot: slot, x: Double(t.x), y: Double(t.y), pressure: Double(t.pressure), pad: false))
            }
            if let h = oscHands[slot], now - h.timestamp <= timeout {
                frame.hands.append(.init(slot: slot, handedness: h.handedness.rawValue,
                                         landmarks: h.landmarks.map { SIMD2(Double($0.x), Double($0.y)) }))
            }
        }
        if let snapshot = synth.latestSnapshot().snapshot, settings.output.includesSynth {
            frame.synthNotes = (0..<128).filter { snapshot.isHeld($0) }
        }
        guard frame != lastFrame else { return nil }
        lastFrame = frame
        return frame
    }

    // MARK: Private

    /// The pressure that the router's velocity mapping (expression onto its velocity range) plays as the dial's velocity.
    private var dialPressure: Double {
        let range = settings.velocityRange
        guard range.upperBound > range.lowerBound else { return 1 }
        return Double(settings.velocity - range.lowerBound) / Double(range.upperBound - range.lowerBound)
    }

    /// The mod wheel (CC 1 = the mod dial) to `midi_out`, on every channel the hands play (MPE: the manager channel).
    private func sendModWheel(at now: Double) {
        guard settings.output.includesMIDI, let midiOut else { return }
        let due = frameClock?.dueFrame(forArrival: now)
        let channels = settings.routerSettings.channels.isMPE ? [MIDIChannel(number: 1)!] : live.router.routedChannels
        for channel in channels {
            let cc = MIDIMessage.controlChange(channel: channel, controller: 1, value: MIDIUInt7(clamping: settings.mod))
            guard let short = cc.shortMessage else { continue }
            midiOut.send(short, dueAt: due)
            modSentCount += 1
        }
    }

    private func monotonic(_ time: Double) -> Double {
        // The router needs non-decreasing time; a page's and OSC's arrival times interleave.
        if time.isFinite && time > lastTime { lastTime = time }
        return lastTime
    }

    private func oscTouchSlots(at now: Double) -> Set<Int> {
        Set(oscTouches.indices.filter { oscTouches[$0].map { now - $0.timestamp <= timeout } ?? false })
    }

    /// Presents every held page finger, re-stamped `now` (so no pause between calls times it out),
    /// then feeds `frames` to the adapter (their MIDI due at `now`'s frame).
    private func play(_ frames: [TrackingFrame], at now: Double) {
        var held: [TrackingFrame] = []
        for slot in padTouches.indices {
            guard var t = padTouches[slot] else { continue }
            t.timestamp = now
            padTouches[slot] = t
            held.append(.touch(t))
        }
        live.present(held)
        live.receive(frames, at: now)
    }

    private func end(slots: [Int], at now: Double) {
        for slot in slots { padTouches[slot] = nil }
        play(slots.map { .ended(.touch($0), timestamp: now) }, at: now)
    }

    private static func unit(_ v: Double) -> Double { min(max(v, 0), 1) }
}

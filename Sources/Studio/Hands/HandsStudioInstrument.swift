import Ariel
import Enobarbus
import Horatio
import InstrumentSettings
import LiveHost
import Prospero

/// The hands and touch screen (`/hands/`): page fingers and OSC hands play the MIDIRouter into the
/// built-in synth and/or JACK `midi_out`, as `prospero hands` does (see ``HandsStudioController``).
///
/// Controls (`set`): `hands.key`, `.scale`, `.low`, `.high`, `.channelMode`, `.channel`, `.bend`,
/// `.bendRange`, `.output`, `.velocity` and `.mod` (the dials: ``HandsStudioController``),
/// `.synth.<control>` (``HandsSynthControl``). Actions: `hands.panic`.
/// State: those values under the same keys (without `hands.`), plus `frets` (zones bottom first:
/// `note`, `top`, `bottom` in screen y, `label` {`role`, `name`} or null), `keys`, `scales`,
/// `synthControls`, `touchSlots` and `velocityRange` ([lowest, highest]: the velocity dial's range).
/// Frame: `notes`, `touches`, `hands` (21 landmarks as [x, y]), `synthNotes`, `velocity` (``HandsStudioFrame``).
public final class HandsStudioInstrument: StudioInstrument {
    public static let id = "hands"
    public let displayName = "Hands and touch"
    public let summary = "A multi-touch pad and tracked hands play notes along the frets: the built-in synth or JACK MIDI."
    public let controller: HandsStudioController
    public let output: HandsStudioAudio
    public var audio: any StudioAudioEngine { output }
    /// The studio's own camera tracks hands while the pad is active.
    public var cameraModel: StudioCameraModel { .hands }
    /// The newest time the session gave (touches carry none).
    private var now = 0.0

    /// - Parameters:
    ///   - frameClock: the audio clock (JACK's, with `--input-delay`): a touch's MIDI and synth notes are due
    ///     at its arrival's frame plus the delay, so they play at a fixed latency. Nil: at the next period.
    ///   - clock: the MIDI clock arriving at the audio driver; the live frame carries its tempo (`clockBPM`).
    public init(settings: HandsStudioSettings = HandsStudioSettings(), frameClock: (any LiveFrameClock)? = nil,
                clock: (any LiveClock)? = nil) throws {
        let midi = HandsMIDIQueue()
        controller = try HandsStudioController(settings: settings, midiOut: midi, frameClock: frameClock, clock: clock)
        output = HandsStudioAudio(host: controller.synth, midi: midi)
    }

    // MARK: State

    public func stateJSON() -> [String: StudioValue] {
        var state: [String: StudioValue] = [:]
        for path in Self.settingPaths { if let v = controller.settings.value(at: path) { state[path] = Self.json(v) } }
        state["frets"] = fretsJSON()
        state["keys"] = .array(MusicalKey.allCases.map { .string($0.description) })
        state["scales"] = .array(Scale.allCases.map { .object(["id": .string($0.rawValue), "name": .string($0.displayName)]) })
        state["synthControls"] = .array(HandsSynthControl.all.map(Self.controlJSON))
        state["touchSlots"] = .number(Double(InputSourceID.slots.count))
        let velocities = controller.settings.velocityRange
        state["velocityRange"] = .array([.number(Double(velocities.lowerBound)), .number(Double(velocities.upperBound))])
        return state
    }

    public func apply(set path: String, value: StudioValue) throws(StudioError) -> [String: StudioValue] {
        guard path.hasPrefix("hands.") else { throw .unknownControl(path) }
        let setting: HandsSettingValue
        switch value {
        case .number(let n): setting = .number(n)
        case .string(let s): setting = .text(s)
        case .bool(let b): setting = .flag(b)
        case .null, .array, .object: throw .badValue(path, expected: "a number, a name or true/false")
        }
        let changes: [String: HandsSettingValue]
        do { changes = try controller.set(String(path.dropFirst(6)), to: setting, at: now) } catch {
            if error.isUnknownSetting { throw .unknownControl(path) }
            throw StudioError(code: "bad_value", message: error.reason, ref: path)
        }
        var out = changes.mapValues(Self.json)
        if changes.keys.contains(where: { ["key", "scale", "low", "high"].contains($0) }) { out["frets"] = fretsJSON() }
        return out
    }

    public func apply(action path: String, value: StudioValue) throws(StudioError) -> [String: StudioValue] {
        guard path == "hands.panic" else { throw .unknownControl(path) }
        controller.panic(at: now)
        return [:]
    }

    public func touch(_ touch: StudioTouch, client: String) throws(StudioError) -> [String: StudioValue] {
        try self.touch(touch, client: client, at: now)
    }

    public func touch(_ touch: StudioTouch, client: String, at time: Double) throws(StudioError) -> [String: StudioValue] {
        tick(time)
        let phase: HandsTouchPhase
        switch touch.phase {
        case .down: phase = .down
        case .move: phase = .move
        case .up: phase = .up
        case .cancel: phase = .cancel
        }
        // A finger past the slots, or with no slot free, is ignored (not an error: the seed's four).
        controller.touch(client: client, id: touch.id, phase: phase, x: touch.x, y: touch.y, pressure: touch.pressure,
                         measured: touch.measured, at: now)
        return [:]
    }

    public func frameJSON(now: Double) -> [String: StudioValue]? {
        tick(now)
        // The frame clock also moves the router (held-back controllers go out even with no OSC input running).
        controller.advance(to: self.now)
        guard let frame = controller.frame(now: self.now) else { return nil }
        var json: [String: StudioValue] = [
            "notes": .array(frame.notes.map {
                .object(["kind": .string($0.kind), "slot": .number(Double($0.slot)), "channel": .number(Double($0.channel)),
                         "note": .number(Double($0.note)), "velocity": .number(Double($0.velocity))])
            }),
            "touches": .array(frame.touches.map {
                .object(["slot": .number(Double($0.slot)), "x": .number(Self.rounded($0.x)), "y": .number(Self.rounded($0.y)),
                         "pressure": .number(Self.rounded($0.pressure)), "pad": .bool($0.pad)])
            }),
            "hands": .array(frame.hands.map {
                .object(["slot": .number(Double($0.slot)), "handedness": .string($0.handedness),
                         "landmarks": .array($0.landmarks.map { .array([.number(Self.rounded($0.x)), .number(Self.rounded($0.y))]) })])
            }),
            "synthNotes": .array(frame.synthNotes.map { .number(Double($0)) }),
            "velocity": .number(Self.rounded(frame.velocity)),
        ]
        if let bpm = frame.clockBPM { json["clockBPM"] = .number((bpm * 10).rounded() / 10) }
        return json
    }

    // MARK: Input and time

    public func receive(_ frames: [TrackingFrame], at time: Double) {
        tick(time)
        controller.receive(frames, at: now)
    }

    /// Wekinator's outputs: controllers 20…31, as `prospero hands` sends them.
    public func receiveControls(_ outputs: [Float], at time: Double) {
        tick(time)
        controller.receiveControls(outputs, at: now)
    }

    public func advance(to time: Double) {
        tick(time)
        controller.advance(to: now)
    }

    public func silence(at time: Double) {
        tick(time)
        controller.finish(at: now)
    }

    // MARK: JSON

    static let settingPaths = HandsStudioSettings.paths + [HandsStudioSettings.modPath] + HandsSynthControl.all.map { "synth.\($0.name)" }

    private func tick(_ time: Double) { if time.isFinite && time > now { now = time } }

    private func fretsJSON() -> StudioValue {
        .array(controller.frets.map { fret in
            .object(["zone": .number(Double(fret.zone)), "note": .number(Double(fret.note)),
                     "top": .number(fret.top), "bottom": .number(fret.bottom),
                     "label": fret.label.map { .object(["role": .string($0.role.rawValue), "name": .string($0.name)]) } ?? .null])
        })
    }

    static func json(_ value: HandsSettingValue) -> StudioValue {
        switch value {
        case .number(let n): return .number(n)
        case .text(let s): return .string(s)
        case .flag(let b): return .bool(b)
        }
    }

    static func controlJSON(_ control: HandsSynthControl) -> StudioValue {
        switch control.kind {
        case .continuous(_, let range, _):
            return .object(["name": .string(control.name), "kind": .string("number"),
                            "min": .number(range.lowerBound), "max": .number(range.upperBound)])
        case .effect:
            return .object(["name": .string(control.name), "kind": .string("flag")])
        case .waveform:
            return .object(["name": .string(control.name), "kind": .string("choice"),
                            "options": .array(PolySynthSettings.Waveform.allCases.map { .string($0.rawValue) })])
        case .lfoMode:
            return .object(["name": .string(control.name), "kind": .string("choice"),
                            "options": .array(PolySynthSettings.LFOMode.allCases.map { .string($0.rawValue) })])
        }
    }

    /// Four decimals: a frame's positions need no more, and the JSON stays small.
    private static func rounded(_ v: Double) -> Double { (v * 10_000).rounded() / 10_000 }
}

import Foundation
import InstrumentSettings

/// The test tone: a sine to check the sound path end to end (speakers, JACK routing, meters), at a
/// frequency (20 Hz…20 kHz) and level (−60…−6 dBFS) set by controls, or played on the pad while a
/// finger is down (x → frequency, log 55 Hz…3.52 kHz; y → level, top loudest).
///
/// Controls: `tone.on` (bool), `tone.frequency` (Hz), `tone.level` (dBFS). Actions: `tone.reference`
/// (1 kHz at −18 dBFS, the usual alignment level).
public final class StudioToneInstrument: StudioInstrument {
    public static let id = "tone"
    public let displayName = "Test tone"
    public let summary = "A sine to check the sound path: speakers, JACK routing, meters."
    public let tone = StudioToneAudio()
    public var audio: any StudioAudioEngine { tone }

    public private(set) var on = false
    public private(set) var frequency = 1000.0
    public private(set) var level = -18.0
    /// The finger playing the pad (client, slot), if any.
    private var finger: (client: String, slot: Int)?
    private var fingerFrequency = 440.0
    private var fingerLevel = -18.0

    public init() {}

    /// A sine has no time of its own (no ``advance(to:)``).
    public var advancesWithTime: Bool { false }

    public func stateJSON() -> [String: StudioValue] {
        ["on": .bool(on), "frequency": .number(frequency), "level": .number(level), "touching": .bool(finger != nil)]
    }

    private func update() {
        let sounding = on || finger != nil
        let f = finger != nil ? fingerFrequency : frequency
        let dB = finger != nil ? fingerLevel : level
        tone.send(frequency: f, amplitude: sounding ? pow10(dB / 20) : 0)
    }

    private func pow10(_ x: Double) -> Double { exp(x * 2.302585092994046) }

    public func apply(set path: String, value: StudioValue) throws(StudioError) -> [String: StudioValue] {
        switch path {
        case "tone.on": on = try value.boolean(at: path)
        case "tone.frequency": frequency = try value.number(in: 20...20_000, at: path)
        case "tone.level": level = try value.number(in: -60 ... -6, at: path)
        default: throw .unknownControl(path)
        }
        update()
        return stateJSON().filter { $0.key == String(path.dropFirst("tone.".count)) }
    }

    public func apply(action path: String, value: StudioValue) throws(StudioError) -> [String: StudioValue] {
        guard path == "tone.reference" else { throw .unknownControl(path) }
        on = true
        frequency = 1000
        level = -18
        update()
        return ["on": .bool(true), "frequency": .number(1000), "level": .number(-18)]
    }

    public func touch(_ touch: StudioTouch, client: String) throws(StudioError) -> [String: StudioValue] {
        if let f = finger, f.client != client || f.slot != touch.id {
            return [:]  // one finger plays the tone; others are ignored
        }
        if touch.ends {
            guard finger != nil else { return [:] }
            finger = nil
            update()
            return ["touching": .bool(false)]
        }
        let began = finger == nil
        finger = (client, touch.id)
        fingerFrequency = 55 * exp(touch.x * 6 * 0.6931471805599453)  // six octaves
        fingerLevel = -6 - 54 * touch.y
        update()
        return began ? ["touching": .bool(true)] : [:]
    }

    public func frameJSON(now: Double) -> [String: StudioValue]? { nil }

    public func silence(at time: Double) {
        on = false
        finger = nil
        update()
    }
}

/// The LV2 units (`http://lv2plug.in/ns/extensions/units#`) our ports use.
public enum LV2Unit: String, Sendable, Hashable {
    case hertz = "hz"
    case seconds = "s"
    case milliseconds = "ms"
    case decibels = "db"
    case semitones = "semitone12TET"
    case percent = "pc"
    case beatsPerMinute = "bpm"
    case degrees = "degree"
    case frames = "frame"
}

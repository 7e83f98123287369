/// A pad finger's phase, as the page's pointer events report it.
public enum HandsTouchPhase: String, Sendable, Hashable, Codable, CaseIterable {
    /// `pointerdown`: the finger lands; it takes a free touch slot if there is one.
    case down
    /// `pointermove` while down.
    case move
    /// `pointerup`: the finger lifts; its note ends.
    case up
    /// `pointercancel` (the browser took the gesture, the page was hidden): its note ends too.
    case cancel
}

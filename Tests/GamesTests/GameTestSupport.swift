import Enobarbus
import Games
import Haptics

/// Script helpers: touch frames for slot 0 and the actions a model returns.
enum Script {
    static func touch(_ t: Double, _ x: Double, _ y: Double, slot: Int = 0) -> TrackingFrame {
        .touch(TouchFrame(slot: slot, timestamp: t, x: Float(x), y: Float(y)))
    }

    static func lift(_ t: Double, slot: Int = 0) -> TrackingFrame { .ended(.touch(slot), timestamp: t) }

    /// A vertical swipe up and down: y = 0.5 + amplitude·sin(2π·rate·t) sampled at 60 Hz.
    static func swipe(rate: Double, from start: Double, to end: Double, x: Double = 0.5, amplitude: Double = 0.3) -> [TrackingFrame] {
        var frames: [TrackingFrame] = []
        var t = start
        while t <= end {
            // Start just above the line so the first sample is not on it.
            frames.append(touch(t, x, 0.5 + amplitude * sin(2 * .pi * rate * (t - start) + 0.1)))
            t += 1.0 / 60
        }
        return frames
    }

    static func haptics(_ actions: [GameAction]) -> [HapticEvent] {
        actions.compactMap { if case .haptic(let e) = $0 { return e } else { return nil } }
    }

    static func audio(_ actions: [GameAction]) -> [GameAudioEngine.Command] {
        actions.compactMap { if case .audio(let c) = $0 { return c } else { return nil } }
    }
}

import Foundation

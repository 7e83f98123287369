import Enobarbus
import Haptics

/// Touch for Music (seed 003): touch and hold anywhere; the height sets the music's volume; a circle
/// follows the finger; every interaction is felt.
///
/// - Volume = 1 − y (top loud, bottom quiet; the seed's formula), sent as a 0.1 s linear ramp on every
///   frame so frame-rate steps never zipper. It starts at 0.5 (the seed's default: the centre) and holds
///   when the finger lifts (the seed's `onEnded` resets only the touch state).
/// - Circle: follows the finger; scale 1.2 and opacity 1.0 while touching, 1.0 and 0.5 when not, moving
///   between them with SwiftUI's easeInOut over 0.2 s (`circleAppearance(at:)`). Hidden (opacity 0)
///   until the first touch.
/// - Haptics (the seed's "every interaction"): a tap (`HapticManager.tap`) when the finger goes down,
///   when it lifts, and while it drags each time the volume crosses a tenth (0.1, 0.2 … 0.9), so the
///   volume's steps are felt without a continuous buzz.
/// - Inactivity: the home button after 10 s without touch.
public struct TouchForMusic: GameModel {
    public static let volumeRamp = 0.1
    public static let startVolume = 0.5
    public static let animationTime = 0.2
    public static let touchingScale = 1.2, touchingOpacity = 1.0
    public static let restingScale = 1.0, restingOpacity = 0.5
    public static let fadeInTime = 1.5
    public static let fadeOutTime = 1.0

    /// The circle's look at one instant.
    public struct Appearance: Sendable, Hashable {
        public var x: Double
        public var y: Double
        public var scale: Double
        public var opacity: Double

        public init(x: Double, y: Double, scale: Double, opacity: Double) {
            self.x = x
            self.y = y
            self.scale = scale
            self.opacity = opacity
        }
    }

    public private(set) var volume = startVolume
    public private(set) var isTouching = false
    /// Where the circle is (the last touch), 0…1.
    public private(set) var circleX = 0.5
    public private(set) var circleY = 0.5
    var everTouched = false
    var changedAt = -Double.infinity
    var from = (scale: TouchForMusic.restingScale, opacity: 0.0)
    var touch = PrimaryTouch()
    var inactivity = InactivityMonitor()

    /// - Parameter inactivityTimeout: seconds without touch before the home button shows (seed: 10).
    public init(inactivityTimeout: Double = InactivityMonitor.defaultTimeout) {
        inactivity = InactivityMonitor(timeout: inactivityTimeout)
    }

    public var showsHomeButton: Bool { inactivity.showsHomeButton }

    public mutating func start(at time: Double) -> [GameAction] {
        inactivity.start(at: time)
        return [.audio(.masterLevel(1, ramp: 0.02)), .audio(.musicLevel(Float(volume), ramp: Self.fadeInTime))]
    }

    public mutating func leave(at time: Double) -> [GameAction] {
        [.audio(.masterLevel(0, ramp: Self.fadeOutTime))]
    }

    public mutating func advance(to time: Double, musicPosition: Double) -> [GameAction] {
        inactivity.advance(to: time).map { [$0] } ?? []
    }

    /// The circle's target look for a touch state.
    static func target(touching: Bool) -> (scale: Double, opacity: Double) {
        touching ? (touchingScale, touchingOpacity) : (restingScale, restingOpacity)
    }

    /// The circle's position, scale and opacity at session time `time`.
    public func circleAppearance(at time: Double) -> Appearance {
        guard everTouched else { return Appearance(x: circleX, y: circleY, scale: Self.restingScale, opacity: 0) }
        let to = Self.target(touching: isTouching)
        let p = EaseInOut.progress((time - changedAt) / Self.animationTime)
        return Appearance(x: circleX, y: circleY, scale: from.scale + (to.scale - from.scale) * p,
                          opacity: from.opacity + (to.opacity - from.opacity) * p)
    }

    mutating func setTouching(_ touching: Bool, at time: Double) {
        let now = circleAppearance(at: time)
        from = (now.scale, now.opacity)
        isTouching = touching
        everTouched = true
        changedAt = time
    }

    public mutating func handle(_ frame: TrackingFrame) -> [GameAction] {
        guard let change = touch.ingest(frame) else { return [] }
        var actions: [GameAction] = []
        if let a = inactivity.touch(at: frame.timestamp) { actions.append(a) }
        switch change {
        case .began(let t):
            setTouching(true, at: t.timestamp)
            actions.append(.haptic(HapticManager.tapEvent(at: t.timestamp)))
            actions += follow(t)
        case .moved(let t, _):
            let before = volume
            actions += follow(t)
            if Int((before * 10).rounded(.down)) != Int((volume * 10).rounded(.down)) {
                actions.append(.haptic(HapticManager.tapEvent(at: t.timestamp)))
            }
        case .ended(_, let time):
            setTouching(false, at: time)
            actions.append(.haptic(HapticManager.tapEvent(at: time)))
        }
        return actions
    }

    mutating func follow(_ t: TouchFrame) -> [GameAction] {
        circleX = Double(t.x)
        circleY = Double(t.y)
        volume = 1 - min(max(Double(t.y), 0), 1)
        return [.audio(.musicLevel(Float(volume), ramp: Self.volumeRamp))]
    }
}

import Enobarbus
import Hecate
import Horatio

/// A `FaceMappingSet` resolved once against the face ports, so `run` turns port values into the
/// engine's `FaceAmounts` without dictionaries, strings or allocation. Same results as
/// `HecatePerformance.amounts(for:)` on a face with those values (LV2Tests checks it): every mapping
/// reads its signal (a signal no port carries contributes nothing), several mappings to one target
/// combine with max(), and tones never fall below their rest level.
public final class HecateLV2FaceMapping {
    /// The signals the ports carry, each 0…1 (angles normalised as `FaceSignal` does).
    public enum Signal: Int, CaseIterable, Sendable {
        case jawOpen, browInnerUp, cheekPuff, mouthPucker, smile, yaw, pitch, roll
    }

    /// Targets in `FaceAmounts` order: six tones, bass, five sculpt amounts.
    static let targetCount = 12

    struct Route {
        var signal: Int
        var target: Int
        var mapping: FaceMapping
    }

    let routes: UnsafeMutableBufferPointer<Route>
    let rest: UnsafeMutableBufferPointer<Float>
    let scratch: UnsafeMutableBufferPointer<Float>

    public init(_ set: FaceMappingSet) {
        var resolved: [Route] = []
        for mapping in set.mappings {
            guard let signal = Self.signal(of: mapping.source) else { continue }
            resolved.append(Route(signal: signal.rawValue, target: Self.target(of: mapping.target), mapping: mapping))
        }
        routes = .allocate(capacity: max(1, resolved.count))
        _ = routes.initialize(from: resolved)
        count = resolved.count
        rest = .allocate(capacity: Self.targetCount)
        rest.initialize(repeating: 0)
        for (i, tone) in ChordTone.allCases.enumerated() { rest[i] = Float(set.restLevels[tone] ?? 0) }
        scratch = .allocate(capacity: Self.targetCount)
        scratch.initialize(repeating: 0)
    }

    let count: Int

    deinit {
        routes.baseAddress!.deinitialize(count: count)
        routes.deallocate()
        rest.deallocate()
        scratch.deallocate()
    }

    static func signal(of source: FaceSignal) -> Signal? {
        switch source {
        case .blendshape(let name):
            switch ARKitBlendshape(normalisedName: name) {
            case .jawOpen: return .jawOpen
            case .browInnerUp: return .browInnerUp
            case .cheekPuff: return .cheekPuff
            case .mouthPucker: return .mouthPucker
            default: return nil
            }
        case .headYaw: return .yaw
        case .headPitch: return .pitch
        case .headRoll: return .roll
        case .smile: return .smile
        }
    }

    static func target(of target: FaceTarget) -> Int {
        switch target {
        case .tone(let tone): return ChordTone.allCases.firstIndex(of: tone)!
        case .bass: return 6
        case .parameter(let p):
            switch p {
            case .cutoff: return 7
            case .resonance: return 8
            case .formantF1: return 9
            case .formantF2: return 10
            case .brightness: return 11
            }
        }
    }

    /// The amounts for signal values `signals` (indexed by `Signal`, each 0…1).
    public func amounts(_ signals: UnsafeBufferPointer<Double>) -> FaceAmounts {
        for i in 0..<Self.targetCount { scratch[i] = rest[i] }
        for i in 0..<count {
            let amount = Float(routes[i].mapping.amount(for: signals[routes[i].signal]))
            let t = routes[i].target
            scratch[t] = max(scratch[t], amount)
        }
        return FaceAmounts(
            root: scratch[0], third: scratch[1], fifth: scratch[2], seventh: scratch[3], ninth: scratch[4], octave: scratch[5],
            bass: scratch[6], cutoff: scratch[7], resonance: scratch[8], formantF1: scratch[9], formantF2: scratch[10],
            brightness: scratch[11])
    }
}

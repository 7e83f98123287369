import Ariel
import Enobarbus
import Horatio

/// Turns tracked face input (live from Enobarbus, or a recording) into `DroneSynthEngine` commands.
///
/// Each face frame is read as `FaceSignal`s (blendshapes by ARKit name; head yaw and roll ±45° and
/// pitch ±30° → 0…1 with 0.5 straight ahead; smile = mean of mouthSmileLeft/Right), evaluated by a
/// `FaceMappingSet` (max() per target, rest levels) and sent as one `.face` command. The source
/// lifecycle turns into the fade: the face lost (ended, or no frame for `timeout`) → `.faceLost`;
/// back → `.faceFound`. Hands and touches are ignored.
///
///     var performance = HecatePerformance()
///     for event in lifecycle.ingest(frames, at: now) { for c in performance.commands(for: event) { host.send(c) } }
public struct HecatePerformance: Sendable {
    public var mappings: FaceMappingSet
    /// The lifecycle used by `commands(for frame:)` and `advance(to:)`.
    public private(set) var lifecycle: SourceLifecycle

    /// - Parameters:
    ///   - mappings: the face → sound routes (default: the seed's voicing and sculpting tables).
    ///   - timeout: seconds without a face frame after which the face counts as lost.
    public init(mappings: FaceMappingSet = .hecateDefaults, timeout: Double = 0.25) {
        self.mappings = mappings
        lifecycle = SourceLifecycle(timeout: timeout)
    }

    /// The 0…1 value of `signal` in `face`, or nil for a blendshape name ARKit does not have.
    public static func value(of signal: FaceSignal, in face: FaceFrame) -> Double? {
        switch signal {
        case .blendshape(let name):
            guard let shape = ARKitBlendshape(normalisedName: name) else { return nil }
            return Double(face.blendshapes[shape])
        case .headYaw: return FaceSignal.normalisedAngle(Double(face.head.yaw), range: FaceSignal.yawRangeDegrees)
        case .headPitch: return FaceSignal.normalisedAngle(Double(face.head.pitch), range: FaceSignal.pitchRangeDegrees)
        case .headRoll: return FaceSignal.normalisedAngle(Double(face.head.roll), range: FaceSignal.rollRangeDegrees)
        case .smile:
            return Double(face.blendshapes[.mouthSmileLeft] + face.blendshapes[.mouthSmileRight]) / 2
        }
    }

    /// The engine amounts for one face frame.
    public func amounts(for face: FaceFrame) -> FaceAmounts {
        FaceAmounts(mappings.evaluate { Self.value(of: $0, in: face) })
    }

    /// Commands for one lifecycle event (face events only).
    public func commands(for event: SourceEvent) -> [DroneSynthEngine.Command] {
        switch event {
        case .appeared(.face(let face)): return [.faceFound, .face(amounts(for: face))]
        case .updated(.face(let face)): return [.face(amounts(for: face))]
        case .lost(.face, _, _): return [.faceLost]
        default: return []
        }
    }

    /// Feeds one frame through the lifecycle and returns the commands it causes.
    public mutating func commands(for frame: TrackingFrame) -> [DroneSynthEngine.Command] {
        lifecycle.ingest(frame).flatMap { commands(for: $0) }
    }

    /// Advances the lifecycle clock (seconds) and returns the commands its timeouts cause.
    public mutating func advance(to time: Double) -> [DroneSynthEngine.Command] {
        lifecycle.advance(to: time).flatMap { commands(for: $0) }
    }

    /// A whole recording as commands at their frames, for `OfflineRenderer`. Timeouts between frames
    /// are found at the frame rate of the recording (checked every 10 ms), and the face is lost
    /// `timeout` after the last frame, so a render ends with the face-lost fade.
    ///
    /// - Parameters:
    ///   - recording: frames with timestamps in seconds from its start.
    ///   - sampleRate: the render's rate in Hz.
    ///   - offset: seconds added to every time (to leave room before the performance).
    public mutating func schedule(_ recording: Recording, sampleRate: Double, offset: Double = 0) -> [ScheduledCommand<DroneSynthEngine.Command>] {
        var result: [ScheduledCommand<DroneSynthEngine.Command>] = []
        func add(_ time: Double, _ commands: [DroneSynthEngine.Command]) {
            for c in commands { result.append(ScheduledCommand(seconds: time + offset, sampleRate: sampleRate, command: c)) }
        }
        var clock = recording.frames.first?.timestamp ?? 0
        var lastFrame = clock
        for frame in recording.frames {
            while clock + 0.01 < frame.timestamp {
                // Once every source has timed out the ticks change nothing: skip to the next frame, so a
                // long gap costs O(1), not one tick per 10 ms.
                if clock > lastFrame + lifecycle.timeout + 0.02 {
                    let skip = ((frame.timestamp - clock) / 0.01).rounded(.down) - 1
                    if skip > 0 { clock += skip * 0.01 }
                }
                clock += 0.01
                add(clock, advance(to: clock))
            }
            lastFrame = frame.timestamp
            clock = max(clock, frame.timestamp)
            add(frame.timestamp, commands(for: frame))
        }
        let end = clock + lifecycle.timeout + 0.01
        add(end, advance(to: end))
        return result
    }
}

import Ariel
import Enobarbus
import Foundation
import Hecate
import Horatio
import Testing

@Suite struct HecatePerformanceTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var performanceFile: URL { repository.appendingPathComponent("examples/face-performance.jsonl") }

    static func face(_ t: Double, _ blend: [ARKitBlendshape: Float] = [:], yaw: Float = 0, pitch: Float = 0, roll: Float = 0) -> TrackingFrame {
        .face(FaceFrame(timestamp: t, blendshapes: BlendshapeWeights(blend), head: HeadRotation(yaw: yaw, pitch: pitch, roll: roll)))
    }

    @Test func headAnglesNormaliseAsFaceSignalDocuments() {
        let f = { (yaw: Float, pitch: Float, roll: Float) -> FaceFrame in
            FaceFrame(timestamp: 0, head: HeadRotation(yaw: yaw, pitch: pitch, roll: roll))
        }
        #expect(HecatePerformance.value(of: .headYaw, in: f(45, 0, 0)) == 1)
        #expect(HecatePerformance.value(of: .headYaw, in: f(-45, 0, 0)) == 0)
        #expect(HecatePerformance.value(of: .headYaw, in: f(0, 0, 0)) == 0.5)
        #expect(HecatePerformance.value(of: .headPitch, in: f(0, 30, 0)) == 1)
        #expect(HecatePerformance.value(of: .headPitch, in: f(0, -15, 0)) == 0.25)
        #expect(HecatePerformance.value(of: .headRoll, in: f(0, 0, 90)) == 1)  // clamped
        let smiling = FaceFrame(timestamp: 0, blendshapes: BlendshapeWeights([.mouthSmileLeft: 0.8, .mouthSmileRight: 0.4]))
        #expect(abs(HecatePerformance.value(of: .smile, in: smiling)! - 0.6) < 1e-6)
        #expect(HecatePerformance.value(of: .blendshape("noSuchShape"), in: smiling) == nil)
    }

    @Test func framesBecomeMappedAmounts() {
        let p = HecatePerformance()
        guard case .face(let frame) = Self.face(0, [.jawOpen: 0.25, .browInnerUp: 1, .mouthPucker: 0.5], yaw: 11.25) else { return }
        let a = p.amounts(for: frame)
        #expect(a.root == 1 && a.fifth == 0.5 && a.third == 1 && a.bass == 0)
        #expect(a.seventh == 0.5 && a.ninth == 0.5)
        #expect(abs(a.cutoff - 0.5) < 1e-6)  // 11.25° → 0.625 → 0.125 from centre → half of 0.25
        #expect(abs(a.formantF1 - 0.25) < 1e-6)
    }

    @Test func lifecycleBecomesTheFade() {
        var p = HecatePerformance(timeout: 0.25)
        let first = p.commands(for: Self.face(0))
        #expect(first.first == .faceFound && first.count == 2)
        #expect(p.commands(for: Self.face(0.033)).count == 1)
        #expect(p.advance(to: 0.2).isEmpty)
        #expect(p.advance(to: 0.4) == [.faceLost])
        #expect(p.commands(for: Self.face(1.0)).first == .faceFound)
        #expect(p.commands(for: .ended(.face, timestamp: 1.1)) == [.faceLost])
        // Hands and touches do not play Hecate.
        #expect(p.commands(for: .touch(TouchFrame(slot: 0, timestamp: 1.2, x: 0.5, y: 0.5))).isEmpty)
    }

    @Test func committedPerformanceLosesAndFindsTheFaceOnce() throws {
        let recording = try RecordingReader.parse(Array(try Data(contentsOf: Self.performanceFile)))
        #expect(recording.frames.count > 1000)
        var p = HecatePerformance()
        let scheduled = p.schedule(recording, sampleRate: 48_000)
        let lost = scheduled.filter { $0.command == .faceLost }.map { Double($0.frame) / 48_000 }
        let found = scheduled.filter { $0.command == .faceFound }.map { Double($0.frame) / 48_000 }
        #expect(found.count == 2 && lost.count == 2)
        // No frames from 31.0 s: lost after the 0.25 s timeout; back at 32.5 s; lost again after the end.
        #expect(abs(lost[0] - 31.22) < 0.03, "lost at \(lost[0]) s")
        #expect(abs(found[1] - 32.5) < 0.02)
        #expect(lost[1] > recording.frames.last!.timestamp)
    }

    @Test func committedPerformanceThroughTheEngine() throws {
        let recording = try RecordingReader.parse(Array(try Data(contentsOf: Self.performanceFile)))
        var p = HecatePerformance()
        var commands = p.schedule(recording, sampleRate: 48_000)
        commands.insert(ScheduledCommand(frame: 0, command: .preset(SoundPack.cathedral.preset)), at: 0)
        let renderer = OfflineRenderer(engine: DroneSynthEngine(), options: OfflineRenderOptions(format: .float32, tailSeconds: 2))
        let wav = try WAVAudio(decoding: renderer.render(commands: commands).finish())
        let left = wav.channels[0]
        let s = { (a: Double, b: Double) in Int(a * 48_000)..<Int(b * 48_000) }
        #expect(peak(left) <= Float(pow(10, -6.0 / 20)) * 1.0001)
        // The jaw's upper half brings the bass (C2) in at 7–8.5 s. Its fundamental shares 65.4 Hz with
        // the sub and the drone, so listen at its 5th harmonic (327 Hz), which no other voice makes.
        let bassHz = DroneVoicing.frequency(DroneVoicing(key: .c, degree: .one).bass)
        #expect(decibels(toneAmplitude(left, at: 5 * bassHz, in: s(7.2, 8.4))) > decibels(toneAmplitude(left, at: 5 * bassHz, in: s(4.2, 5.4))) + 15)
        // The 5th comes in with the jaw's lower half at 4–5.5 s.
        let fifth = toneFrequency(.fifth)
        #expect(decibels(toneAmplitude(left, at: fifth, in: s(4.2, 5.4))) > decibels(toneAmplitude(left, at: fifth, in: s(0.8, 1.9))) + 20)
        // Face lost at 31.25 s: the dry sound and drone fade out (the reverb tail rings on).
        #expect(decibels(rms(left, s(31.6, 32.2)) / rms(left, s(30.3, 31.0))) < -10)
        // Found at 32.5 s: back up.
        #expect(decibels(rms(left, s(33.4, 34.0)) / rms(left, s(30.3, 31.0))) > -6)
    }
}

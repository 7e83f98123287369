import Ariel
import Enobarbus
import Foundation
import Hecate
import Horatio
import Testing
import Touchstone

/// Before any face has been seen the engine is silent, tones and drone (the seed: no face means
/// silence); the first face fades it in along the face-found S-curve, and offline renders of a
/// recording that opens with a face hold that fade in the lead before the performance.
@Suite struct DroneSynthEngineLaunchTests {
    /// −90 dBFS as a linear amplitude.
    static let silence = Float(pow(10, -90.0 / 20))

    /// Everything a live session sends before a face arrives (pack, key, chords, tempo, arpeggio,
    /// tremolo, room, route), with the drone, sub and bass of the pack up: still silence.
    @Test(arguments: [SoundPack.cathedral.preset, SoundPack.coven.preset])
    func silentUntilAFaceIsSeen(preset: VoicePreset) {
        var loud = preset
        loud.droneLevel = 1
        loud.subLevel = 1
        let commands: [(Double, DroneSynthEngine.Command)] = [
            (0, .preset(loud)), (0, .key(.d)), (0, .chord(.four)), (0, .bpm(100)), (0, .arpeggiatorDivision(.sixteenth)),
            (0, .tremolo(shape: .square, division: .eighth, depth: 0.5)), (0, .reverbMix(0.6)),
            (0, .output(playAlong: false, route: .wired)), (0.4, .arpeggiator(true)), (0.7, .chord(.five)),
            (0.9, .toneLevel(.third, 1)), (1.1, .bassLevel(1)), (1.3, .sculpt(.brightness, 1)),
        ]
        let out = renderEngine(DroneSynthEngine(preset: preset), seconds: 2, commands: commands)
        let loudest = max(peak(out.left), peak(out.right))
        #expect(loudest < Self.silence, "\(decibels(Double(loudest))) dBFS before any face")
        print("no face: peak \(decibels(Double(loudest))) dBFS")
    }

    /// The first face (a `.face` frame alone, or `.faceFound` then the frame, as `HecatePerformance`
    /// sends it) fades in over the face-found time: smoothstep over 450 ms reaches −0.1 dB
    /// (3x² − 2x³ = 0.9886) at x = 0.938, 422 ms; at 300 ms it is at 0.74.
    @Test(arguments: [false, true])
    func firstFaceFadesInOverTheFaceFoundTime(withFoundEvent: Bool) {
        var p = measuringPreset()
        p.droneLevel = 0.2
        p.detuneCents = 0
        var commands: [(Double, DroneSynthEngine.Command)] = withFoundEvent ? [(1.0, .faceFound)] : []
        commands.append((1.0, .face(.neutral)))
        let out = renderEngine(DroneSynthEngine(preset: p), seconds: 2.5, commands: commands)
        let before = max(peak(out.left, seconds(0, 1.0)), peak(out.right, seconds(0, 1.0)))
        #expect(before < Self.silence, "\(decibels(Double(before))) dBFS before the face")
        let env = DroneSynthEngineTests.envelope(out.left)
        let steady = env[2300]
        #expect(steady > 0.01)
        let upEnd = (1000..<env.count).first { env[$0] > steady * 0.9886 }!
        let up = Double(upEnd - 1000)
        #expect((400...470).contains(up), "fade in \(up) ms")
        #expect(env[1300] < steady * 0.9)  // still rising at 300 ms
        #expect(env[1020] < steady * 0.05)  // from silence, along the S-curve's flat start
        print("first face fade-in measured\(withFoundEvent ? " (.faceFound + .face)" : " (.face)"): \(up) ms to −0.1 dB, before it \(decibels(Double(before))) dBFS")
    }

    static func face(_ t: Double) -> TrackingFrame {
        .face(FaceFrame(timestamp: t, head: HeadRotation(yaw: 0, pitch: 0, roll: 0)))
    }

    /// A recording that opens with a face: the face is found at frame 0, so the lead holds the fade-in
    /// and the first frame's amounts land at the offset. One that opens with something else finds its
    /// face where the face appears.
    @Test func offlineRendersFindAnOpeningFaceAtTheStart() throws {
        let rate = 48_000.0
        let opening = Recording(frames: stride(from: 0.0, to: 1.0, by: 1 / 30).map { Self.face($0) })
        var performance = HecatePerformance()
        let scheduled = performance.schedule(opening, sampleRate: rate, offset: 0.25)
        #expect(scheduled.first { $0.command == .faceFound }?.frame == 0)
        #expect(scheduled.first { if case .face = $0.command { true } else { false } }?.frame == Int64(0.25 * rate))

        let late = Recording(frames: [.touch(TouchFrame(slot: 0, timestamp: 0, x: 0.5, y: 0.5))]
            + stride(from: 0.5, to: 1.0, by: 1 / 30).map { Self.face($0) })
        var other = HecatePerformance()
        let found = other.schedule(late, sampleRate: rate, offset: 0.25).first { $0.command == .faceFound }
        #expect(found?.frame == Int64((0.75 * rate).rounded()))

        // Through the engine: sounding in the lead (fading in from 0), fully in when the performance starts.
        var steady = measuringPreset()
        steady.detuneCents = 0  // no beating between a bank's oscillators: the level holds still
        let renderer = OfflineRenderer(engine: DroneSynthEngine(preset: steady), options: OfflineRenderOptions(format: .float32, tailSeconds: 0))
        let left = try WAVAudio(decoding: renderer.render(commands: scheduled).finish()).channels[0]
        try #require(left.count > Int(1.2 * rate))
        #expect(rms(left, seconds(0.2, 0.25)) > 10 * rms(left, seconds(0, 0.02)))
        #expect(abs(decibels(rms(left, seconds(0.6, 0.7)) / rms(left, seconds(0.9, 1.0)))) < 1)
    }
}

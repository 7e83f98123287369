import Ariel
import Enobarbus
import Foundation
import Hecate
import Horatio
import Testing
import Touchstone

/// The live output stage (the limiter prepared for a live stream: 1 ms in all) against the offline limiter
/// (5 ms look-ahead + the 26-frame true-peak stage) on the demo (the committed face performance with both
/// packs, as `prospero demo` plays it) and a song (`examples/song.mid` through the polysynth, as
/// `prospero render` plays it). The two outputs are aligned by the difference of their delays (218 frames at
/// 48 kHz) and subtracted: where neither limiter acts they are equal sample for sample; where one does, the
/// live stage fades its gain in over 0.46 ms instead of 5 ms. The figures are printed for the README.
@Suite struct LiveOutputStageSoundTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let rate = 48_000.0

    /// How the live stage's output differs from the offline limiter's.
    struct Difference: CustomStringConvertible {
        /// RMS of the difference relative to the RMS of the offline output, dB.
        var residualDecibels: Double
        /// Largest difference of one sample, dBFS.
        var largestDecibels: Double
        /// Share of frames where the two differ by more than 1e-6 (a limiter acting), 0…1.
        var differingShare: Double
        /// Offline and live latency, frames.
        var latencies: (offline: Int, live: Int)

        var description: String {
            String(format: "residual %.1f dB below the signal, largest sample difference %.1f dBFS, %.2f %% of frames differ; delay %d → %d frames",
                   -residualDecibels, largestDecibels, 100 * differingShare, latencies.offline, latencies.live)
        }
    }

    static func render<Engine: AudioEngine>(
        _ engine: Engine, live: Bool, midi: MIDISequencer? = nil, commands: [ScheduledCommand<Engine.Command>] = []
    ) throws -> (left: [Float], right: [Float]) {
        let options = OfflineRenderOptions(sampleRate: rate, blockSize: 256, format: .float32, tailSeconds: 3, silenceThresholdDB: -100)
        let renderer = OfflineRenderer(engine: engine, options: options)
        if live { renderer.host.prepare(.live(sampleRate: rate, maximumBlockSize: 256)) }
        var left: [Float] = [], right: [Float] = []
        _ = try renderer.render(midi: midi, commands: commands, to: WAVMemorySink(), observe: { l, r in
            left += l
            right += r
        })
        return (left, right)
    }

    static func compare(offline: (left: [Float], right: [Float]), live: (left: [Float], right: [Float]),
                        latencies: (offline: Int, live: Int)) -> Difference {
        let shift = latencies.offline - latencies.live
        let count = min(offline.left.count - shift, live.left.count)
        var signal = 0.0, residual = 0.0, largest: Float = 0
        var differing = 0
        for n in 0..<count {
            let dl = offline.left[n + shift] - live.left[n], dr = offline.right[n + shift] - live.right[n]
            signal += Double(offline.left[n + shift] * offline.left[n + shift] + offline.right[n + shift] * offline.right[n + shift])
            residual += Double(dl * dl + dr * dr)
            largest = max(largest, abs(dl), abs(dr))
            if max(abs(dl), abs(dr)) > 1e-6 { differing += 1 }
        }
        return Difference(residualDecibels: 10 * log10(max(residual, 1e-30) / max(signal, 1e-30)),
                          largestDecibels: 20 * log10(Double(max(largest, 1e-12))),
                          differingShare: Double(differing) / Double(max(1, count)), latencies: latencies)
    }

    /// The demo, pack by pack: key D, 84 BPM, chords I@0, IV@12.5, vi@19.5, V@25.5, I@32.5.
    @Test(arguments: ["cathedral", "coven"])
    func theDemoSoundsTheSame(packName: String) throws {
        let pack = try #require(SoundPack.builtIn.first { $0.id == packName || $0.name.lowercased() == packName })
        let recording = try RecordingReader.parse(Array(try Data(contentsOf: Self.repository.appendingPathComponent("examples/face-performance.jsonl"))))
        let chords: [(Double, NashvilleDegree)] = [(0, .one), (12.5, .four), (19.5, .six), (25.5, .five), (32.5, .one)]
        let initial: [DroneSynthEngine.Command] = [.preset(pack.preset), .key(.d), .chord(.one), .bpm(84)]
        let commands = HecateRecordingRender.commands(for: recording, initial: initial, chords: chords, sampleRate: Self.rate)
        var latencies = (offline: 0, live: 0)
        let offlineEngine = DroneSynthEngine(preset: pack.preset, key: .d)
        let offline = try Self.render(offlineEngine, live: false, commands: commands)
        latencies.offline = offlineEngine.latencySamples
        let liveEngine = DroneSynthEngine(preset: pack.preset, key: .d)
        let live = try Self.render(liveEngine, live: true, commands: commands)
        latencies.live = liveEngine.latencySamples
        let difference = Self.compare(offline: offline, live: live, latencies: latencies)
        print("live output stage vs offline limiter, demo (\(pack.name)): \(difference)")
        #expect(latencies.offline == 266 && latencies.live == 48, "\(latencies)")
        #expect(difference.residualDecibels < -40, "\(difference)")
    }

    /// `examples/song.mid` through the polysynth with `prospero render`'s default settings.
    @Test func theSongSoundsTheSame() throws {
        let file = try MIDIFile(decoding: Array(try Data(contentsOf: Self.repository.appendingPathComponent("examples/song.mid"))))
        var latencies = (offline: 0, live: 0)
        let offlineSynth = PolySynth(capacity: 16, settings: PolySynthSettings())
        let offline = try Self.render(offlineSynth, live: false, midi: MIDISequencer(file: file, sampleRate: Self.rate))
        latencies.offline = offlineSynth.latencySamples
        let liveSynth = PolySynth(capacity: 16, settings: PolySynthSettings())
        let live = try Self.render(liveSynth, live: true, midi: MIDISequencer(file: file, sampleRate: Self.rate))
        latencies.live = liveSynth.latencySamples
        let difference = Self.compare(offline: offline, live: live, latencies: latencies)
        print("live output stage vs offline limiter, song.mid (polysynth): \(difference)")
        #expect(latencies.offline == 266 && latencies.live == 48, "\(latencies)")
        #expect(difference.residualDecibels < -40, "\(difference)")
    }
}

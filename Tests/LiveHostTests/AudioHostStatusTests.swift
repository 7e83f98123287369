import Foundation
import LiveHost
import Testing

/// The audio backend's status snapshot: the lines the CLI prints from it, the offline backend,
/// and the value travelling as JSON (what the studio's Home page receives).
@Suite struct AudioHostStatusTests {
    static func jackStatus() -> AudioHostStatus {
        AudioHostStatus(
            backend: .jack, clientName: "Prospero-01", serverName: "studio", sampleRate: 48_000, periodFrames: 256,
            isRealtime: true,
            ports: [
                AudioHostPort(name: "Prospero-01:out_left", kind: .audio, isInput: false, connections: ["system:playback_1"]),
                AudioHostPort(name: "Prospero-01:out_right", kind: .audio, isInput: false, connections: ["system:playback_2"]),
                AudioHostPort(name: "Prospero-01:midi_out", kind: .midi, isInput: false, connections: []),
                AudioHostPort(name: "Prospero-01:midi_in", kind: .midi, isInput: true, connections: ["a2j:keys", "seq:out"]),
            ],
            playbackLatencyMinimum: 512, playbackLatencyMaximum: 512, processingLatencyFrames: 240, cpuLoad: 3.14,
            xruns: 2, periods: 1_000, frames: 256_000, longestCallbackNanoseconds: 81_234, averageCallbackNanoseconds: 9_000,
            midiOutputDropped: 1, midiInputLost: 0, isRunning: true)
    }

    @Test func jackSetupLinesNameServerRatePeriodPortsAndLatency() {
        let lines = Self.jackStatus().setupLines()
        #expect(lines == [
            "Connected to JACK server \"studio\" as \"Prospero-01\": 48000 Hz, period 256 frames (5.33 ms), realtime yes",
            "  Prospero-01:out_left → system:playback_1",
            "  Prospero-01:out_right → system:playback_2",
            "  Prospero-01:midi_out (not connected)",
            "  Prospero-01:midi_in ← a2j:keys, seq:out",
            // 240 frames at 48 kHz = 5 ms; MIDI in → sound = 256 + 240 + 512 = 1008 frames = 21 ms.
            "  processing latency 240 frames (5.0 ms): the limiter's look-ahead, reported to JACK; MIDI in to sound out takes one period plus this",
            "  playback latency 512 frames (10.67 ms) from these outputs to the hardware",
            "  latency: MIDI in → sound 1008 frames (21.0 ms: one period + processing + playback)",
        ])
        var live = Self.jackStatus()
        live.inputDelayFrames = 256
        // Input → sound = 256 delay + 240 + 512 = 1008 frames; input → midi_out = the delay, 256 frames = 5.33 ms.
        #expect(live.setupLines().last == "  latency: MIDI in → sound 1008 frames (21.0 ms: one period + processing + playback)"
            + "; input → sound 1008 frames (21.0 ms: input delay 256 + processing + playback); input → midi_out 256 frames (5.33 ms)")
        var reconnected = Self.jackStatus()
        reconnected.serverName = nil
        #expect(reconnected.setupLines(isReconnect: true)[0].hasPrefix("Reconnected to JACK server default as \"Prospero-01\""))
    }

    @Test func unconnectedOutputsSayOnePeriod() {
        var status = Self.jackStatus()
        status.playbackLatencyMinimum = 0
        status.playbackLatencyMaximum = 0
        status.processingLatencyFrames = 0
        var lines = status.setupLines()
        #expect(lines.suffix(2) == ["  playback latency: one period (5.33 ms); outputs not connected to hardware",
                                    "  latency: MIDI in → sound 256 frames (5.33 ms: one period)"])
        status.playbackLatencyMinimum = 256
        status.playbackLatencyMaximum = 1_024
        lines = status.setupLines()
        // 256 + 1024 = 1280 frames = 26.67 ms.
        #expect(lines.suffix(2) == ["  playback latency 256…1024 frames (21.33 ms) from these outputs to the hardware",
                                    "  latency: MIDI in → sound 1280 frames (26.67 ms: one period + playback)"])
    }

    @Test func counterLines() {
        let status = Self.jackStatus()
        #expect(status.countersLine == "1000 periods, 2 xruns, longest callback 81.2 µs, MIDI out dropped 1, MIDI in lost 0")
        #expect(status.xrunLine == "xrun: 2 so far (longest callback 81.2 µs)")
        #expect(status.loadLine == "DSP load 3.1 %")
        #expect(status.periodMilliseconds == 256_000.0 / 48_000)
        #expect(status.latencyFromInputFrames == 752)
    }

    @Test func offlineBackendCountsItsBlocksAndHasNoPorts() {
        let backend = OfflineAudioBackend(name: "render", sampleRate: 44_100, blockFrames: 512)
        #expect(backend.audioStatus.periods == 0)
        #expect(!backend.audioStatus.isRunning)
        for _ in 0..<3 { backend.rendered(frames: 512) }
        backend.rendered(frames: 100)
        let running = backend.audioStatus
        #expect(running.backend == .offline)
        #expect(running.periods == 4)
        #expect(running.frames == 1_636)
        #expect(running.isRunning)
        #expect(running.ports.isEmpty)
        #expect(running.cpuLoad == nil)
        #expect(running.setupLines() == ["Offline (render): 44100 Hz, blocks of 512 frames (11.61 ms), no live audio device"])
        backend.finished()
        #expect(!backend.audioStatus.isRunning)
        // Used through the protocol, as the studio does.
        let any: any LiveAudioBackend = backend
        #expect(any.audioStatus.frames == 1_636)
    }

    @Test func statusTravelsAsJSONUnchanged() throws {
        let status = Self.jackStatus()
        let data = try JSONEncoder().encode(status)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"backend\":\"jack\""))
        #expect(text.contains("\"clientName\":\"Prospero-01\""))
        #expect(try JSONDecoder().decode(AudioHostStatus.self, from: data) == status)
    }
}

import ProsperoLV2

/// Each plugin's `run()` as a host calls it: 48 kHz, 256-frame blocks, an eight-note chord held (and,
/// for Hecate, a face showing every tone), output discarded. Prints × real time (audio seconds per
/// second of wall-clock time) as a Markdown table.
enum LV2Bench {
    static let sampleRate = 48_000.0
    static let block = 256

    static func run(seconds: Double) {
        print("| Plugin | run() at 48 kHz, 256-frame blocks | × real time |")
        print("|---|---|---|")
        for plugin in LV2Catalog.plugins {
            let speed = measure(plugin, seconds: seconds)
            print("| \(plugin.info.name) | \(Int(seconds)) s of audio, 8 notes held | \(format1(speed))× |")
        }
    }

    static func format1(_ x: Double) -> String {
        let tenths = Int((x * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// × real time of `seconds` of audio.
    static func measure(_ type: LV2Plugin.Type, seconds: Double) -> Double {
        var next: UInt32 = 0
        var mapped: [String: UInt32] = [:]
        let uris = LV2URIDs(stateKey: type.info.stateKey) { uri in
            if let id = mapped[uri] { return id }
            next += 1
            mapped[uri] = next
            return next
        }
        let instance = type.init(sampleRate: sampleRate, uris: uris)
        let info = type.info
        let left = UnsafeMutablePointer<Float>.allocate(capacity: block)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: block)
        let controls = UnsafeMutablePointer<Float>.allocate(capacity: info.ports.count)
        defer { left.deallocate(); right.deallocate(); controls.deallocate() }
        let events = LV2AtomSequenceWriter(capacity: 4096, midiEvent: uris.midiEvent)
        for (i, port) in info.ports.enumerated() {
            switch port.kind {
            case .audioOutput: instance.connect(port: i, to: i == 1 ? UnsafeMutableRawPointer(left) : UnsafeMutableRawPointer(right))
            case .eventInput: instance.connect(port: i, to: events.buffer)
            case .latencyOutput:
                controls[i] = 0
                instance.connect(port: i, to: controls + i)
            case .control(let c):
                controls[i] = benchValue(symbol: port.symbol) ?? c.defaultValue
                instance.connect(port: i, to: controls + i)
            }
        }
        instance.activate()
        // A C minor 9 chord spread over three octaves, velocity 100.
        for (k, note) in [48, 55, 60, 63, 67, 70, 74, 79].enumerated() {
            events.append(frame: Int64(k), midi: (0x90, UInt8(note), 100))
        }
        instance.run(frameCount: block)
        events.clear()
        let blocks = Int(seconds * sampleRate) / block
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<blocks { instance.run(frameCount: block) }
        let elapsed = clock.now - start
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return Double(blocks * block) / sampleRate / wall
    }

    /// Hecate's face in the benchmark: every tone sounding, the face present.
    static func benchValue(symbol: String) -> Float? {
        switch symbol {
        case "face_present": 1
        case "jaw_open", "brow_inner_up", "cheek_puff", "mouth_pucker", "mouth_smile": 0.9
        default: nil
        }
    }
}

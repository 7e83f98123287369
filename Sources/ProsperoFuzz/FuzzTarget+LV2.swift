import ProsperoLV2
import Synchronization

extension FuzzTarget {
    /// An LV2 host's event input from arbitrary bytes: the bytes are an atom sequence's body (the atom
    /// header in front gives their size, as a host's does), read by `LV2AtomSequence` for MIDI and the
    /// transport's tempo, then played through an instance of every plugin in one 64-frame `run`. Every
    /// event read must lie inside the sequence, and every output sample must stay finite and within full
    /// scale. Accepted: at least one event was read.
    static func runLV2AtomSequence(_ bytes: [UInt8]) -> Bool {
        LV2FuzzHost.shared.withLock { $0.run(bytes) }
    }
}

/// An instance of every LV2 plugin connected as a host connects it (48 kHz, ports at their defaults), kept
/// across inputs as a host keeps its instances; one input at a time (the lock).
final class LV2FuzzHost {
    static let shared = Mutex(LV2FuzzHost())
    static let frames = 64
    /// The largest sequence body (the fuzz drivers cap inputs at 64 KiB).
    static let capacity = 1 << 16

    let uris: LV2URIDs
    let instances: [LV2Plugin]
    let events: UnsafeMutableRawPointer
    let left: UnsafeMutablePointer<Float>
    let right: UnsafeMutablePointer<Float>
    let controls: UnsafeMutablePointer<Float>

    init() {
        // URIDs 1, 2, … in `LV2URIDs.uris` order (the seeds in Fuzz/corpus/lv2AtomSequence use them).
        let map: (String) -> UInt32 = { uri in UInt32((LV2URIDs.uris.firstIndex(of: uri) ?? LV2URIDs.uris.count) + 1) }
        uris = LV2URIDs(stateKey: nil, map: map)
        events = .allocate(byteCount: 8 + Self.capacity, alignment: 8)
        events.initializeMemory(as: UInt8.self, repeating: 0, count: 8 + Self.capacity)
        left = .allocate(capacity: Self.frames)
        right = .allocate(capacity: Self.frames)
        let portCount = LV2Catalog.plugins.reduce(0) { $0 + $1.info.ports.count }
        controls = .allocate(capacity: portCount)
        controls.initialize(repeating: 0, count: portCount)
        var made: [LV2Plugin] = []
        var next = 0
        for type in LV2Catalog.plugins {
            let instance = type.init(sampleRate: 48_000, uris: LV2URIDs(stateKey: type.info.stateKey, map: map))
            for (i, port) in type.info.ports.enumerated() {
                switch port.kind {
                case .audioOutput: instance.connect(port: i, to: UnsafeMutableRawPointer(i == 1 ? left : right))
                case .eventInput: instance.connect(port: i, to: events)
                case .latencyOutput: instance.connect(port: i, to: UnsafeMutableRawPointer(controls + next))
                case .control(let c):
                    controls[next] = c.defaultValue
                    instance.connect(port: i, to: UnsafeMutableRawPointer(controls + next))
                }
                next += 1
            }
            instance.activate()
            made.append(instance)
        }
        instances = made
    }

    deinit {
        events.deallocate()
        left.deallocate()
        right.deallocate()
        controls.deallocate()
    }

    func run(_ bytes: [UInt8]) -> Bool {
        let count = min(bytes.count, Self.capacity)
        events.storeBytes(of: UInt32(count), toByteOffset: 0, as: UInt32.self)
        events.storeBytes(of: UInt32(0), toByteOffset: 4, as: UInt32.self)
        bytes.withUnsafeBytes { raw in
            if count > 0, let source = raw.baseAddress { (events + 8).copyMemory(from: source, byteCount: count) }
        }
        let start = UnsafeRawPointer(events), end = start + 8 + count
        var read = 0
        LV2AtomSequence(start).forEachEvent { _, type, body, size in
            // An event's body lies after the atom and sequence headers and its own, and ends inside the sequence.
            guard body >= start + 32, size >= 0, body + size <= end else { fatalError("an atom event read outside the sequence") }
            if type == uris.midiEvent {
                _ = LV2AtomSequence.midiMessage(body, size: size)
            } else if type == uris.atomObject || type == uris.atomBlank {
                _ = LV2AtomSequence.beatsPerMinute(body, size: size, uris: uris)
            }
            read += 1
        }
        for instance in instances {
            instance.run(frameCount: Self.frames)
            for k in 0..<Self.frames where !(abs(left[k]) <= 1 && abs(right[k]) <= 1) {
                fatalError("\(type(of: instance).info.uri) played \(left[k]), \(right[k])")
            }
        }
        return read > 0
    }
}

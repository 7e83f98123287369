import Enobarbus

/// Who makes the gesture in `prospero-jack-bench gesture`, and the live path it goes through.
enum GestureSender: CaseIterable, CustomStringConvertible {
    /// The native bundle (`/prospero/face/blend jawOpen 0.9` + `/prospero/face/head`, as the camera bridge sends a
    /// frame) to `prospero hecate`.
    case bundle
    /// A Face Cap stream (a frame of 57 loose datagrams: `/HT`, `/HR`, `/HRQ`, `/ELR`, `/ERR`, then `/W 0` … `/W 51`
    /// with jawOpen 0.9) to `prospero hecate`, which closes the frame on its last `/W`: timed from that datagram.
    case faceCap
    /// A note-on written at a period's first frame into `prospero play`'s midi_in.
    case midiIn
    /// The native bundle to the studio's Hecate, selected over the studio's socket as a page selects it.
    case studio

    var description: String {
        switch self {
        case .bundle: "native bundle → `hecate`"
        case .faceCap: "Face Cap stream → `hecate`"
        case .midiIn: "MIDI in → `play`"
        case .studio: "native bundle → studio's Hecate"
        }
    }

    var isFace: Bool { self != .midiIn }

    static let faceEnd = try! OSCEncoder.encode(.bundle(OSCBundle([.message(OSCMessage("/prospero/face/end", []))])))

    /// One face frame with jawOpen 0.9, as the datagrams the sender sends (none for MIDI).
    var datagrams: [[UInt8]] {
        switch self {
        case .bundle, .studio:
            return [try! OSCEncoder.encode(.bundle(OSCBundle([
                .message(OSCMessage("/prospero/face/blend", [.string("jawOpen"), .float32(0.9)])),
                .message(OSCMessage("/prospero/face/head", [.float32(0), .float32(0), .float32(0)])),
            ])))]
        case .midiIn:
            return []
        case .faceCap:
            let head = [
                OSCMessage("/HT", [.float32(0), .float32(0), .float32(0.4)]), OSCMessage("/HR", [.float32(0), .float32(0), .float32(0)]),
                OSCMessage("/HRQ", [.float32(0), .float32(0), .float32(0), .float32(1)]),
                OSCMessage("/ELR", [.float32(0), .float32(0)]), OSCMessage("/ERR", [.float32(0), .float32(0)]),
            ]
            let jaw = ARKitBlendshape.faceCapOrderNames.firstIndex(of: "jawOpen")!
            let weights = (0..<52).map { OSCMessage("/W", [.int32(Int32($0)), .float32($0 == jaw ? 0.9 : 0)]) }
            return (head + weights).map { try! OSCEncoder.encode(.message($0)) }
        }
    }

    /// The subject: Hecate without reverb, so that its sound ends soon after the face and each event starts from
    /// silence. A face fades Hecate in along an S-curve that leaves −120 dBFS within a millisecond (and takes about
    /// 17 ms to reach −60 dBFS), and Hecate without a face renders silence: its onset is found at 1e-6.
    var subject: LiveSubject {
        let frame = datagrams
        switch self {
        case .midiIn:
            return LiveSubject(label: description, client: "BenchPlay",
                               arguments: { _, _ in ["play", "--no-connect-audio", "--release", "0.05"] })
        case .bundle, .faceCap:
            return LiveSubject(
                label: description, client: "BenchHecate",
                arguments: { port, _ in ["hecate", "--no-connect-audio", "--no-settings", "--reverb-mix", "0", "--port", "\(port)"] },
                prelude: Array(frame.dropLast()), start: frame.last, end: self == .bundle ? Self.faceEnd : nil,
                onsetLevel: 1e-6, quietLevel: 1e-7)
        case .studio:
            return LiveSubject(
                label: description, client: "BenchStudio",
                arguments: { port, _ in
                    ["studio", "--audio", "jack", "--port", "0", "--osc-port", "\(port)", "--no-qr", "--no-connect-audio", "--no-settings"]
                },
                start: frame.last, end: Self.faceEnd, onsetLevel: 1e-6, quietLevel: 1e-7,
                prepare: { studio in try StudioSocket(studioOutput: studio.output, selecting: "hecate", sets: [("hecate.reverb", "0")]) })
        }
    }
}

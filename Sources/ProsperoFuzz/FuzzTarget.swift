import Ariel
import Foundation
import Hecate
import HiSynth
import Horatio
import InstrumentSettings
import Prospero
import Enobarbus
import Games
import Haptics
import Oberon
import LiveHost
import Studio
import StudioServer

/// Every parser of untrusted bytes in the package, as a fuzz target.
///
/// Each case feeds arbitrary bytes to one parser. A target may throw the parser's
/// typed error (that is the parser doing its job) but must never crash, hang or
/// trap. `prospero-fuzz` drives these with libFuzzer; `FuzzTests` drives them
/// with a deterministic mutator over the committed corpus in `Fuzz/corpus/<name>/`.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// RIFF/WAVE decoding (`WAVAudio(decoding:)`).
    case wav
    /// Note names and key names (`Pitch(parsing:)`, `MusicalKey(_:)`, `NashvilleDegree(_:)`).
    case noteName
    /// Hecate sound pack JSON (`SoundPack(json:)`).
    case soundPack
    /// A live MIDI byte stream (`MIDIStreamParser`, byte by byte), plus strict `MIDIMessage.decode`.
    case midiStream
    /// Standard MIDI File reading (`MIDIFile(decoding:)`), then writing and re-reading what was read.
    case standardMIDIFile
    /// Hand-router settings JSON (`MIDIRouterSettings.decoded(fromJSON:)`).
    case routerSettings
    /// OSC 1.0 packets (`OSCDecoder.decode`), then every adapter (`OSCFrameAssembler.ingest`).
    case oscPacket
    /// Input recordings, JSON Lines (`RecordingReader.parse`).
    case recording
    /// HiSynth preset strings (`HiSynthPreset(string:)`), then JSON and string round trips of what was read.
    case hisynthPreset
    /// AHAP haptic patterns (`HapticPattern(ahap:)`), written back and re-read, then rendered for every target.
    case ahap
    /// Game scripts (`prospero game simulate --script`): a recording, then every game model over its frames.
    case gameScript
    /// HiSynth songs (`HiSynthSong(bytes:name:)`): a Standard MIDI File read into timed notes.
    case hisynthSong
    /// Streamed RIFF/WAVE reading in blocks (`Ariel.WAVStreamReader`), then analysis of what was read.
    case wavStream
    /// iFacialMocap / FaceMotion3D UDP text frames (`IFacialMocapDecoder`).
    case iFacialMocap
    /// Live Link Face binary frames (`LiveLinkFaceDecoder`).
    case liveLinkFace
    /// Any sender datagram on the shared face port (`SenderDatagramDecoder`: format detection, then
    /// iFacialMocap, Live Link Face, or OSC through FaceOSC, mpmocap, Visage, Wekinator and the assembler).
    case senderDatagram
    /// `--allow` values, one per line (`SenderAllowList(parsing:)`), then sender addresses against the list.
    case senderAllowList
    /// Studio WebSocket messages (`StudioClientMessage.parse`): JSON with limits, then the protocol's
    /// types; an accepted document's JSON text parses back to the same value.
    case studioMessage
    /// The settings file (`ProsperoSettings(json:)`, with its limits), and mapping files
    /// (`ProsperoSettings.mappings(json:)`); an accepted document writes text that reads back equal.
    case settings
    /// Browser-audio PCM frames (`StudioPCMFrame.decode`); an accepted frame encodes back to the same bytes
    /// (a sample of −32768, outside the symmetric range, comes back as −32767).
    case studioPCMFrame
    /// WebSocket frames as the studio's server reads them (swift-nio's frame decoder with the studio's
    /// 128 KiB frame limit), split in two reads; every text frame then through `StudioClientMessage.parse`.
    case websocketFrames
    /// An LV2 host's event input (`LV2AtomSequence`: MIDI and the transport's tempo), then every LV2 plugin's
    /// `run` over it.
    case lv2AtomSequence
    /// A page's camera frame (`StudioCameraFrame.parse`, binary kind 0x20 face or 0x21 hands); an accepted frame re-read from its
    /// encoding is the same frame.
    case studioCameraFrame
    /// A line of the camera bridge's `--frames-stdin` output (`StudioCameraBridgeLine.parse`); weights come back
    /// clamped to 0…1, angles finite, hands with 63 finite coordinates in slots 0…3.
    case cameraBridgeLine
    /// The studio's TLS handler against a real OpenSSL client, scripted by the input (``TLSConnectionFuzz``): handshakes,
    /// renegotiation, close_notify, mutated records and resets in the middle of a write.
    case tlsConnection

    /// Runs the parser on `bytes`. Returns true when the input was accepted.
    @discardableResult
    public func run(_ bytes: [UInt8]) -> Bool {
        switch self {
        case .wav:
            return (try? WAVAudio(decoding: bytes)) != nil
        case .noteName:
            let text = String(decoding: bytes, as: UTF8.self)
            _ = MusicalKey(text)
            _ = NashvilleDegree(text)
            return (try? Pitch(parsing: text)) != nil
        case .soundPack:
            return (try? SoundPack(json: Data(bytes))) != nil
        case .midiStream:
            return FuzzTarget.runMIDIStream(bytes)
        case .standardMIDIFile:
            return FuzzTarget.runStandardMIDIFile(bytes)
        case .routerSettings:
            return (try? MIDIRouterSettings.decoded(fromJSON: Data(bytes))) != nil
        case .oscPacket:
            guard let packet = try? OSCDecoder.decode(bytes) else { return false }
            // Decoded packets must re-encode to the same bytes, and adapters must survive any content.
            if (try? OSCEncoder.encode(packet)) != bytes { fatalError("OSC round trip changed the bytes") }
            var assembler = OSCFrameAssembler()
            _ = assembler.ingest(packet, at: 0)
            _ = assembler.ingest(packet, at: 0.001)
            _ = assembler.flush(now: 0.01)
            _ = assembler.ingest(packet, at: 0.02)
            _ = assembler.flush(now: .infinity)
            return true
        case .wavStream:
            return FuzzTarget.runWAVStream(bytes)
        case .iFacialMocap:
            var decoder = IFacialMocapDecoder()
            return (try? decoder.decode(bytes, at: 0)) != nil
        case .liveLinkFace:
            return (try? LiveLinkFaceDecoder().decode(bytes, at: 0)) != nil
        case .senderDatagram:
            var senders = SenderDatagramDecoder()
            senders.faceOSC = FaceOSCAdapter(calibration: FaceOSCCalibration(framesToAverage: 1))
            var assembler = OSCFrameAssembler()
            // Twice, so stateful decoders (FaceOSC calibration, face accumulation) see a second frame.
            var accepted = false
            for time in [0.0, 0.01] {
                guard let decoded = try? senders.decode(bytes, at: time) else { return false }
                if let rest = decoded.remainingOSC { _ = assembler.ingest(rest, at: time) }
                accepted = true
            }
            return accepted
        case .websocketFrames:
            return WebSocketFrameFuzz.run(bytes)
        case .tlsConnection:
            return TLSConnectionFuzz.run(bytes)
        case .studioMessage:
            if let value = try? StudioValue(json: bytes) {
                // What the parser accepts, the writer writes as text that parses back to the same value.
                guard let again = try? StudioValue(json: value.jsonText), again == value else {
                    fatalError("studio JSON does not round-trip: \(value.jsonText)")
                }
            }
            return (try? StudioClientMessage.parse(bytes)) != nil
        case .settings:
            _ = try? ProsperoSettings.mappings(json: bytes)
            guard let settings = try? ProsperoSettings(json: bytes) else { return false }
            guard let again = try? ProsperoSettings(json: settings.jsonText), again == settings else {
                fatalError("settings do not round-trip: \(settings.jsonText)")
            }
            return true
        case .studioCameraFrame:
            guard let frame = try? StudioCameraFrame.parse(bytes) else { return false }
            precondition((try? StudioCameraFrame.parse(frame.encoded())) == frame, "a camera frame does not survive its encoding")
            return true
        case .cameraBridgeLine:
            guard let line = try? StudioCameraBridgeLine.parse(bytes) else { return false }
            if case .frame(let result) = line, let face = result.face {
                precondition(face.blend.values.allSatisfy { (0...1).contains($0) } && [face.yaw, face.pitch, face.roll].allSatisfy(\.isFinite))
            }
            if case .frame(let result) = line {
                precondition(result.hands.allSatisfy { $0.landmarks.count == 63 && $0.landmarks.allSatisfy(\.isFinite) && (0...3).contains($0.slot) })
                precondition(result.endedHands.allSatisfy { (0...3).contains($0) })
            }
            return true
        case .studioPCMFrame:
            guard let frame = try? StudioPCMFrame.decode(bytes) else { return false }
            var again = [UInt8](repeating: 0, count: bytes.count)
            let written = frame.left.withUnsafeBufferPointer { l in
                frame.right.withUnsafeBufferPointer { r in
                    again.withUnsafeMutableBytes {
                        StudioPCMFrame.encode(sequence: frame.sequence, sampleRate: frame.sampleRate, left: l.baseAddress!,
                                              right: r.baseAddress!, frameCount: frame.frameCount, into: $0)
                    }
                }
            }
            var expected = bytes
            var i = StudioPCMFrame.headerBytes
            while i + 1 < expected.count {
                if expected[i] == 0x00 && expected[i + 1] == 0x80 { expected[i] = 0x01 }
                i += 2
            }
            guard written == bytes.count, again == expected else { fatalError("a PCM frame does not re-encode to its bytes") }
            return true
        case .senderAllowList:
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let list = try? SenderAllowList(parsing: lines) else { return false }
            // Every network accepts its own address; the list's text parses back to the same networks.
            for network in list.networks where !list.accepts(network.description.split(separator: "/")[0].description) {
                fatalError("\(list) refuses its own network \(network)")
            }
            for line in lines { _ = list.accepts(line) }
            return true
        case .recording:
            guard let recording = try? RecordingReader.parse(bytes) else { return false }
            // What the reader accepts, the writer must write back to something it reads the same
            // (read → write → read gives the same frames), and writing that again gives the same bytes.
            let written = recording.encoded()
            guard let again = try? RecordingReader.parse(written) else { fatalError("the reader refuses what the writer wrote") }
            if again != recording { fatalError("recording round trip changed the frames") }
            if again.encoded() != written { fatalError("writing a recording read back changed the bytes") }
            return true
        case .hisynthPreset:
            return FuzzTarget.runHiSynthPreset(bytes)
        case .ahap:
            return FuzzTarget.runAHAP(bytes)
        case .gameScript:
            return FuzzTarget.runGameScript(bytes)
        case .hisynthSong:
            return FuzzTarget.runHiSynthSong(bytes)
        case .lv2AtomSequence:
            return FuzzTarget.runLV2AtomSequence(bytes)
        }
    }
}

/// One UDP port for every face sender: detects each datagram's format (`SenderDatagramFormat`) and
/// decodes iFacialMocap text, Live Link Face binary and the OSC senders that `OSCFrameAssembler` does
/// not know (FaceOSC, mpmocap/Phiz, Visage, Wekinator `/wek/outputs`). OSC messages none of these
/// claim come back as `remainingOSC`, for the assembler, so Face Cap, ZIG SIM, the native scheme and
/// the touch senders keep working on the same port.
///
///     var senders = SenderDatagramDecoder()
///     let decoded = try senders.decode(bytes, at: now)
///     frames += decoded.frames
///     if let osc = decoded.remainingOSC { frames += assembler.ingest(osc, at: now) }
///
/// Bad datagrams throw `SenderDatagramError` and are counted in `rejectedDatagrams`; bad messages
/// inside a good OSC packet are counted in `rejectedMessages` with `lastRejection`, like the assembler.
public struct SenderDatagramDecoder: Sendable {
    public var iFacialMocap = IFacialMocapDecoder()
    public var liveLinkFace = LiveLinkFaceDecoder()
    public var faceOSC = FaceOSCAdapter()
    public var mpmocap = MPMocapAdapter()
    public var visage = VisageAdapter()
    public var wekinator = WekinatorOutputAdapter()

    /// The face state of the OSC senders decoded here (FaceOSC, mpmocap and Visage accumulate into it).
    public private(set) var state = FrameAssembly()
    public private(set) var acceptedByFormat: [SenderDatagramFormat: Int] = [:]
    /// What each sender decoded here: datagrams for iFacialMocap and Live Link Face, accepted OSC
    /// messages for FaceOSC, mpmocap, Visage and Wekinator (the assembler counts the other OSC senders).
    public private(set) var acceptedBySender: [InputSender: Int] = [:]
    public private(set) var rejectedDatagrams = 0
    public private(set) var rejectedMessages = 0
    public private(set) var lastRejection: String?

    public init() {}

    public mutating func decode(_ bytes: [UInt8], at time: Double) throws(SenderDatagramError) -> SenderDecoding {
        do {
            return try decodeUncounted(bytes, at: time)
        } catch {
            rejectedDatagrams += 1
            lastRejection = error.description
            throw error
        }
    }

    private mutating func decodeUncounted(_ bytes: [UInt8], at time: Double) throws(SenderDatagramError) -> SenderDecoding {
        guard let format = SenderDatagramFormat.detect(bytes) else {
            throw .unrecognised(length: bytes.count, firstByte: bytes.first)
        }
        switch format {
        case .iFacialMocap:
            let frame: TrackingFrame
            do { frame = try iFacialMocap.decode(bytes, at: time) } catch { throw .iFacialMocap(error) }
            acceptedByFormat[format, default: 0] += 1
            acceptedBySender[.iFacialMocap, default: 0] += 1
            return SenderDecoding(format: format, frames: [frame], remainingOSC: nil, wekinatorOutputsChanged: false,
                                  sender: .iFacialMocap)
        case .liveLinkFace:
            let packet: LiveLinkFacePacket
            do { packet = try liveLinkFace.decode(bytes, at: time) } catch { throw .liveLinkFace(error) }
            acceptedByFormat[format, default: 0] += 1
            acceptedBySender[.liveLinkFace, default: 0] += 1
            return SenderDecoding(format: format, frames: [.face(packet.face)], remainingOSC: nil, wekinatorOutputsChanged: false,
                                  sender: .liveLinkFace)
        case .osc:
            let packet: OSCPacket
            do { packet = try OSCDecoder.decode(bytes) } catch { throw .osc(error) }
            acceptedByFormat[format, default: 0] += 1
            return ingest(packet, at: time)
        }
    }

    /// Handles an already decoded OSC packet (see the type's comment).
    public mutating func ingest(_ packet: OSCPacket, at time: Double) -> SenderDecoding {
        state.time = time
        var remaining: [OSCMessage] = []
        let sequenceBefore = wekinator.sequence
        var claimedBy: InputSender?
        packet.forEachMessage { message in
            var sender = InputSender.faceOSC
            var result = faceOSC.handle(message, into: &state)
            if result == nil { sender = .mpmocap; result = mpmocap.handle(message, into: &state) }
            if result == nil { sender = .visage; result = visage.handle(message, into: &state) }
            if result == nil { sender = .wekinator; result = wekinator.handle(message, into: &state) }
            switch result {
            case nil: remaining.append(message)
            case .accepted:
                acceptedBySender[sender, default: 0] += 1
                claimedBy = sender
            case .rejected(let reason):
                rejectedMessages += 1
                lastRejection = "\(message.address): \(reason)"
            }
        }
        faceOSC.packetEnded(into: &state)
        let rest: OSCPacket?
        if remaining.isEmpty {
            rest = nil
        } else if remaining.count == packet.messages.count {
            rest = packet
        } else {
            rest = .bundle(OSCBundle(remaining.map { .message($0) }))
        }
        return SenderDecoding(format: .osc, frames: state.flush(), remainingOSC: rest,
                              wekinatorOutputsChanged: wekinator.sequence != sequenceBefore, sender: claimedBy)
    }
}

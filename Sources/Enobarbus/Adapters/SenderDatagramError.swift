/// Why `SenderDatagramDecoder` could not decode a datagram: the format was not recognised, or the
/// recognised format's decoder rejected it (its typed error says where).
public enum SenderDatagramError: Error, Equatable, Sendable, CustomStringConvertible {
    case unrecognised(length: Int, firstByte: UInt8?)
    case osc(OSCDecodingError)
    case iFacialMocap(IFacialMocapDecodingError)
    case liveLinkFace(LiveLinkFaceDecodingError)

    public var description: String {
        switch self {
        case .unrecognised(let n, let b):
            return "datagram of \(n) bytes" + (b.map { " starting 0x\(String($0, radix: 16))" } ?? "")
                + " is not OSC, iFacialMocap or Live Link Face"
        case .osc(let e): return e.description
        case .iFacialMocap(let e): return e.description
        case .liveLinkFace(let e): return e.description
        }
    }
}

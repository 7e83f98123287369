import CZlib

/// Raw DEFLATE (RFC 1951) through the system zlib, with the settings that reproduce the original's
/// `NSData.compressed(using: .zlib)` byte for byte: level 5, windowBits −15, memLevel 8.
enum HiSynthRawDeflate {
    /// The most bytes a section may inflate to. The largest payload is 41 bytes (LFO); trailing
    /// bytes are allowed, so the cap is generous, but it bounds what a hostile stream can cost.
    static let inflatedLimit = 4096

    static func compress(_ bytes: [UInt8], section: HiSynthPresetSection) throws(HiSynthPresetError) -> [UInt8] {
        // Raw deflate never grows input by more than 5 bytes per 16 KiB block plus a few; 64 is ample slack.
        var output = [UInt8](repeating: 0, count: bytes.count + bytes.count / 8 + 64)
        var written = 0
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                czlib_deflate_raw(input.baseAddress, input.count, out.baseAddress, out.count, &written)
            }
        }
        guard status == Int32(CZLIB_OK) else { throw .compressionFailed(section) }
        output.removeSubrange(written...)
        return output
    }

    static func inflate(_ bytes: [UInt8], section: HiSynthPresetSection) throws(HiSynthPresetError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: inflatedLimit)
        var written = 0
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                czlib_inflate_raw(input.baseAddress, input.count, out.baseAddress, out.count, &written)
            }
        }
        switch status {
        case Int32(CZLIB_OK):
            output.removeSubrange(written...)
            return output
        case Int32(CZLIB_TRUNCATED): throw .truncatedDeflate(section)
        case Int32(CZLIB_TOO_LARGE): throw .inflatedTooLarge(section, limit: inflatedLimit)
        default: throw .corruptDeflate(section)
        }
    }
}

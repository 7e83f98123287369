import CZlib

/// Writes 8-bit RGBA images as PNG (ISO/IEC 15948): signature, IHDR, one IDAT compressed by the
/// system zlib, IEND. Each scanline uses the Sub filter (plots are mostly flat runs, which it turns
/// into zeros).
public enum PNGEncoder {
    /// Why an image could not be encoded.
    public enum EncodingError: Error, Equatable, Sendable, CustomStringConvertible {
        case invalidSize(width: Int, height: Int)
        case wrongPixelCount(expected: Int, got: Int)
        case compressionFailed

        public var description: String {
            switch self {
            case .invalidSize(let w, let h): return "PNG: size \(w)×\(h) (1…16384 each expected)"
            case .wrongPixelCount(let e, let g): return "PNG: \(g) RGBA bytes for an image needing \(e)"
            case .compressionFailed: return "PNG: zlib could not compress the image"
            }
        }
    }

    /// Encodes `rgba` (width × height × 4 bytes, rows top to bottom) as PNG bytes.
    public static func encode(width: Int, height: Int, rgba: [UInt8]) throws(EncodingError) -> [UInt8] {
        guard (1...16_384).contains(width), (1...16_384).contains(height) else { throw .invalidSize(width: width, height: height) }
        guard rgba.count == width * height * 4 else { throw .wrongPixelCount(expected: width * height * 4, got: rgba.count) }
        let stride = width * 4
        var filtered = [UInt8](repeating: 0, count: (stride + 1) * height)
        for y in 0..<height {
            let row = y * (stride + 1)
            filtered[row] = 1  // Sub
            for x in 0..<stride {
                let left = x >= 4 ? rgba[y * stride + x - 4] : 0
                filtered[row + 1 + x] = rgba[y * stride + x] &- left
            }
        }
        var compressed = [UInt8](repeating: 0, count: czlib_bound(filtered.count))
        var written = 0
        let status = filtered.withUnsafeBufferPointer { input in
            compressed.withUnsafeMutableBufferPointer { output in
                czlib_compress(input.baseAddress, input.count, output.baseAddress, output.count, &written, 6)
            }
        }
        guard status == 0 else { throw .compressionFailed }
        compressed.removeSubrange(written...)

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, 6, 0, 0, 0]  // 8 bits, RGBA, deflate, adaptive filtering, no interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", compressed, to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        png.appendBigEndian(UInt32(data.count))
        let typed = Array(type.utf8) + data
        png += typed
        png.appendBigEndian(CRC32.checksum(typed))
    }
}

extension [UInt8] {
    mutating func appendBigEndian(_ value: UInt32) {
        append(UInt8(value >> 24)); append(UInt8((value >> 16) & 0xFF)); append(UInt8((value >> 8) & 0xFF)); append(UInt8(value & 0xFF))
    }
}

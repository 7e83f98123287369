import Foundation
import Studio
import Testing

/// The 0x10 PCM frame: bytes as the protocol document spells them, round trips, limits, malformed input.
@Suite("Studio PCM frame")
struct StudioPCMFrameTests {
    /// Encodes `left`/`right` into a fresh buffer; the bytes (empty when the encoder refused).
    func encode(_ left: [Float], _ right: [Float], sequence: UInt32 = 0, rate: UInt32 = 48_000, capacity: Int? = nil) -> [UInt8] {
        let size = capacity ?? (13 + 4 * left.count)
        var out = [UInt8](repeating: 0xAA, count: size)
        let n = left.withUnsafeBufferPointer { l in
            right.withUnsafeBufferPointer { r in
                out.withUnsafeMutableBytes { StudioPCMFrame.encode(sequence: sequence, sampleRate: rate, left: l.baseAddress!,
                                                                   right: r.baseAddress!, frameCount: left.count, into: $0) }
            }
        }
        return Array(out.prefix(n))
    }

    @Test func oneFrameIsTheBytesTheDocumentNames() {
        // 0x10, sequence 0x01020304, 48 000 Hz = 0x0000BB80, 2 channels, 1 frame, +1 → 0x7FFF, −1 → −32767 = 0x8001.
        let bytes = encode([1], [-1], sequence: 0x0102_0304)
        #expect(bytes == [0x10, 0x04, 0x03, 0x02, 0x01, 0x80, 0xBB, 0x00, 0x00, 0x02, 0x00, 0x01, 0x00, 0xFF, 0x7F, 0x01, 0x80])
        #expect(StudioPCMFrame.byteCount(frames: 256) == 13 + 256 * 4)
    }

    @Test func aSineRoundTripsWithinHalfAQuantisationStep() throws {
        let n = 256
        let left = (0..<n).map { Float(0.9 * sin(2 * Double.pi * 1000 * Double($0) / 48_000)) }
        let right = left.map { -$0 * 0.5 }
        let decoded = try StudioPCMFrame.decode(encode(left, right, sequence: .max, rate: 44_100))
        #expect(decoded.sequence == .max)
        #expect(decoded.sampleRate == 44_100)
        #expect(decoded.frameCount == n)
        let step: Float = 1 / 32767
        for i in 0..<n {
            #expect(abs(decoded.left[i] - left[i]) <= step / 2 + 1e-7)
            #expect(abs(decoded.right[i] - right[i]) <= step / 2 + 1e-7)
        }
    }

    @Test func fullScaleRoundTripsExactlyAndOverloadsClip() throws {
        let decoded = try StudioPCMFrame.decode(encode([1, -1, 1.5, -7, .nan, .infinity], [0, 0.5, 0, 0, 0, -.infinity]))
        #expect(decoded.left == [1, -1, 1, -1, 0, 1])
        #expect(decoded.right[0] == 0)
        #expect(decoded.right[1] == Float(16384) / 32767)  // 0.5 · 32767 = 16383.5 → rounds away from zero
        #expect(decoded.right[5] == -1)
    }

    @Test func theEncoderRefusesFrameCountsOutsideItsLimitsAndSmallBuffers() {
        #expect(encode([], []).isEmpty)
        let tooMany = [Float](repeating: 0, count: 4097)
        #expect(encode(tooMany, tooMany).isEmpty)
        let most = [Float](repeating: 0.25, count: 4096)
        #expect(encode(most, most).count == 13 + 4096 * 4)
        #expect(encode([0, 0], [0, 0], capacity: 13 + 7).isEmpty)
    }

    @Test func malformedFramesNameWhatIsWrong() {
        let good = encode([0.1, 0.2], [0.3, 0.4])
        func error(_ bytes: [UInt8]) -> StudioPCMFrame.DecodeError? {
            do { _ = try StudioPCMFrame.decode(bytes); return nil } catch { return error }
        }
        #expect(error([]) == .truncatedHeader(0))
        #expect(error(Array(good.prefix(12))) == .truncatedHeader(12))
        var wrongKind = good; wrongKind[0] = 0x01
        #expect(error(wrongKind) == .notPCM(0x01))
        var mono = good; mono[9] = 1
        #expect(error(mono) == .channels(1))
        var noFrames = good; noFrames[11] = 0
        #expect(error(noFrames) == .frames(0))
        var huge = good; huge[11] = 0xFF; huge[12] = 0xFF
        #expect(error(huge) == .frames(65535))
        var slow = good; slow[5] = 0; slow[6] = 0
        #expect(error(slow) == .sampleRate(0))
        #expect(error(good + [0]) == .length(expected: 21, found: 22))
        #expect(error(Array(good.dropLast())) == .length(expected: 21, found: 20))
        #expect(error(good) == nil)
    }

    @Test func randomBytesNeverTrap() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        var accepted = 0
        for trial in 0..<2_000 {
            var bytes = encode([0.5, -0.5, 0.25], [0, 1, -1])
            let changes = 1 + trial % 4
            for _ in 0..<changes {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let r = Int(truncatingIfNeeded: seed >> 33)
                switch r % 3 {
                case 0: bytes[r % bytes.count] = UInt8(truncatingIfNeeded: r >> 8)
                case 1: bytes.removeLast(min(bytes.count, r % 4))
                default: bytes.append(UInt8(truncatingIfNeeded: r))
                }
                if bytes.isEmpty { break }
            }
            if let d = try? StudioPCMFrame.decode(bytes) {
                accepted += 1
                #expect(d.left.count == d.right.count)
                #expect(bytes.count == 13 + 4 * d.frameCount)
            }
        }
        #expect(accepted > 0)
    }
}

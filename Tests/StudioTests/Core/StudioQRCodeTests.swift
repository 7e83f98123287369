import Foundation
import ProsperoTestSupport
import Studio
import Testing

/// The QR encoder against python-qrcode (PyPI), module for module, for every mask and versions 2…10.
/// (segno is not used as the reference: it adds a zero pad byte when the terminator already ends on a
/// codeword boundary, which ISO/IEC 18004 7.4.10 does not; both read back the same text.)
@Suite("Studio QR code", .ownThread)
struct StudioQRCodeTests {
    static let texts = [
        "http://127.0.0.1:8080/",
        "http://192.168.1.20:8080/?token=0123456789abcdef0123456789abcdef",
        "https://studio.local:8443/?token=" + String(repeating: "x", count: 60),
        String(repeating: "prospero-", count: 23),  // 207 bytes: version 10
        "é♪ non-ASCII bytes",
    ]

    /// python-qrcode's matrices for `text` at level M, byte mode, the given version, masks 0…7: rows of 0/1 per mask.
    func reference(_ text: String, version: Int) throws -> [[String]] {
        let script = """
            import sys, qrcode
            from qrcode.constants import ERROR_CORRECT_M
            for mask in range(8):
                qr = qrcode.QRCode(version=int(sys.argv[2]), error_correction=ERROR_CORRECT_M, mask_pattern=mask, border=0)
                qr.add_data(sys.argv[1].encode('utf-8'), optimize=0)
                qr.make(fit=False)
                assert [s.mode for s in qr.data_list] == [4], 'not byte mode'
                for row in qr.get_matrix():
                    print(''.join('1' if m else '0' for m in row))
                print('mask')
            """
        let out = try TestPeers.runBlocking("python3", ["-c", script, text, String(version)], timeout: 60)
        #expect(out.status == 0, "\(out.output)")
        let lines = out.output.split(separator: "\n").map(String.init)
        var masks: [[String]] = [[]]
        for line in lines {
            if line == "mask" { masks.append([]) } else if !line.isEmpty, line.allSatisfy({ $0 == "0" || $0 == "1" }) { masks[masks.count - 1].append(line) }
        }
        return Array(masks.dropLast())
    }

    func rows(_ qr: StudioQRCode) -> [String] {
        (0..<qr.size).map { y in String((0..<qr.size).map { qr.isDark(x: $0, y: y) ? "1" : "0" }) }
    }

    @Test("matches python-qrcode module for module", .enabled(if: TestPeers.enabled(TestPeers.python(module: "qrcode"))))
    func matchesReference() throws {
        try TestPeers.require(TestPeers.python(module: "qrcode"), "qrcode (pip install qrcode)")
        var versions = Set<Int>()
        for text in Self.texts {
            let chosen = try StudioQRCode(text: text)
            versions.insert(chosen.version)
            let expected = try reference(text, version: chosen.version)
            #expect(expected.count == 8)
            for mask in 0..<min(8, expected.count) {
                let qr = try StudioQRCode(text: text, mask: mask)
                let mine = rows(qr), reference = expected[mask]
                let differing = zip(mine, reference).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
                #expect(mine == reference, "\(text) v\(qr.version) mask \(mask): rows \(differing)\nmine:\n\(mine.joined(separator: "\n"))\nqrcode:\n\(reference.joined(separator: "\n"))")
            }
        }
        #expect(versions.contains(2) && versions.contains(10))
    }

    @Test("versions by length; too long is a typed error")
    func versions() throws {
        // Level M byte capacity (ISO/IEC 18004 table 7): v1 14, v2 26, v3 42, v4 62, v10 213 bytes.
        #expect(try StudioQRCode(text: String(repeating: "a", count: 14)).version == 1)
        #expect(try StudioQRCode(text: String(repeating: "a", count: 15)).version == 2)
        #expect(try StudioQRCode(text: String(repeating: "a", count: 42)).version == 3)
        #expect(try StudioQRCode(text: String(repeating: "a", count: 62)).version == 4)
        #expect(try StudioQRCode(text: String(repeating: "a", count: 213)).version == 10)
        #expect(throws: StudioQRCode.Failure.tooLong(bytes: 214)) { try StudioQRCode(text: String(repeating: "a", count: 214)) }
        #expect(throws: StudioQRCode.Failure.badMask(8)) { try StudioQRCode(text: "a", mask: 8) }
    }

    @Test("terminal text: two module rows per line with a 2-module quiet zone")
    func terminal() throws {
        let qr = try StudioQRCode(text: "http://127.0.0.1:8080/")
        let lines = qr.terminalText.split(separator: "\n")
        #expect(lines.count == (qr.size + 4 + 1) / 2)
    }
}

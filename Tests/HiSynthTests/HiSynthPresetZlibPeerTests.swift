import Foundation
import HiSynth
import ProsperoTestSupport
import Testing

/// Python's zlib and base64 as the independent peer of the codec: Python inflates our strings,
/// reads the payloads from the spec's byte layout (its own decoder, written from spec §2) and
/// re-deflates them with level 5, windowBits −15, memLevel 8; and it builds a deflate bomb.
@Suite(.ownThread) struct HiSynthPresetZlibPeerTests {
    static let python = TestPeers.executable("python3")

    static let decoder = #"""
        import base64, json, struct, sys, zlib
        WAVES = ["sine", "square", "saw", "triangle", "pulse", "rsaw"]
        TYPES = ["plate", "room", "hall"]
        def deflate(b):
            c = zlib.compressobj(5, zlib.DEFLATED, -15, 8)
            return c.compress(b) + c.flush()
        class R:
            def __init__(s, b): s.b, s.i = b, 0
            def u8(s):
                s.i += 1; return s.b[s.i - 1]
            def f(s):
                s.i += 2; return struct.unpack("<e", s.b[s.i - 2:s.i])[0]
            def arr(s, read):
                n = struct.unpack("b", bytes([s.u8()]))[0]; assert n == 3; return [read() for _ in range(n)]
        for line in sys.stdin:
            fields = line.strip().split(":")
            raw = [zlib.decompress(base64.b64decode(x, validate=True), -15) for x in fields[1:6]]
            again = ":".join([fields[0]] + [base64.b64encode(deflate(p)).decode() for p in raw])
            o, e, fl, l, a = (R(p) for p in raw)
            w1, w2, lv1, lv2, p1, p2 = WAVES[o.u8()], WAVES[o.u8()], o.f(), o.f(), o.f(), o.f()
            env = dict(attack=e.f(), decay=e.f(), sustain=e.f(), release=e.f())
            flt = dict(lowPass=dict(cutoff=fl.f(), resonance=fl.f()), highPass=dict(cutoff=fl.f(), resonance=fl.f()))
            wf = l.arr(lambda: WAVES[l.u8()]); dp = l.arr(l.f); sp = l.arr(l.f); ph = l.arr(l.f)
            mp, ma, ml, mh = (l.arr(lambda: l.u8() != 0) for _ in range(4))
            rs, rt, rm, ro = a.f(), TYPES[a.u8()], a.f(), a.u8() != 0
            df, dt, dm, do = a.f(), a.f(), a.f(), a.u8() != 0
            cr, cm, co = a.f(), a.f(), a.u8() != 0
            gg, gm, go = a.f(), a.f(), a.u8() != 0
            decoded = dict(
                name=base64.b64decode(fields[0]).decode("utf-8"),
                oscillators=[dict(waveform=w1, level=lv1, pitch=p1), dict(waveform=w2, level=lv2, pitch=p2)],
                envelope=env, filters=flt,
                lfos=[dict(waveform=wf[i], depth=dp[i], speed=sp[i], phase=ph[i], pitch=mp[i], amplitude=ma[i],
                           filterLow=ml[i], filterHigh=mh[i]) for i in range(3)],
                effects=dict(reverb=dict(on=ro, size=rs, type=rt, mix=rm), delay=dict(on=do, feedback=df, time=dt, mix=dm),
                             decimator=dict(on=co, rate=cr, mix=cm), drive=dict(on=go, gain=gg, mix=gm)))
            # Floats as repr strings: Foundation's JSON number parsing is not correctly rounded for tiny values.
            def exact(v):
                if isinstance(v, dict): return {k: exact(x) for k, x in v.items()}
                if isinstance(v, list): return [exact(x) for x in v]
                return repr(v) if isinstance(v, float) else v
            print(json.dumps(dict(string=again, sizes=[len(p) for p in raw], decoded=exact(decoded))))
        """#

    static func runPython(_ script: String, input: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(python))
        process.arguments = ["-c", script]
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let error = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3: \(String(decoding: error, as: UTF8.self))")
        return String(decoding: output, as: UTF8.self)
    }

    @Test func pythonZlibReadsAndRedeflatesRandomPresetsToTheSameString() throws {
        try TestPeers.require(Self.python != nil, "python3 (scripts/deps/hisynth.apt)")
        var random = SeededRandom(seed: 0x7A6C_6962)
        let presets = (0..<150).map { _ in HiSynthPresetPropertyTests.randomPreset(&random) }
        let strings = try presets.map { try $0.encoded() }
        let lines = try Self.runPython(Self.decoder, input: strings.joined(separator: "\n") + "\n")
            .split(separator: "\n")
        #expect(lines.count == presets.count)
        for ((preset, string), line) in zip(zip(presets, strings), lines) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["string"] as? String == string, "zlib level 5 deflates \(preset.name) differently")
            #expect(object["sizes"] as? [Int] == [10, 8, 8, 41, 23])
            HiSynthVectors.expectMatches(preset, try #require(object["decoded"] as? [String: Any]))
        }
    }

    @Test func aDeflateBombIsRefusedAtTheCap() throws {
        try TestPeers.require(Self.python != nil, "python3 (scripts/deps/hisynth.apt)")
        // 64 MiB of zeros deflate to about 64 KiB; the codec stops at 4096 inflated bytes.
        let bomb = try Self.runPython(#"""
            import base64, sys, zlib
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            print(base64.b64encode(c.compress(bytes(64 << 20)) + c.flush()).decode())
            """#, input: "").trimmingCharacters(in: .whitespacesAndNewlines)
        var fields = HiSynthPreset.factoryStrings[0].split(separator: ":").map(String.init)
        fields[4] = bomb
        #expect(throws: HiSynthPresetError.inflatedTooLarge(.lfos, limit: 4096)) {
            try HiSynthPreset(string: fields.joined(separator: ":"))
        }
    }
}

import Foundation
import HiSynth

extension FuzzTarget {
    /// Preset strings from arbitrary bytes. What the decoder accepts must encode, and the canonical
    /// string and the JSON must both read back to the same preset, bit for bit (compared as JSON
    /// text so −0.0 against 0.0 counts). Also feeds the bytes to the JSON reader.
    static func runHiSynthPreset(_ bytes: [UInt8]) -> Bool {
        _ = try? HiSynthPreset(json: Data(bytes))
        guard let preset = try? HiSynthPreset(string: String(decoding: bytes, as: UTF8.self)) else { return false }
        guard let canonical = try? preset.encoded() else { fatalError("a decoded preset did not encode") }
        guard let again = try? HiSynthPreset(string: canonical), again.json() == preset.json() else {
            fatalError("the canonical string did not read back to the same preset")
        }
        guard let fromJSON = try? HiSynthPreset(jsonText: preset.json()), (try? fromJSON.encoded()) == canonical else {
            fatalError("the preset JSON did not read back to the same string")
        }
        return true
    }
}

import Foundation
import HiSynth
import Testing

@Suite struct HiSynthPresetStringTests {
    @Test func everyFactoryStringDecodesToItsVectorValuesAndReencodesByteExact() throws {
        let vectors = try HiSynthVectors.factory()
        #expect(vectors.count == 15)
        for (index, vector) in vectors.enumerated() {
            let preset = try HiSynthPreset(string: vector.string)
            HiSynthVectors.expectMatches(preset, vector.decoded)
            #expect(try preset.encoded() == vector.string, "\(preset.name) re-encodes differently")
            // The literal factory table holds the same values, bit for bit.
            #expect(preset.json() == HiSynthPreset.factory[index].json())
        }
    }

    @Test func handBuiltStoredBlocksDecodeAndReencodeToTheCanonicalString() throws {
        let string = HiSynthPresetBytes.string(HiSynthPresetBytes.hiSynthKey)
        let preset = try HiSynthPreset(string: string)
        #expect(preset == HiSynthPreset.factory[0])
        #expect(try preset.encoded() == HiSynthPreset.factoryStrings[0])
    }

    @Test func acceptsWhatTheOriginalAcceptsAndReencodesCanonically() throws {
        let canonical = HiSynthPreset.factoryStrings[0]
        let quirky = [
            "  \(canonical) \n",  // whitespace around a pasted string
            canonical + ":extra:fields",  // fields after the sixth are ignored
            HiSynthPresetBytes.hiSynthKey(changing: 1) { $0 += [0xFF, 0x00, 0x7E] },  // trailing bytes
            HiSynthPresetBytes.hiSynthKey(changing: 5) { $0 += [1, 2, 3, 4] },
            HiSynthPresetBytes.hiSynthKey(changing: 4) { $0[34] = 2 },  // modFilterLow[0] = 2 is true
        ]
        for string in quirky {
            let preset = try HiSynthPreset(string: string)
            #expect(preset == HiSynthPreset.factory[0])
            #expect(try preset.encoded() == canonical)
        }
        let trueByte = try HiSynthPreset(string: HiSynthPresetBytes.hiSynthKey(changing: 4) { $0[32] = 0xFF })
        #expect(trueByte.lfos[2].amplitude)
    }

    @Test func aNameThatDoesNotDecodeBecomesUntitled() throws {
        let rest = HiSynthPreset.factoryStrings[0].drop { $0 != ":" }
        for name in ["!!!!", "SGk", "/w==", "=AAA"] {  // bad alphabet, unpadded, invalid UTF-8, misplaced padding
            #expect(try HiSynthPreset(string: name + rest).name == "Untitled")
        }
        #expect(try HiSynthPreset(string: String(rest)).name == "")
    }

    @Test func namesWithSeparatorsAndNonASCIIRoundTrip() throws {
        var preset = HiSynthPreset.factory[3]
        for name in ["a:b=c", "Ünïcödé 🎹 ключ", "", String(repeating: "=", count: 30)] {
            preset.name = name
            let string = try preset.encoded()
            #expect(string.split(separator: ":", omittingEmptySubsequences: false).count == 6)
            #expect(try HiSynthPreset(string: string) == preset)
            #expect(string.hasPrefix(Data(name.utf8).base64EncodedString() + ":"))
        }
    }

    @Test func rejectsEveryMalformedClassWithItsError() throws {
        typealias Bytes = HiSynthPresetBytes
        let key = HiSynthPreset.factoryStrings[0]
        let fields = key.split(separator: ":").map(String.init)
        func replacing(_ index: Int, with text: String) -> String {
            var copy = fields
            copy[index] = text
            return copy.joined(separator: ":")
        }
        let cases: [(String, HiSynthPresetError)] = [
            ("", .empty),
            (" \n\t ", .empty),
            (fields.dropLast().joined(separator: ":"), .tooFewFields(found: 5)),
            ("SGk=", .tooFewFields(found: 1)),
            (replacing(1, with: "Y2Jg!BIxYmBgOAUA"), .badBase64(.oscillators)),
            (replacing(2, with: "Y2BgsGCwYbAAAA="), .badBase64(.envelope)),
            (replacing(5, with: "Y7Bh 4tJndAhisABiBl8Q4QkkAA=="), .badBase64(.effects)),
            (replacing(3, with: Bytes.base64([0x07, 0x00, 0x00])), .corruptDeflate(.filters)),  // BTYPE 11 is reserved
            (replacing(4, with: Bytes.base64([0x01, 0x05, 0x00, 0x00, 0x00])), .corruptDeflate(.lfos)),  // NLEN ≠ ~LEN
            (replacing(1, with: Bytes.base64(Array(Bytes.stored(Bytes.hiSynthKey[0]).prefix(8)))), .truncatedDeflate(.oscillators)),
            (replacing(2, with: ""), .truncatedDeflate(.envelope)),
            (replacing(5, with: Bytes.base64(Bytes.stored([UInt8](repeating: 0, count: 5000), blockSize: 1000))),
             .inflatedTooLarge(.effects, limit: 4096)),
            (Bytes.hiSynthKey(changing: 1) { $0.removeLast() }, .shortPayload(.oscillators, field: "pitch2", offset: 8, available: 9)),
            (Bytes.hiSynthKey(changing: 2) { $0 = [] }, .shortPayload(.envelope, field: "attack", offset: 0, available: 0)),
            (Bytes.hiSynthKey(changing: 4) { $0.removeLast(10) }, .shortPayload(.lfos, field: "modAmplitude[1]", offset: 31, available: 31)),
            (Bytes.hiSynthKey(changing: 5) { $0.removeLast() }, .shortPayload(.effects, field: "driveOn", offset: 22, available: 22)),
            (Bytes.hiSynthKey(changing: 2) { $0[0] = 0x00; $0[1] = 0x7E }, .nonFinite(.envelope, field: "attack")),  // NaN
            (Bytes.hiSynthKey(changing: 3) { $0[4] = 0x00; $0[5] = 0xFC }, .nonFinite(.filters, field: "hpCutoff")),  // −inf
            (Bytes.hiSynthKey(changing: 4) { $0[7] = 0x00; $0[8] = 0x7C }, .nonFinite(.lfos, field: "depths[1]")),  // +inf
            (Bytes.hiSynthKey(changing: 1) { $0[0] = 6 }, .enumOutOfRange(.oscillators, field: "waveform1", code: 6)),
            (Bytes.hiSynthKey(changing: 1) { $0[1] = 0xFF }, .enumOutOfRange(.oscillators, field: "waveform2", code: -1)),
            (Bytes.hiSynthKey(changing: 4) { $0[3] = 0x80 }, .enumOutOfRange(.lfos, field: "waveforms[2]", code: -128)),
            (Bytes.hiSynthKey(changing: 5) { $0[2] = 3 }, .enumOutOfRange(.effects, field: "reverbType", code: 3)),
            (Bytes.hiSynthKey(changing: 4) { $0[0] = 2 }, .wrongArrayCount(.lfos, field: "waveforms", count: 2, expected: 3)),
            (Bytes.hiSynthKey(changing: 4) { $0[4] = 0xFF }, .wrongArrayCount(.lfos, field: "depths", count: -1, expected: 3)),
            (Bytes.hiSynthKey(changing: 4) { $0[37] = 4 }, .wrongArrayCount(.lfos, field: "modFilterHigh", count: 4, expected: 3)),
        ]
        for (string, expected) in cases {
            #expect(throws: expected, "\(expected)") { try HiSynthPreset(string: string) }
        }
    }

    @Test func encodingRefusesWhatCouldNotBeReadBack() {
        var preset = HiSynthPreset.factory[0]
        preset.envelope.decay = .nan
        #expect(throws: HiSynthPresetError.nonFinite(.envelope, field: "decay")) { try preset.encoded() }
        preset = HiSynthPreset.factory[0]
        preset.lfos.removeLast()
        #expect(throws: HiSynthPresetError.wrongArrayCount(.lfos, field: "lfos", count: 2, expected: 3)) { try preset.encoded() }
        preset = HiSynthPreset.factory[0]
        preset.oscillators.append(preset.oscillators[0])
        #expect(throws: HiSynthPresetError.wrongArrayCount(.oscillators, field: "oscillators", count: 3, expected: 2)) { try preset.encoded() }
    }

    @Test func errorMessagesNameTheSectionAndTheProblem() {
        #expect(HiSynthPresetError.empty.description == "Empty preset.")
        #expect(HiSynthPresetError.badBase64(.lfos).description == "LFO: not valid base64.")
        #expect(HiSynthPresetError.enumOutOfRange(.effects, field: "reverbType", code: 3).description
            == "AFX: reverbType has no value for code 3.")
    }
}

import Foundation
import HiSynth
import InstrumentSettings

extension HiSynthStudioInstrument {
    /// Sets one control (`hisynth.<name>`); returns the changed state members. A refused value changes nothing.
    public func apply(set path: String, value: StudioValue) throws(StudioError) -> [String: StudioValue] {
        let name = try Self.control(path)
        if HiSynthRackControl.byName[name] != nil {
            let before = soundJSON()
            try live.set(control: name, to: value, path: path)
            return soundJSON().filter { before[$0.key] != $0.value }
        }
        switch name {
        case "preset.name":
            var p = preset
            p.name = try Self.presetName(value, at: path)
            return changeSound(to: p)
        case "octave":
            let n = try value.number(in: Double(Self.octaves.lowerBound)...Double(Self.octaves.upperBound), at: path)
            guard n == n.rounded() else { throw .badValue(path, expected: "a whole octave 1…7") }
            live.setOctave(Int(n))
            return ["octave": .number(n)]
        case "player.song":
            let index: Int
            if let n = value.number {
                // Int(exactly:): a whole number past Int's range (1e300) is out of range, not a trap.
                guard let i = Int(exactly: n), songs.indices.contains(i) else { throw .outOfRange(path, range: "0…\(songs.count - 1)") }
                index = i
            } else if let title = value.string {
                guard let i = songs.firstIndex(where: { $0.title == title }) else {
                    throw .outOfRange(path, range: songs.map(\.title).joined(separator: ", "))
                }
                index = i
            } else {
                throw .badValue(path, expected: "a song's index or title")
            }
            live.choose(song: index)
            announcedPlaying = true
            return ["song": .number(Double(index)), "playing": .bool(true)]
        case "player.loop":
            live.loop(try value.boolean(at: path))
            return ["looping": .bool(looping)]
        case "player.tempo":
            live.scaleTempo(try value.number(in: 0.25...4, at: path))
            return ["tempo": .number(tempo)]
        default:
            throw .unknownControl(path)
        }
    }

    /// Makes `p` the sound: the engine gets its settings; the changed members are returned.
    func changeSound(to p: HiSynthPreset) -> [String: StudioValue] {
        let before = soundJSON()
        live.changeSound(to: p)
        return soundJSON().filter { before[$0.key] != $0.value }
    }

    /// The control name of a `hisynth.<name>` path.
    static func control(_ path: String) throws(StudioError) -> String {
        let prefix = id + "."
        guard path.hasPrefix(prefix), path.count > prefix.count else { throw .unknownControl(path) }
        return String(path.dropFirst(prefix.count))
    }

    /// A preset name: a string of 1…24 characters after trimming, no control characters.
    static func presetName(_ value: StudioValue, at path: String) throws(StudioError) -> String {
        guard let raw = value.string else { throw .badValue(path, expected: "a preset name") }
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard nameLengths.contains(name.count) else { throw .outOfRange(path, range: "1…24 characters") }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .badValue(path, expected: "a name without control characters")
        }
        return name
    }
}

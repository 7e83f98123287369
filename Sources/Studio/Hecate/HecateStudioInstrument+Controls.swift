import Hecate
import Horatio
import InstrumentSettings

extension HecateStudioInstrument {
    /// Sets one control (`hecate.<name>`); returns the changed state members. Nothing changes when
    /// the value is refused.
    public func apply(set path: String, value: StudioValue) throws(StudioError) -> [String: StudioValue] {
        let name = try Self.control(path)
        typealias S = HecateStudioSettings
        var s = settings
        var commands: [DroneSynthEngine.Command] = []
        var extra: [String: StudioValue] = [:]
        switch name {
        case "key":
            let text = try value.choice(S.keyNames, at: path)
            s.key = MusicalKey(rawValue: S.keyNames.firstIndex(of: text)!)!
            commands = [.key(s.key)]
        case "chord":
            s.chord = try Self.degree(value, at: path)
            commands = [.chord(s.chord)]
        case "pack":
            let id = try value.choice(library.ids, at: path)
            let pack = library.pack(id: id)!
            s.packID = id
            // A pack brings its own levels: its character includes how loud its bass, drone and room are.
            s.bassLevel = pack.preset.bassLevel
            s.droneLevel = pack.preset.droneLevel
            s.reverb = pack.preset.reverbMix
            commands = [.preset(s.preset(of: pack))]
            extra["visual"] = HecatePackLibrary.visualJSON(for: pack)
        case "arpeggiator":
            s.arpeggiator = try value.boolean(at: path)
            commands = [.arpeggiator(s.arpeggiator)]
        case "arpDivision":
            s.arpDivision = try value.choice(S.divisions, at: path)
            commands = [.arpeggiatorDivision(S.division(s.arpDivision)!)]
        case "tremolo":
            s.tremolo = try value.choice(S.tremoloShapes, at: path)
            commands = [s.tremoloCommand]
        case "tremoloDivision":
            s.tremoloDivision = try value.choice(S.divisions, at: path)
            commands = [s.tremoloCommand]
        case "tremoloDepth":
            s.tremoloDepth = try value.number(in: S.unitRange, at: path)
            commands = [s.tremoloCommand]
        case "bpm":
            s.bpm = try value.number(in: S.bpmRange, at: path)
            commands = [.bpm(s.bpm)]
        case "playAlong":
            s.playAlong = try value.boolean(at: path)
            commands = [.output(playAlong: s.playAlong, route: s.route)]
        case "route":
            let text = try value.choice(OutputRoute.allCases.map(\.rawValue), at: path)
            s.route = OutputRoute(rawValue: text)!
            commands = [.output(playAlong: s.playAlong, route: s.route)]
        case "bassLevel", "droneLevel", "reverb":
            let level = try value.number(in: S.unitRange, at: path)
            switch name {
            case "bassLevel": s.bassLevel = level
            case "droneLevel": s.droneLevel = level
            default: s.reverb = level
            }
            // The pack's voice with the new level: the engine glides its levels over 50 ms (no dip,
            // as neither waveform, detune nor room size changes).
            commands = [.preset(s.preset(of: pack))]
        case "muted":
            return mute(try value.boolean(at: path))
        default:
            throw .unknownControl(path)
        }
        let before = settingsJSON()
        settings = s
        for c in commands { send(c) }
        var changes = settingsJSON().filter { before[$0.key] != $0.value }
        if name == "key" { changes["chords"] = chordsJSON() }
        changes.merge(extra) { _, new in new }
        return changes
    }

    /// A momentary action: `hecate.chord` (the chord bar; 1…7 or "I"…"vii°"), `hecate.mute` (null
    /// toggles, a bool sets).
    public func apply(action path: String, value: StudioValue) throws(StudioError) -> [String: StudioValue] {
        let name = try Self.control(path)
        switch name {
        case "chord":
            let degree = try Self.degree(value, at: path)
            settings.chord = degree
            send(.chord(degree))
            // Always answered, even for the same chord: every page's chord bar confirms the press.
            return ["chord": .number(Double(degree.rawValue))]
        case "mute":
            if value.isNull { return mute(!settings.muted) }
            return mute(try value.boolean(at: path))
        default:
            throw .unknownControl(path)
        }
    }

    /// Mutes or unmutes with the face fade's ramps; unmuting with a face in view fades it back in.
    func mute(_ on: Bool) -> [String: StudioValue] {
        guard on != settings.muted else { return [:] }
        settings.muted = on
        live.mute(on)
        return ["muted": .bool(on)]
    }

    /// The control name of a `hecate.<name>` path.
    static func control(_ path: String) throws(StudioError) -> String {
        let prefix = id + "."
        guard path.hasPrefix(prefix), path.count > prefix.count else { throw .unknownControl(path) }
        return String(path.dropFirst(prefix.count))
    }

    /// A chord-bar degree: a number 1…7 or a numeral "I"…"vii°".
    static func degree(_ value: StudioValue, at path: String) throws(StudioError) -> NashvilleDegree {
        if let n = value.number {
            guard (1...7).contains(n), n == n.rounded(), let d = NashvilleDegree(rawValue: Int(n)) else {
                throw .outOfRange(path, range: "1…7")
            }
            return d
        }
        if let text = value.string {
            guard text.count <= 8, let d = NashvilleDegree(text) else {
                throw .outOfRange(path, range: NashvilleDegree.allCases.map(\.romanNumeral).joined(separator: ", "))
            }
            return d
        }
        throw .badValue(path, expected: "a chord degree 1…7 or a numeral I…vii°")
    }
}

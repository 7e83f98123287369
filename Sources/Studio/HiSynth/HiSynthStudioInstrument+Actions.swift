import Foundation
import HiSynth
import InstrumentSettings

extension HiSynthStudioInstrument {
    public func apply(action path: String, value: StudioValue) throws(StudioError) -> [String: StudioValue] {
        try apply(action: path, value: value, client: "")
    }

    /// A momentary action (see the type's documentation); notes are held per `client`.
    public func apply(action path: String, value: StudioValue, client: String) throws(StudioError) -> [String: StudioValue] {
        let name = try Self.control(path)
        switch name {
        case "note.on":
            let note = try Self.note(value, at: path)
            var held = holders[note] ?? []
            // One voice per note: a note another page already holds is not struck again.
            let sounding = !held.isEmpty
            if !held.contains(client) {
                guard heldCount(of: client) < Self.maximumNotesPerClient else {
                    throw .outOfRange(path, range: "at most \(Self.maximumNotesPerClient) notes held per page")
                }
                held.insert(client)
            }
            holders[note] = held
            if !sounding { live.noteOn(note) }
            return [:]
        case "note.off":
            let note = try Self.note(value, at: path)
            release(note, of: client)
            return [:]
        case "note.release":
            releaseNotes(of: client)
            return [:]
        case "panic":
            holders.removeAll()
            live.allSoundOff()
            return [:]
        case "lfo1.off", "lfo2.off", "lfo3.off":
            let i = Int(String(name.dropFirst(3).prefix(1)))! - 1
            var p = preset
            p.lfos[i].pitch = false
            p.lfos[i].amplitude = false
            p.lfos[i].filterLow = false
            p.lfos[i].filterHigh = false
            return changeSound(to: p)
        case "preset.load":
            let wanted = try Self.presetName(value, at: path)
            guard let found = presetNamed(wanted) else { throw .outOfRange(path, range: "the factory and user presets") }
            return changeSound(to: found)
        case "preset.save":
            let name = try Self.presetName(value, at: path)
            guard let library else { throw .unsupported("this studio has no preset library", ref: path) }
            var p = preset
            p.name = name
            if HiSynthPreset.factory.contains(where: { $0.name == name }) {
                throw .badValue(path, expected: "a name that is not a factory preset's")
            }
            do { try library.store(p) } catch { throw StudioError(code: "save_failed", message: "\(error)", ref: path) }
            userNames = Self.names(of: library)
            imported.removeAll { $0.name == name }
            var changes = changeSound(to: p)
            changes["userPresets"] = userPresetsJSON()
            return changes
        case "preset.import":
            guard let text = value.string else { throw .badValue(path, expected: "a preset string") }
            guard text.utf8.count <= Self.maximumPresetStringLength else {
                throw .outOfRange(path, range: "preset strings up to \(Self.maximumPresetStringLength) bytes")
            }
            // presets.md has an entry with a trailing space: trim (spec §2).
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let decoded: HiSynthPreset
            do { decoded = try HiSynthPreset(string: trimmed) } catch {
                throw StudioError(code: "bad_preset", message: error.description, ref: path)
            }
            // Equality is by name: a known name is replaced by the import (a factory one is selected as is).
            var changes: [String: StudioValue] = [:]
            if !HiSynthPreset.factory.contains(where: { $0.name == decoded.name }) {
                imported.removeAll { $0.name == decoded.name }
                imported.append(decoded)
                changes["userPresets"] = userPresetsJSON()
            }
            changes.merge(changeSound(to: decoded)) { _, new in new }
            return changes
        case "player.play":
            let on = value.isNull ? !playing : try value.boolean(at: path)
            live.play(on)
            announcedPlaying = on
            return ["playing": .bool(on)]
        case "player.stop":
            live.play(false)
            announcedPlaying = false
            return ["playing": .bool(false)]
        default:
            throw .unknownControl(path)
        }
    }

    /// A factory preset (first), an imported one, or a user preset called `name`.
    func presetNamed(_ name: String) -> HiSynthPreset? {
        if let p = HiSynthPreset.factory.first(where: { $0.name == name }) { return p }
        if let p = imported.last(where: { $0.name == name }) { return p }
        return library?.userPresetList().first { $0.name == name }
    }

    func heldCount(of client: String) -> Int { holders.values.filter { $0.contains(client) }.count }

    /// `client` lets go of `note`; the note ends when no client holds it.
    func release(_ note: UInt8, of client: String) {
        guard var held = holders[note], held.remove(client) != nil else { return }
        if held.isEmpty {
            holders[note] = nil
            live.noteOff(note)
        } else {
            holders[note] = held
        }
    }

    /// Every note `client` holds ends (its page went away, hid, or cancelled its pointers).
    func releaseNotes(of client: String) {
        for note in holders.keys.sorted() { release(note, of: client) }
    }

    /// A MIDI note 0…127.
    static func note(_ value: StudioValue, at path: String) throws(StudioError) -> UInt8 {
        let n = try value.number(in: 0...127, at: path)
        guard n == n.rounded() else { throw .badValue(path, expected: "a MIDI note 0…127") }
        return UInt8(n)
    }
}

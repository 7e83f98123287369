import Ariel
import Hecate
import Horatio
import Prospero

extension ProsperoSettings {
    /// Parser limits for a settings file: the size limit, shallow nesting, enough members for every
    /// binding.
    static var jsonLimits: JSONReader.Limits {
        var limits = JSONReader.Limits.studioMessage
        limits.maximumBytes = maximumBytes
        limits.maximumDepth = 8
        limits.maximumMembers = 4 * maximumBindings
        return limits
    }

    /// Reads a settings document. Missing members keep their defaults; a value of the wrong type or
    /// out of range is an error naming the field (`hecate.bpm: must be 20…300`).
    public init(json bytes: [UInt8]) throws(ProsperoSettingsError) {
        guard bytes.count <= Self.maximumBytes else {
            throw ProsperoSettingsError(.tooLarge, field: "", "the file has \(bytes.count) bytes; settings are at most \(Self.maximumBytes)")
        }
        let document: StudioValue
        do { document = try StudioValue(json: bytes, limits: Self.jsonLimits) } catch {
            throw ProsperoSettingsError(.malformed, field: "", "not a settings document: \(error.message)")
        }
        guard let root = document.object else { throw ProsperoSettingsError(.malformed, field: "", "must be a JSON object") }
        self.init()
        guard let version = root["version"] else { throw ProsperoSettingsError(.badField, field: "version", "is missing") }
        guard let v = version.number, v == v.rounded() else { throw ProsperoSettingsError(.badField, field: "version", "must be a whole number") }
        guard v == Double(Self.version) else {
            throw ProsperoSettingsError(.unsupportedVersion, field: "version", "is \(StudioValue.numberText(v)); this Prospero reads version \(Self.version)")
        }
        if let hecate = root["hecate"] { try readHecate(hecate) }
        if let hands = root["hands"] { try readHands(hands) }
        if let midi = root["midi"] { self.midi = try Self.readBindings(midi) }
        // Every other object is an instrument's section, which that instrument reads when it is restored.
        for (id, value) in root.sorted(by: { $0.key < $1.key }) where !["version", "hecate", "hands", "midi"].contains(id) {
            guard value.object != nil else { continue }
            guard sections.count < Self.maximumSections else {
                throw ProsperoSettingsError(.badField, field: id, "is one section too many: at most \(Self.maximumSections)")
            }
            sections[id] = value
        }
    }

    public init(json text: String) throws(ProsperoSettingsError) { try self.init(json: Array(text.utf8)) }

    /// The document as JSON text (keys sorted, so equal settings give equal text), one trailing newline.
    public var jsonText: String { json.jsonText + "\n" }

    /// The document as a JSON value.
    public var json: StudioValue {
        var members = sections
        members["version"] = .number(Double(Self.version))
        members["hecate"] = hecateJSON
        members["hands"] = handsJSON
        members["midi"] = .array(midi.map(Self.bindingJSON))
        return .object(members)
    }

    // MARK: Hecate

    var hecateJSON: StudioValue { Self.hecateJSON(hecate, routeIsAutomatic: hecateRouteIsAutomatic) }

    /// Hecate's section for settings `s`; `route` is `auto` when `routeIsAutomatic`.
    public static func hecateJSON(_ s: HecateStudioSettings, routeIsAutomatic hecateRouteIsAutomatic: Bool) -> StudioValue {
        .object([
            "pack": .string(s.packID), "key": .string(s.keyName), "chord": .number(Double(s.chord.rawValue)),
            "bpm": .number(s.bpm), "arpeggiator": .bool(s.arpeggiator), "arpDivision": .string(s.arpDivision),
            "tremolo": .string(s.tremolo), "tremoloDivision": .string(s.tremoloDivision), "tremoloDepth": .number(s.tremoloDepth),
            "playAlong": .bool(s.playAlong), "route": .string(hecateRouteIsAutomatic ? "auto" : s.route.rawValue),
            "bassLevel": .number(s.bassLevel), "droneLevel": .number(s.droneLevel), "reverb": .number(s.reverb),
        ])
    }

    mutating func readHecate(_ value: StudioValue) throws(ProsperoSettingsError) {
        typealias S = HecateStudioSettings
        let o = try Self.object(value, "hecate")
        var s = HecateStudioSettings()
        if let pack = o["pack"] {
            let id = try Self.text(pack, "hecate.pack", maximumLength: 64)
            // A built-in pack brings its levels; the members below override them.
            s = HecateStudioSettings(pack: SoundPack.builtIn.first { $0.id == id } ?? .cathedral)
            s.packID = id
        }
        if let key = o["key"] { s.key = MusicalKey(rawValue: S.keyNames.firstIndex(of: try Self.choice(key, S.keyNames, "hecate.key"))!)! }
        if let chord = o["chord"] {
            let n = try Self.number(chord, 1...7, "hecate.chord")
            guard n == n.rounded(), let d = NashvilleDegree(rawValue: Int(n)) else {
                throw ProsperoSettingsError(.badField, field: "hecate.chord", "must be a degree 1…7")
            }
            s.chord = d
        }
        if let bpm = o["bpm"] { s.bpm = try Self.number(bpm, S.bpmRange, "hecate.bpm") }
        if let arp = o["arpeggiator"] { s.arpeggiator = try Self.flag(arp, "hecate.arpeggiator") }
        if let d = o["arpDivision"] { s.arpDivision = try Self.choice(d, S.divisions, "hecate.arpDivision") }
        if let t = o["tremolo"] { s.tremolo = try Self.choice(t, S.tremoloShapes, "hecate.tremolo") }
        if let d = o["tremoloDivision"] { s.tremoloDivision = try Self.choice(d, S.divisions, "hecate.tremoloDivision") }
        if let d = o["tremoloDepth"] { s.tremoloDepth = try Self.number(d, S.unitRange, "hecate.tremoloDepth") }
        if let p = o["playAlong"] { s.playAlong = try Self.flag(p, "hecate.playAlong") }
        if let r = o["route"] {
            let text = try Self.choice(r, ["auto"] + OutputRoute.allCases.map(\.rawValue), "hecate.route")
            hecateRouteIsAutomatic = text == "auto"
            if let route = OutputRoute(rawValue: text) { s.route = route }
        }
        if let l = o["bassLevel"] { s.bassLevel = try Self.number(l, S.unitRange, "hecate.bassLevel") }
        if let l = o["droneLevel"] { s.droneLevel = try Self.number(l, S.unitRange, "hecate.droneLevel") }
        if let l = o["reverb"] { s.reverb = try Self.number(l, S.unitRange, "hecate.reverb") }
        hecate = s
    }

    // MARK: Hands

    var handsJSON: StudioValue { Self.handsJSON(hands) }

    /// The hands screen's section for settings `hands`.
    public static func handsJSON(_ hands: HandsStudioSettings) -> StudioValue {
        var members: [String: StudioValue] = [:]
        for path in HandsStudioSettings.paths { if let v = hands.value(at: path) { members[path] = Self.settingJSON(v) } }
        var synth: [String: StudioValue] = [:]
        for control in HandsSynthControl.all { synth[control.name] = Self.settingJSON(control.value(in: hands.synth)) }
        members["synth"] = .object(synth)
        return .object(members)
    }

    mutating func readHands(_ value: StudioValue) throws(ProsperoSettingsError) {
        let o = try Self.object(value, "hands")
        var s = HandsStudioSettings()
        // Notes and channels are assigned first and validated together (a low note above the default
        // high one is fine when the file's high note is higher still).
        if let v = o["low"] { s.lowestNote = try Self.integer(v, 0...127, "hands.low") }
        if let v = o["high"] { s.highestNote = try Self.integer(v, 0...127, "hands.high") }
        if let v = o["channel"] { s.channel = try Self.integer(v, 1...16, "hands.channel") }
        if let v = o["bendRange"] { s.bendRange = try Self.integer(v, 1...24, "hands.bendRange") }
        if let v = o["velocity"] { s.velocity = try Self.integer(v, s.velocityRange, "hands.velocity") }
        for path in ["key", "scale", "channelMode", "channels", "output"] {
            guard let v = o[path] else { continue }
            let text = try Self.text(v, "hands.\(path)", maximumLength: 64)
            do { try s.set(path, to: .text(text)) } catch {
                // Validation of the whole may fail on a neighbour; the field set here is named.
                throw ProsperoSettingsError(.badField, field: "hands.\(error.path)", error.reason)
            }
        }
        // A file from before `channels` meant four channels from `channel` per hand.
        if o["channels"] == nil, s.channelMode == .perHand, (1...13).contains(s.channel) { s.handChannels = (0..<4).map { s.channel + $0 } }
        if let v = o["bend"] { s.bend = try Self.flag(v, "hands.bend") }
        if let synth = o["synth"] {
            let members = try Self.object(synth, "hands.synth")
            for control in HandsSynthControl.all {
                guard let v = members[control.name] else { continue }
                let field = "hands.synth.\(control.name)"
                let setting: HandsSettingValue
                switch v {
                case .number(let n): setting = .number(n)
                case .string(let t): setting = .text(String(t.prefix(64)))
                case .bool(let b): setting = .flag(b)
                default: throw ProsperoSettingsError(.badField, field: field, "must be a number, a name or true/false")
                }
                do { _ = try control.apply(setting, to: &s.synth) } catch {
                    throw ProsperoSettingsError(.badField, field: field, error.reason)
                }
            }
        }
        do { try s.validate() } catch { throw ProsperoSettingsError(.badField, field: "hands.\(error.path)", error.reason) }
        hands = s
    }

    static func settingJSON(_ v: HandsSettingValue) -> StudioValue {
        switch v {
        case .number(let n): return .number(n)
        case .text(let t): return .string(t)
        case .flag(let b): return .bool(b)
        }
    }

    // MARK: MIDI bindings

    static func bindingJSON(_ b: MIDIBinding<String>) -> StudioValue {
        var o: [String: StudioValue] = ["control": .string(b.parameter), "min": .number(b.minimum), "max": .number(b.maximum),
                                        "channel": .number(Double(b.source.channel.number))]
        if b.inverted { o["inverted"] = .bool(true) }
        switch b.source {
        case .controlChange(_, let cc): o["source"] = "cc"; o["controller"] = .number(Double(cc.intValue))
        case .controlChange14Bit(_, let msb): o["source"] = "cc14"; o["controller"] = .number(Double(msb.intValue))
        case .note(_, let n): o["source"] = "note"; o["note"] = .number(Double(n.intValue))
        case .pitchBend: o["source"] = "pitchBend"
        case .channelPressure: o["source"] = "pressure"
        }
        return .object(o)
    }

    static func readBindings(_ value: StudioValue) throws(ProsperoSettingsError) -> [MIDIBinding<String>] {
        guard let items = value.array else { throw ProsperoSettingsError(.badField, field: "midi", "must be an array of bindings") }
        guard items.count <= maximumBindings else {
            throw ProsperoSettingsError(.badField, field: "midi", "has \(items.count) bindings; at most \(maximumBindings)")
        }
        var out: [MIDIBinding<String>] = []
        for (i, item) in items.enumerated() { out.append(try readBinding(item, field: "midi[\(i)]")) }
        return out
    }

    /// One binding (also the unit of a `--map FILE`).
    public static func readBinding(_ value: StudioValue, field: String) throws(ProsperoSettingsError) -> MIDIBinding<String> {
        let o = try object(value, field)
        guard let c = o["control"] else { throw ProsperoSettingsError(.badField, field: "\(field).control", "is missing") }
        let path = try text(c, "\(field).control", maximumLength: 128)
        guard let control = MIDILearnableControl.named(path) else {
            throw ProsperoSettingsError(.badField, field: "\(field).control",
                                        "'\(path)' is not a learnable control (\(MIDILearnableControl.all.map(\.path).joined(separator: ", ")))")
        }
        let channelNumber = try o["channel"].map { v throws(ProsperoSettingsError) in try integer(v, 1...16, "\(field).channel") } ?? 1
        let channel = MIDIChannel(number: channelNumber)!
        guard let s = o["source"] else { throw ProsperoSettingsError(.badField, field: "\(field).source", "is missing") }
        let source: MIDIControlSource
        switch try choice(s, ["cc", "cc14", "note", "pitchBend", "pressure"], "\(field).source") {
        case "cc":
            guard let v = o["controller"] else { throw ProsperoSettingsError(.badField, field: "\(field).controller", "is missing") }
            source = .controlChange(channel: channel, controller: MIDIUInt7(try integer(v, 0...127, "\(field).controller"))!)
        case "cc14":
            guard let v = o["controller"] else { throw ProsperoSettingsError(.badField, field: "\(field).controller", "is missing") }
            source = .controlChange14Bit(channel: channel, msbController: MIDIUInt7(try integer(v, 0...31, "\(field).controller"))!)
        case "note":
            guard let v = o["note"] else { throw ProsperoSettingsError(.badField, field: "\(field).note", "is missing") }
            source = .note(channel: channel, note: MIDIUInt7(try integer(v, 0...127, "\(field).note"))!)
        case "pitchBend": source = .pitchBend(channel: channel)
        default: source = .channelPressure(channel: channel)
        }
        // The sweep stays inside the control's range (a hostile file cannot push a parameter past it).
        let minimum = try o["min"].map { v throws(ProsperoSettingsError) in try number(v, control.range, "\(field).min") } ?? control.range.lowerBound
        let maximum = try o["max"].map { v throws(ProsperoSettingsError) in try number(v, control.range, "\(field).max") } ?? control.range.upperBound
        let inverted = try o["inverted"].map { v throws(ProsperoSettingsError) in try flag(v, "\(field).inverted") } ?? false
        return MIDIBinding(parameter: path, source: source, minimum: minimum, maximum: maximum, inverted: inverted)
    }

    // MARK: Typed field readers

    static func object(_ v: StudioValue, _ field: String) throws(ProsperoSettingsError) -> [String: StudioValue] {
        guard let o = v.object else { throw ProsperoSettingsError(.badField, field: field, "must be an object") }
        return o
    }

    static func number(_ v: StudioValue, _ range: ClosedRange<Double>, _ field: String) throws(ProsperoSettingsError) -> Double {
        guard let n = v.number, n.isFinite else { throw ProsperoSettingsError(.badField, field: field, "must be a number") }
        guard range.contains(n) else {
            throw ProsperoSettingsError(.badField, field: field,
                                        "must be \(StudioValue.numberText(range.lowerBound))…\(StudioValue.numberText(range.upperBound)), not \(StudioValue.numberText(n))")
        }
        return n
    }

    static func integer(_ v: StudioValue, _ range: ClosedRange<Int>, _ field: String) throws(ProsperoSettingsError) -> Int {
        let n = try number(v, Double(range.lowerBound)...Double(range.upperBound), field)
        guard n == n.rounded() else { throw ProsperoSettingsError(.badField, field: field, "must be a whole number") }
        return Int(n)
    }

    static func flag(_ v: StudioValue, _ field: String) throws(ProsperoSettingsError) -> Bool {
        guard let b = v.bool else { throw ProsperoSettingsError(.badField, field: field, "must be true or false") }
        return b
    }

    static func text(_ v: StudioValue, _ field: String, maximumLength: Int) throws(ProsperoSettingsError) -> String {
        guard let t = v.string else { throw ProsperoSettingsError(.badField, field: field, "must be a string") }
        guard t.utf8.count <= maximumLength, !t.isEmpty else {
            throw ProsperoSettingsError(.badField, field: field, "must be 1…\(maximumLength) bytes long")
        }
        return t
    }

    static func choice(_ v: StudioValue, _ choices: [String], _ field: String) throws(ProsperoSettingsError) -> String {
        let t = try text(v, field, maximumLength: 64)
        guard choices.contains(t) else {
            throw ProsperoSettingsError(.badField, field: field, "must be one of \(choices.joined(separator: ", ")), not '\(t)'")
        }
        return t
    }
}

extension ProsperoSettings {
    /// A mapping file (`--map FILE`): a JSON array of bindings, or an object with a `midi` array
    /// (a settings file works too). Same limits and field errors as a settings file.
    public static func mappings(json bytes: [UInt8]) throws(ProsperoSettingsError) -> [MIDIBinding<String>] {
        guard bytes.count <= maximumBytes else {
            throw ProsperoSettingsError(.tooLarge, field: "", "the file has \(bytes.count) bytes; a mapping file is at most \(maximumBytes)")
        }
        let document: StudioValue
        do { document = try StudioValue(json: bytes, limits: jsonLimits) } catch {
            throw ProsperoSettingsError(.malformed, field: "", "not a mapping document: \(error.message)")
        }
        if document.array != nil { return try readBindings(document) }
        guard let midi = document.object?["midi"] else {
            throw ProsperoSettingsError(.malformed, field: "", "must be an array of bindings or an object with a \"midi\" array")
        }
        return try readBindings(midi)
    }

    /// A mapping file's text: `{"midi": [...]}` (what `--map` reads back).
    public static func mappingsText(_ bindings: [MIDIBinding<String>]) -> String {
        StudioValue.object(["midi": .array(bindings.map(bindingJSON))]).jsonText + "\n"
    }

    /// One binding's JSON text (the CLI prints it after learning).
    public static func bindingText(_ binding: MIDIBinding<String>) -> String { bindingJSON(binding).jsonText }
}

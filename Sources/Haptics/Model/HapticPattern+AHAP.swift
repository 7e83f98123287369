extension HapticPattern {
    /// Most `Pattern` entries (and curve points per curve) the reader accepts, so a hostile file
    /// cannot make it allocate without bound. Real patterns hold hundreds.
    public static let maximumEntries = 100_000

    /// Reads an AHAP file (UTF-8 JSON).
    ///
    /// Unknown keys are ignored (as Core Haptics ignores them); missing optional values take their
    /// defaults; out-of-range values are clamped into range; curves longer than 16 points are split.
    /// Anything else wrong is a `HapticPatternError` naming the entry and field.
    public init(ahap bytes: [UInt8]) throws(HapticPatternError) {
        let json: HapticJSON
        do { json = try HapticJSON.parse(bytes) } catch { throw HapticPatternError(.json(error)) }
        try self.init(ahap: json)
    }

    /// Reads an AHAP file from text.
    public init(ahap text: String) throws(HapticPatternError) { try self.init(ahap: Array(text.utf8)) }

    /// Reads an AHAP document already parsed as JSON.
    public init(ahap json: HapticJSON) throws(HapticPatternError) {
        guard json.isObject else { throw HapticPatternError(.notAnObject) }
        self.init()
        if let v = json["Version"] {
            guard let n = v.number else { throw HapticPatternError(.wrongType(field: "Version", expected: "a number")) }
            version = n
        }
        if case .object(let members)? = json["Metadata"] {
            metadata = members.compactMap { m in m.value.string.map { (m.key, $0) } }
        }
        guard let entries = json["Pattern"]?.array else { throw HapticPatternError(.missingPattern) }
        guard entries.count <= Self.maximumEntries else { throw HapticPatternError(.tooLarge("Pattern entries")) }
        for (index, entry) in entries.enumerated() {
            let kinds = ["Event", "Parameter", "ParameterCurve"].filter { entry[$0] != nil }
            guard kinds.count == 1, let body = entry[kinds[0]], body.isObject else {
                throw HapticPatternError(entry: index, .unknownEntry)
            }
            switch kinds[0] {
            case "Event": events.append(try Self.readEvent(body, index))
            case "Parameter": parameters.append(try Self.readParameter(body, index))
            default: add(try Self.readCurve(body, index))
            }
        }
    }

    static func number(_ o: HapticJSON, _ key: String, _ entry: Int) throws(HapticPatternError) -> Double? {
        guard let v = o[key] else { return nil }
        guard let n = v.number else { throw HapticPatternError(entry: entry, .wrongType(field: key, expected: "a number")) }
        return n
    }

    static func required(_ o: HapticJSON, _ key: String, _ entry: Int) throws(HapticPatternError) -> Double {
        guard let n = try number(o, key, entry) else { throw HapticPatternError(entry: entry, .missingField(key)) }
        return n
    }

    static func string(_ o: HapticJSON, _ key: String, _ entry: Int) throws(HapticPatternError) -> String {
        guard let v = o[key] else { throw HapticPatternError(entry: entry, .missingField(key)) }
        guard let s = v.string else { throw HapticPatternError(entry: entry, .wrongType(field: key, expected: "a string")) }
        return s
    }

    static func flag(_ o: HapticJSON, _ key: String, _ entry: Int) throws(HapticPatternError) -> Bool? {
        guard let v = o[key] else { return nil }
        if let b = v.bool { return b }
        // Apple's samples write booleans as 0/1 as well as true/false.
        if let n = v.number { return n != 0 }
        throw HapticPatternError(entry: entry, .wrongType(field: key, expected: "a boolean"))
    }

    static func readEvent(_ o: HapticJSON, _ entry: Int) throws(HapticPatternError) -> HapticEvent {
        let typeName = try string(o, "EventType", entry)
        guard let type = HapticEventType(rawValue: typeName) else { throw HapticPatternError(entry: entry, .unknownEventType(typeName)) }
        let time = try number(o, "Time", entry) ?? 0
        let duration = try number(o, "EventDuration", entry)
        var event = HapticEvent(type, time: time, duration: duration)
        if let list = o["EventParameters"] {
            guard let items = list.array else {
                throw HapticPatternError(entry: entry, .wrongType(field: "EventParameters", expected: "an array"))
            }
            guard items.count <= 64 else { throw HapticPatternError(entry: entry, .tooLarge("EventParameters")) }
            for item in items {
                let name = try string(item, "ParameterID", entry)
                guard let id = HapticEventParameterID(rawValue: name) else {
                    throw HapticPatternError(entry: entry, .unknownParameter(name))
                }
                event.set(id, try required(item, "ParameterValue", entry))
            }
        }
        if o["EventWaveformPath"] != nil { event.waveformPath = try string(o, "EventWaveformPath", entry) }
        event.waveformUseVolumeEnvelope = try flag(o, "EventWaveformUseVolumeEnvelope", entry)
        event.waveformLoopEnabled = try flag(o, "EventWaveformLoopEnabled", entry)
        return event
    }

    static func readParameter(_ o: HapticJSON, _ entry: Int) throws(HapticPatternError) -> HapticDynamicParameter {
        let name = try string(o, "ParameterID", entry)
        guard let id = HapticDynamicParameterID(rawValue: name) else { throw HapticPatternError(entry: entry, .unknownParameter(name)) }
        return HapticDynamicParameter(id, value: try required(o, "ParameterValue", entry), time: try number(o, "Time", entry) ?? 0)
    }

    static func readCurve(_ o: HapticJSON, _ entry: Int) throws(HapticPatternError) -> HapticParameterCurve {
        let name = try string(o, "ParameterID", entry)
        guard let id = HapticDynamicParameterID(rawValue: name) else { throw HapticPatternError(entry: entry, .unknownParameter(name)) }
        guard id.isCurveParameter else { throw HapticPatternError(entry: entry, .notACurveParameter(name)) }
        guard let list = o["ParameterCurveControlPoints"] else {
            throw HapticPatternError(entry: entry, .missingField("ParameterCurveControlPoints"))
        }
        guard let items = list.array else {
            throw HapticPatternError(entry: entry, .wrongType(field: "ParameterCurveControlPoints", expected: "an array"))
        }
        guard items.count <= maximumEntries else { throw HapticPatternError(entry: entry, .tooLarge("control points")) }
        var points: [HapticParameterCurve.Point] = []
        points.reserveCapacity(items.count)
        for item in items {
            points.append(.init(time: try required(item, "Time", entry), value: try required(item, "ParameterValue", entry)))
        }
        return HapticParameterCurve(id, time: try number(o, "Time", entry) ?? 0, points: points)
    }

    /// The pattern as an AHAP JSON document (`Version`, `Metadata` when present, `Pattern`).
    public func ahapDocument() -> HapticJSON {
        var top: [(key: String, value: HapticJSON)] = [("Version", .number(version))]
        if !metadata.isEmpty { top.append(("Metadata", .object(metadata.map { ($0.key, .string($0.value)) }))) }
        var pattern: [HapticJSON] = []
        for e in events {
            var fields: [(key: String, value: HapticJSON)] = [("Time", .number(e.time)), ("EventType", .string(e.type.rawValue))]
            if let d = e.duration { fields.append(("EventDuration", .number(d))) }
            if let path = e.waveformPath { fields.append(("EventWaveformPath", .string(path))) }
            if let v = e.waveformUseVolumeEnvelope { fields.append(("EventWaveformUseVolumeEnvelope", .bool(v))) }
            if let v = e.waveformLoopEnabled { fields.append(("EventWaveformLoopEnabled", .bool(v))) }
            if !e.parameters.isEmpty {
                fields.append(("EventParameters", .array(e.parameters.map {
                    .object([("ParameterID", .string($0.id.rawValue)), ("ParameterValue", .number($0.value))])
                })))
            }
            pattern.append(.object([("Event", .object(fields))]))
        }
        for p in parameters {
            pattern.append(.object([("Parameter", .object([
                ("ParameterID", .string(p.id.rawValue)), ("Time", .number(p.time)), ("ParameterValue", .number(p.value)),
            ]))]))
        }
        for c in curves {
            pattern.append(.object([("ParameterCurve", .object([
                ("ParameterID", .string(c.id.rawValue)), ("Time", .number(c.time)),
                ("ParameterCurveControlPoints", .array(c.points.map {
                    .object([("Time", .number($0.time)), ("ParameterValue", .number($0.value))])
                })),
            ]))]))
        }
        top.append(("Pattern", .array(pattern)))
        return .object(top)
    }

    /// The pattern as AHAP JSON text (pretty, two-space indent, final newline).
    public func ahapJSON() -> String { ahapDocument().encoded(indent: 2) + "\n" }
}

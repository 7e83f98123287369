import Foundation

/// One JSON object of preset JSON being read, with its path for error messages. Turns every
/// `DecodingError` into a `HiSynthPresetError` that names the field.
struct HiSynthJSONObject {
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    let container: KeyedDecodingContainer<Key>
    let path: String

    init(_ decoder: any Decoder, path: String) throws(HiSynthPresetError) {
        do {
            container = try decoder.container(keyedBy: Key.self)
        } catch {
            throw .wrongType(path.isEmpty ? "the preset" : path, expected: "an object")
        }
        self.path = path
    }

    private init(container: KeyedDecodingContainer<Key>, path: String) {
        self.container = container
        self.path = path
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce("") { path, key in
            if let index = key.intValue { return path + "[\(index)]" }
            return path.isEmpty ? key.stringValue : path + "." + key.stringValue
        }
    }

    private func fieldPath(_ name: String) -> String { path.isEmpty ? name : path + "." + name }

    private func present(_ name: String) throws(HiSynthPresetError) -> Key {
        let key = Key(name)
        guard container.contains(key) else { throw .missingField(fieldPath(name)) }
        if (try? container.decodeNil(forKey: key)) == true { throw .wrongType(fieldPath(name), expected: "present (not null)") }
        return key
    }

    private func decode<T: Decodable>(_ type: T.Type, _ name: String, expected: String) throws(HiSynthPresetError) -> T {
        let key = try present(name)
        do {
            return try container.decode(T.self, forKey: key)
        } catch {
            throw .wrongType(fieldPath(name), expected: expected)
        }
    }

    func object(_ name: String) throws(HiSynthPresetError) -> HiSynthJSONObject {
        let key = try present(name)
        do {
            return HiSynthJSONObject(container: try container.nestedContainer(keyedBy: Key.self, forKey: key), path: fieldPath(name))
        } catch {
            throw .wrongType(fieldPath(name), expected: "an object")
        }
    }

    /// The objects of an array field that must hold exactly `count` of them.
    func objects(_ name: String, count: Int) throws(HiSynthPresetError) -> [HiSynthJSONObject] {
        let key = try present(name)
        var array: UnkeyedDecodingContainer
        do {
            array = try container.nestedUnkeyedContainer(forKey: key)
        } catch {
            throw .wrongType(fieldPath(name), expected: "an array")
        }
        if let found = array.count, found != count {
            throw .wrongCount(fieldPath(name), count: found, expected: count)
        }
        var objects: [HiSynthJSONObject] = []
        while !array.isAtEnd {
            let elementPath = fieldPath(name) + "[\(objects.count)]"
            do {
                objects.append(HiSynthJSONObject(container: try array.nestedContainer(keyedBy: Key.self), path: elementPath))
            } catch {
                throw .wrongType(elementPath, expected: "an object")
            }
        }
        return objects
    }

    func string(_ name: String) throws(HiSynthPresetError) -> String {
        try decode(String.self, name, expected: "a string")
    }

    func bool(_ name: String) throws(HiSynthPresetError) -> Bool {
        try decode(Bool.self, name, expected: "true or false")
    }

    /// A number rounded to the nearest Float16, as the original stores it (−0.0 keeps its sign).
    func number(_ name: String) throws(HiSynthPresetError) -> Float16 {
        let key = try present(name)
        let value: Double
        do {
            value = try container.decode(Double.self, forKey: key)
        } catch is DecodingError {
            throw .wrongType(fieldPath(name), expected: "a number")
        } catch {
            // Foundation's own error for a number literal beyond Double (1e999).
            throw .outOfFloat16Range(fieldPath(name), value: .infinity)
        }
        let half = Float16(value)
        guard value.isFinite, half.isFinite else { throw .outOfFloat16Range(fieldPath(name), value: value) }
        return half
    }

    func waveform(_ name: String) throws(HiSynthPresetError) -> HiSynthWaveform {
        let text = try string(name)
        guard let waveform = HiSynthWaveform(name: text) else {
            throw .unknownName(fieldPath(name), value: text, allowed: HiSynthWaveform.allCases.map(\.name))
        }
        return waveform
    }

    func reverbType(_ name: String) throws(HiSynthPresetError) -> HiSynthReverbType {
        let text = try string(name)
        guard let type = HiSynthReverbType(name: text) else {
            throw .unknownName(fieldPath(name), value: text, allowed: HiSynthReverbType.allCases.map(\.name))
        }
        return type
    }
}

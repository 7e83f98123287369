import Foundation

/// Why a sound pack file cannot be loaded, naming the field and what was wrong.
public enum SoundPackError: Error, Equatable, Sendable, CustomStringConvertible {
    case notJSON(String)
    case missingField(String)
    case wrongType(field: String, expected: String)
    case invalidValue(field: String, reason: String)
    case badPreset(VoicePresetError)
    case badIdentifier(String)
    case unsupportedVersion(Int)

    public var description: String {
        switch self {
        case .notJSON(let why): return "sound pack is not valid JSON: \(why)"
        case .missingField(let f): return "sound pack has no '\(f)' field"
        case .wrongType(let f, let t): return "sound pack field '\(f)' should be \(t)"
        case .invalidValue(let f, let why): return "sound pack field '\(f)': \(why)"
        case .badPreset(let e): return "sound pack \(e)"
        case .badIdentifier(let id): return "sound pack id '\(id)' must be 1–64 lower-case letters, digits or dashes"
        case .unsupportedVersion(let v): return "sound pack formatVersion \(v) is not supported (this build reads 1)"
        }
    }
}

extension SoundPack {
    /// Decodes and validates a pack file. Every failure names the offending field.
    public init(json data: Data) throws(SoundPackError) {
        let pack: SoundPack
        do {
            pack = try JSONDecoder().decode(SoundPack.self, from: data)
        } catch let error as DecodingError {
            throw Self.describe(error)
        } catch {
            throw .notJSON(String(describing: error))
        }
        try pack.validate()
        self = pack
    }

    /// The pack as pretty-printed JSON with sorted keys (stable, diff-friendly).
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try! encoder.encode(self)  // every field is a plain finite value
    }

    public func validate() throws(SoundPackError) {
        guard formatVersion == 1 else { throw .unsupportedVersion(formatVersion) }
        guard (1...64).contains(id.count), id.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" })
        else { throw .badIdentifier(id) }
        guard !name.isEmpty else { throw .invalidValue(field: "name", reason: "must not be empty") }
        do { try preset.validate() } catch { throw .badPreset(error) }
        if let visual, !(1...64).contains(visual.count) || !visual.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) {
            throw .invalidValue(field: "visual", reason: "must be 1–64 lower-case letters, digits or dashes")
        }
        try visualOverrides?.validate()
    }

    private static func path(_ codingPath: [any CodingKey], _ key: (any CodingKey)? = nil) -> String {
        (codingPath + (key.map { [$0] } ?? [])).map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            .joined(separator: ".")
    }

    private static func describe(_ error: DecodingError) -> SoundPackError {
        switch error {
        case .keyNotFound(let key, let context): return .missingField(path(context.codingPath, key))
        case .typeMismatch(let type, let context): return .wrongType(field: path(context.codingPath), expected: expectedName(type))
        case .valueNotFound(let type, let context): return .wrongType(field: path(context.codingPath), expected: expectedName(type))
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return .notJSON(context.debugDescription) }
            return .invalidValue(field: path(context.codingPath), reason: context.debugDescription)
        @unknown default: return .notJSON(String(describing: error))
        }
    }

    private static func expectedName(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type: return "a number"
        case is Int.Type: return "an integer"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default: return "a \(type)"
        }
    }
}

import Foundation

extension MIDIRouterSettings {
    /// Settings from JSON (as `JSONEncoder` writes them), validated: a malformed document or a
    /// field of the wrong type is a `MIDIRouterSettingsError` naming the field's coding path,
    /// an out-of-range value one naming the field (see `validate()`).
    public static func decoded(fromJSON data: Data) throws(MIDIRouterSettingsError) -> MIDIRouterSettings {
        let settings: MIDIRouterSettings
        do {
            settings = try JSONDecoder().decode(MIDIRouterSettings.self, from: data)
        } catch let error as DecodingError {
            switch error {
            case .keyNotFound(let key, let context):
                throw MIDIRouterSettingsError(field: Self.path(context.codingPath + [key]), "is missing")
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                throw MIDIRouterSettingsError(field: Self.path(context.codingPath), context.debugDescription)
            @unknown default:
                throw MIDIRouterSettingsError(field: "(document)", "\(error)")
            }
        } catch {
            throw MIDIRouterSettingsError(field: "(document)", "\(error)")
        }
        try settings.validate()
        return settings
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "(document)" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}

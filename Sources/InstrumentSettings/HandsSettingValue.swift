/// One value a control sends for a hands setting (the protocol's JSON scalar, without JSON).
public enum HandsSettingValue: Sendable, Hashable {
    case number(Double)
    case text(String)
    case flag(Bool)
}

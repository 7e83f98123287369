/// Every plugin the shared object exports, in `lv2_descriptor` index order (stable: new plugins go at the end).
public enum LV2Catalog {
    public static let plugins: [LV2Plugin.Type] = [HiSynthLV2.self, PolySynthLV2.self, HecateLV2.self]

    /// The file name of the shared object every bundle ships (one object holds all the plugins).
    public static let binary = "libProsperoLV2Plugin.so"
}

/// The URIs the adapters read in atom sequences and State, as the integers the host mapped them to
/// (mapped once at instantiation through the host's `urid:map`).
public struct LV2URIDs: Sendable, Hashable {
    public var midiEvent: UInt32
    public var atomObject: UInt32
    public var atomBlank: UInt32
    public var atomFloat: UInt32
    public var atomDouble: UInt32
    public var atomInt: UInt32
    public var atomLong: UInt32
    public var atomString: UInt32
    public var timePosition: UInt32
    public var timeBeatsPerMinute: UInt32
    public var timeSpeed: UInt32
    /// The plugin's State property (0 when it has none).
    public var stateKey: UInt32

    /// The URIs mapped, in this order: midi:MidiEvent, atom:Object, atom:Blank, atom:Float, atom:Double,
    /// atom:Int, atom:Long, atom:String, time:Position, time:beatsPerMinute, time:speed.
    public static let uris = [
        "http://lv2plug.in/ns/ext/midi#MidiEvent",
        "http://lv2plug.in/ns/ext/atom#Object",
        "http://lv2plug.in/ns/ext/atom#Blank",
        "http://lv2plug.in/ns/ext/atom#Float",
        "http://lv2plug.in/ns/ext/atom#Double",
        "http://lv2plug.in/ns/ext/atom#Int",
        "http://lv2plug.in/ns/ext/atom#Long",
        "http://lv2plug.in/ns/ext/atom#String",
        "http://lv2plug.in/ns/ext/time#Position",
        "http://lv2plug.in/ns/ext/time#beatsPerMinute",
        "http://lv2plug.in/ns/ext/time#speed",
    ]

    /// Maps every URI with `map` (the host's `urid:map`), and `stateKey` when given.
    public init(stateKey: String?, map: (String) -> UInt32) {
        let ids = Self.uris.map(map)
        midiEvent = ids[0]
        atomObject = ids[1]
        atomBlank = ids[2]
        atomFloat = ids[3]
        atomDouble = ids[4]
        atomInt = ids[5]
        atomLong = ids[6]
        atomString = ids[7]
        timePosition = ids[8]
        timeBeatsPerMinute = ids[9]
        timeSpeed = ids[10]
        self.stateKey = stateKey.map(map) ?? 0
    }
}

/// What a host reads about one plugin before loading it: URI, name, ports in index order, presets and
/// the State property, everything the Turtle files say. The adapters connect ports by these indices.
public struct LV2PluginInfo: Sendable {
    /// The plugin's URI: stable, a session saved with it loads with any later version.
    public var uri: String
    /// The name a host lists.
    public var name: String
    /// The bundle directory's name, e.g. `prospero-hisynth.lv2`.
    public var bundleName: String
    /// Ports in index order (the index is the position).
    public var ports: [LV2Port]
    /// Factory presets (a host's preset menu).
    public var presets: [LV2Preset]
    /// The State extension's property (the plugin saves one string under it), or nil without state.
    public var stateKey: String?

    public init(uri: String, name: String, bundleName: String, ports: [LV2Port], presets: [LV2Preset] = [], stateKey: String? = nil) {
        self.uri = uri
        self.name = name
        self.bundleName = bundleName
        self.ports = ports
        self.presets = presets
        self.stateKey = stateKey
    }

    /// The index of the port named `symbol`.
    public func index(of symbol: String) -> Int? { ports.firstIndex { $0.symbol == symbol } }

    /// The four ports every instrument starts with, at indices 0…3: MIDI (and transport) in, stereo out,
    /// the latency report.
    public static func standardPorts(timePosition: Bool = false) -> [LV2Port] {
        [
            LV2Port(symbol: "midi_in", name: "MIDI in", kind: .eventInput(timePosition: timePosition)),
            LV2Port(symbol: "out_left", name: "Left", kind: .audioOutput),
            LV2Port(symbol: "out_right", name: "Right", kind: .audioOutput),
            LV2Port(symbol: "latency", name: "Latency", kind: .latencyOutput),
        ]
    }

    /// Index of the first control port (after the standard ports).
    public static let firstControlIndex = 4
}

/// A factory preset: its name, the control values it sets, and the State string it restores (if any).
public struct LV2Preset: Sendable, Hashable {
    public var uri: String
    public var name: String
    /// Control values by port symbol, in port order.
    public var values: [(symbol: String, value: Float)]
    /// The string saved under the plugin's State key.
    public var state: String?

    public init(uri: String, name: String, values: [(symbol: String, value: Float)], state: String? = nil) {
        self.uri = uri
        self.name = name
        self.values = values
        self.state = state
    }

    public static func == (a: LV2Preset, b: LV2Preset) -> Bool {
        a.uri == b.uri && a.name == b.name && a.state == b.state
            && a.values.map(\.symbol) == b.values.map(\.symbol) && a.values.map(\.value) == b.values.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(uri)
        hasher.combine(name)
    }

    /// A URI fragment from a preset name: lower case letters and digits, other runs as one `-`.
    public static func slug(_ name: String) -> String {
        var out = ""
        for scalar in name.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else if !out.isEmpty, out.last != "-" {
                out += "-"
            }
        }
        while out.last == "-" { out.removeLast() }
        return out
    }
}

import Horatio

/// Writes a plugin's bundle description (manifest.ttl, the plugin's TTL, its presets) from its
/// `LV2PluginInfo`: the ports a host sees are the ones the adapter connects, generated from the same
/// declarations, so the two cannot drift.
public enum LV2Turtle {
    /// The files of one bundle: name → contents.
    public static func bundleFiles(for info: LV2PluginInfo, binary: String) -> [(name: String, contents: String)] {
        var files = [("manifest.ttl", manifest(info, binary: binary)), (pluginFile(info), plugin(info))]
        if !info.presets.isEmpty { files.append((presetsFile, presets(info))) }
        return files
    }

    /// The plugin description's file name, e.g. `hisynth.ttl`.
    public static func pluginFile(_ info: LV2PluginInfo) -> String {
        String(info.bundleName.dropFirst("prospero-".count).prefix { $0 != "." }) + ".ttl"
    }

    public static let presetsFile = "presets.ttl"

    static let prefixes = """
        @prefix atom: <http://lv2plug.in/ns/ext/atom#> .
        @prefix doap: <http://usefulinc.com/ns/doap#> .
        @prefix foaf: <http://xmlns.com/foaf/0.1/> .
        @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
        @prefix midi: <http://lv2plug.in/ns/ext/midi#> .
        @prefix pprops: <http://lv2plug.in/ns/ext/port-props#> .
        @prefix pset: <http://lv2plug.in/ns/ext/presets#> .
        @prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
        @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
        @prefix state: <http://lv2plug.in/ns/ext/state#> .
        @prefix time: <http://lv2plug.in/ns/ext/time#> .
        @prefix units: <http://lv2plug.in/ns/extensions/units#> .
        @prefix urid: <http://lv2plug.in/ns/ext/urid#> .


        """

    static func manifest(_ info: LV2PluginInfo, binary: String) -> String {
        var out = prefixes
        out += "<\(info.uri)>\n    a lv2:Plugin ;\n    lv2:binary <\(binary)> ;\n    rdfs:seeAlso <\(pluginFile(info))> .\n"
        for preset in info.presets {
            out += "\n<\(preset.uri)>\n    a pset:Preset ;\n    lv2:appliesTo <\(info.uri)> ;\n"
            out += "    rdfs:label \(literal(preset.name)) ;\n    rdfs:seeAlso <\(presetsFile)> .\n"
        }
        return out
    }

    static func plugin(_ info: LV2PluginInfo) -> String {
        var out = prefixes
        out += "<\(info.uri)>\n    a lv2:Plugin, lv2:InstrumentPlugin ;\n"
        out += "    doap:name \(literal(info.name)) ;\n"
        out += "    lv2:requiredFeature urid:map ;\n"
        out += "    lv2:optionalFeature lv2:hardRTCapable ;\n"
        if info.stateKey != nil { out += "    lv2:extensionData state:interface ;\n" }
        let ports = info.ports.enumerated().map { port(index: $0.offset, $0.element) }
        out += "    lv2:port " + ports.joined(separator: " , ") + " .\n"
        if let key = info.stateKey {
            out += "\n<\(key)>\n    a rdf:Property, lv2:Parameter ;\n    rdfs:label \"Preset string\" ;\n"
            out += "    rdfs:comment \"The plugin's State: one string, saved and restored byte for byte.\" ;\n    rdfs:range atom:String .\n"
        }
        return out
    }

    static func port(index: Int, _ port: LV2Port) -> String {
        var lines: [String] = []
        switch port.kind {
        case .audioOutput:
            lines.append("a lv2:OutputPort, lv2:AudioPort")
        case .eventInput(let timePosition):
            lines.append("a lv2:InputPort, atom:AtomPort")
            lines.append("atom:bufferType atom:Sequence")
            lines.append("atom:supports midi:MidiEvent" + (timePosition ? ", time:Position" : ""))
            lines.append("lv2:designation lv2:control")
        case .latencyOutput:
            lines.append("a lv2:OutputPort, lv2:ControlPort")
            lines.append("lv2:designation lv2:latency")
            lines.append("lv2:portProperty lv2:reportsLatency, lv2:integer, pprops:notOnGUI")
            lines.append("lv2:minimum 0")
            lines.append("lv2:maximum 8192")
            lines.append("units:unit units:frame")
        case .control(let c):
            lines.append("a lv2:InputPort, lv2:ControlPort")
            lines.append("lv2:default \(number(c.defaultValue))")
            lines.append("lv2:minimum \(number(c.minimum))")
            lines.append("lv2:maximum \(number(c.maximum))")
            if let unit = c.unit { lines.append("units:unit units:\(unit.rawValue)") }
            switch c.style {
            case .continuous: break
            case .logarithmic: lines.append("lv2:portProperty pprops:logarithmic")
            case .integer: lines.append("lv2:portProperty lv2:integer")
            case .toggle: lines.append("lv2:portProperty lv2:toggled")
            case .enumeration(let labels):
                lines.append("lv2:portProperty lv2:integer, lv2:enumeration")
                let points = labels.enumerated().map { "[ rdfs:label \(literal($0.element)) ; rdf:value \($0.offset) ]" }
                lines.append("lv2:scalePoint " + points.joined(separator: " , "))
            }
        }
        lines.append("lv2:index \(index)")
        lines.append("lv2:symbol \(literal(port.symbol))")
        lines.append("lv2:name \(literal(port.name))")
        return "[\n        " + lines.joined(separator: " ;\n        ") + "\n    ]"
    }

    static func presets(_ info: LV2PluginInfo) -> String {
        var out = prefixes
        for preset in info.presets {
            out += "<\(preset.uri)>\n    a pset:Preset ;\n    lv2:appliesTo <\(info.uri)> ;\n"
            out += "    rdfs:label \(literal(preset.name))"
            if !preset.values.isEmpty {
                let values = preset.values.map { "[ lv2:symbol \(literal($0.symbol)) ; pset:value \(number($0.value)) ]" }
                out += " ;\n    lv2:port " + values.joined(separator: " ,\n        ")
            }
            if let state = preset.state, let key = info.stateKey {
                out += " ;\n    state:state [ <\(key)> \(literal(state)) ]"
            }
            out += " .\n\n"
        }
        return out
    }

    /// A Turtle number that reads back as exactly `value` (shortest round-trip form; −0 kept).
    public static func number(_ value: Float) -> String {
        let text = value.description
        // Swift writes 1e-05 / 1e+20: Turtle doubles take that form; plain digits get a decimal point.
        return text.contains("e") || text.contains(".") ? text : text + ".0"
    }

    /// A Turtle string literal with `"` `\` and control characters escaped. Turtle's string escapes
    /// (`\"` `\\` `\n` `\r` `\t`, `\uXXXX`) are JSON's, so the package's one escaper writes it.
    public static func literal(_ text: String) -> String { JSONStringLiteral.quoted(text) }
}

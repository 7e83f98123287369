import Foundation
import ProsperoLV2

// prospero-lv2: the LV2 plugins' tool.
//   prospero-lv2 bundles DIR     writes every bundle's Turtle (manifest.ttl, the plugin, presets) into DIR/<bundle>/
//   prospero-lv2 bench [SECONDS] each plugin's run() at 48 kHz in 256-frame blocks, × real time (Markdown table)

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("prospero-lv2: \(message)\n".utf8))
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "bundles":
    guard arguments.count == 2 else { fail("usage: prospero-lv2 bundles DIR") }
    do {
        try LV2BundleWriter.write(into: arguments[1])
    } catch {
        fail("\(error)")
    }
case "bench":
    let seconds = arguments.count > 1 ? Double(arguments[1]) : 20
    guard let seconds, seconds > 0, seconds.isFinite else { fail("usage: prospero-lv2 bench [SECONDS]") }
    LV2Bench.run(seconds: seconds)
default:
    fail("usage: prospero-lv2 bundles DIR | bench [SECONDS]")
}

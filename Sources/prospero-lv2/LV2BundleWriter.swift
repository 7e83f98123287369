import Foundation
import ProsperoLV2

/// Writes every plugin's Turtle files into its bundle directory (created when missing), printing each bundle's name.
enum LV2BundleWriter {
    struct WriteError: Error, CustomStringConvertible {
        var description: String
    }

    static func write(into directory: String) throws {
        for plugin in LV2Catalog.plugins {
            let info = plugin.info
            let bundle = directory + "/" + info.bundleName
            if mkdir(bundle, 0o755) != 0 && errno != EEXIST {
                throw WriteError(description: "cannot create \(bundle): \(String(cString: strerror(errno)))")
            }
            for file in LV2Turtle.bundleFiles(for: info, binary: LV2Catalog.binary) {
                let path = bundle + "/" + file.name
                guard let handle = fopen(path, "w") else {
                    throw WriteError(description: "cannot write \(path): \(String(cString: strerror(errno)))")
                }
                let ok = fputs(file.contents, handle) >= 0
                if fclose(handle) != 0 || !ok { throw WriteError(description: "cannot write \(path)") }
            }
            print(info.bundleName)
        }
    }
}

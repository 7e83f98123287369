import Foundation

/// The web app's files (Resources/web in the package bundle), read once at start into memory and
/// served by URL path only: a client can name a page, never a file on the server.
public struct StudioResources: Sendable {
    public struct File: Sendable {
        public var bytes: [UInt8]
        public var contentType: String
    }

    /// URL path ("/", "/js/studio.js", "/hecate/") → file.
    public private(set) var files: [String: File] = [:]

    /// Reads every file under `directory`; `index.html` of a folder is also served at the folder's path.
    public init(directory: URL) throws {
        let root = directory.standardizedFileURL.resolvingSymlinksInPath()
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return }
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let full = url.standardizedFileURL.resolvingSymlinksInPath().path
            guard full.hasPrefix(root.path + "/") else { continue }
            let relative = String(full.dropFirst(root.path.count))
            let file = File(bytes: Array(try Data(contentsOf: url)), contentType: Self.contentType(of: relative))
            files[relative] = file
            if relative.hasSuffix("/index.html") { files[String(relative.dropLast("index.html".count))] = file }
        }
    }

    /// The resources bundled with the package.
    public static func bundled() throws -> StudioResources {
        guard let url = Bundle.module.url(forResource: "web", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the studio's web resources are missing from the bundle"])
        }
        return try StudioResources(directory: url)
    }

    public func file(at path: String) -> File? { files[path] }

    static func contentType(of path: String) -> String {
        switch path.split(separator: ".").last.map(String.init) ?? "" {
        case "html": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json": "application/json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "glsl", "frag", "vert", "txt": "text/plain; charset=utf-8"
        case "woff2": "font/woff2"
        case "ico": "image/x-icon"
        default: "application/octet-stream"
        }
    }
}

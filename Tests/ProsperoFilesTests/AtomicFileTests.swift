import Foundation
import Glibc
import ProsperoFiles
import Testing

/// The one atomic file writer: whole files, private temporaries created exclusively and never through a link,
/// permissions kept or made private, nothing left behind after a failure.
@Suite("Atomic file writer")
struct AtomicFileTests {
    static func directory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-atomic-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    static func files(in dir: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }

    static func mode(_ path: String) -> mode_t {
        var s = stat()
        return lstat(path, &s) == 0 ? s.st_mode & 0o7777 : 0
    }

    static func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    @Test("a new file holds exactly the bytes, has mode 0600 and no temporary is left; a second write replaces it")
    func newFileIsPrivate() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/settings.json"
        try AtomicFile.write(Array("first".utf8), to: path)
        #expect(Self.contents(path) == "first")
        #expect(Self.mode(path) == 0o600)
        #expect(Self.files(in: dir) == ["settings.json"])
        try AtomicFile.write(Array("second, longer".utf8), to: path)
        #expect(Self.contents(path) == "second, longer")
        #expect(Self.mode(path) == 0o600)
        try AtomicFile.write([], to: path)
        #expect(Self.contents(path) == "")
        #expect(Self.files(in: dir) == ["settings.json"])
    }

    @Test("replacing an existing file keeps its permission bits (not its set-id bits)")
    func existingModeKept() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/preset.json"
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, 0o644) == 0)
        try AtomicFile.write(Array("new".utf8), to: path)
        #expect(Self.contents(path) == "new" && Self.mode(path) == 0o644)
        #expect(chmod(path, 0o4640) == 0)
        try AtomicFile.write(Array("newer".utf8), to: path)
        #expect(Self.contents(path) == "newer" && Self.mode(path) == 0o640)
    }

    @Test("the temporary names are hidden, 64 random bits, and never the target's")
    func randomNames() {
        let names = (0..<1000).map { _ in AtomicFile.randomTemporaryName(for: "settings.json") }
        #expect(Set(names).count == 1000)
        for name in names.prefix(50) {
            #expect(name.hasPrefix(".") && name.hasSuffix(".tmp") && name.utf8.count == 1 + 16 + 4, "\(name)")
            #expect(name.dropFirst().prefix(16).allSatisfy { $0.isHexDigit }, "\(name)")
        }
        // Every hex digit turns up in every place: no fixed part beyond the dot and the suffix.
        for place in 0..<16 {
            let digits = Set(names.map { Array($0)[1 + place] })
            #expect(digits.count == 16, "place \(place): \(digits.sorted())")
        }
        // A name near the 255-byte limit still has a temporary of its own length.
        #expect(AtomicFile.randomTemporaryName(for: String(repeating: "n", count: 250) + ".json").utf8.count == 21)
    }

    @Test("a symbolic link planted at the temporary's name is not written through: the next name is used, the link's target is untouched")
    func plantedLinkNotFollowed() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let victim = dir + "/victim"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        #expect(symlink(victim, dir + "/.planted.tmp") == 0)
        #expect(symlink(dir + "/nowhere", dir + "/.dangling.tmp") == 0)
        var offered = [".planted.tmp", ".dangling.tmp", ".fresh.tmp"]
        try AtomicFile.write(Array("settings".utf8), to: dir + "/settings.json", temporaryName: { _ in offered.removeFirst() })
        #expect(offered.isEmpty)
        #expect(Self.contents(victim) == "precious")
        #expect(!FileManager.default.fileExists(atPath: dir + "/nowhere"))
        #expect(Self.contents(dir + "/settings.json") == "settings" && Self.mode(dir + "/settings.json") == 0o600)
        #expect(Self.files(in: dir) == [".dangling.tmp", ".planted.tmp", "settings.json", "victim"])
    }

    @Test("a symbolic link at the target is replaced by the file, never written through")
    func linkAtTargetReplaced() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let victim = dir + "/victim"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        #expect(chmod(victim, 0o644) == 0)
        #expect(symlink(victim, dir + "/settings.json") == 0)
        try AtomicFile.write(Array("settings".utf8), to: dir + "/settings.json")
        #expect(Self.contents(victim) == "precious" && Self.mode(victim) == 0o644)
        var s = stat()
        #expect(lstat(dir + "/settings.json", &s) == 0 && (s.st_mode & S_IFMT) == S_IFREG)
        #expect(Self.contents(dir + "/settings.json") == "settings" && Self.mode(dir + "/settings.json") == 0o600)
    }

    @Test("when every name is taken, or the rename fails, the write throws naming the step, the old file stays whole and no temporary stays")
    func failuresLeaveNothing() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/settings.json"
        try AtomicFile.write(Array("old".utf8), to: path)
        // A directory at the only name offered: creating it fails (EEXIST, for root too), every time.
        try FileManager.default.createDirectory(atPath: dir + "/.taken.tmp", withIntermediateDirectories: false)
        var asked = 0
        let taken = #expect(throws: AtomicFileError.self) {
            try AtomicFile.write(Array("new".utf8), to: path, temporaryName: { _ in asked += 1; return ".taken.tmp" })
        }
        #expect(taken?.code == EEXIST && taken?.step.hasPrefix("create ") == true, "\(String(describing: taken))")
        #expect(taken?.description.contains(path) == true)
        #expect(asked > 1)
        #expect(Self.contents(path) == "old")
        #expect(Self.files(in: dir) == [".taken.tmp", "settings.json"])

        // A non-empty directory at the target: the rename fails and the written temporary is removed.
        let occupied = dir + "/occupied"
        try FileManager.default.createDirectory(atPath: occupied + "/inside", withIntermediateDirectories: true)
        let renamed = #expect(throws: AtomicFileError.self) { try AtomicFile.write(Array("new".utf8), to: occupied) }
        #expect(renamed?.step == "rename", "\(String(describing: renamed))")
        #expect(Self.files(in: dir) == [".taken.tmp", "occupied", "settings.json"])

        // No directory: nothing is created.
        let missing = #expect(throws: AtomicFileError.self) { try AtomicFile.write(Array("new".utf8), to: dir + "/absent/file") }
        #expect(missing?.code == ENOENT)
        #expect(Self.files(in: dir) == [".taken.tmp", "occupied", "settings.json"])
    }

    @Test("a path that names no file is refused; doubled slashes are harmless")
    func pathForms() throws {
        #expect(throws: AtomicFileError.self) { try AtomicFile.write([], to: "/tmp/") }
        #expect(throws: AtomicFileError.self) { try AtomicFile.write([], to: "/tmp/..") }
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try AtomicFile.write(Array("x".utf8), to: dir + "//double")
        #expect(Self.contents(dir + "/double") == "x")
        #expect(Self.files(in: dir) == ["double"])
    }
}

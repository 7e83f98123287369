import Foundation
import Glibc
import InstrumentSettings
import ProsperoSettingsFiles
import Testing

/// The settings file on disk: where it lives, atomic writes, hostile files kept aside, debounced saves.
@Suite("Settings file on disk")
struct ProsperoSettingsFileTests {
    static func directory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-settings-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    static func files(in dir: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }

    @Test("$XDG_CONFIG_HOME/prospero/settings.json when absolute, else ~/.config/prospero/settings.json")
    func location() {
        #expect(ProsperoSettingsFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/p"]) == "/x/cfg/prospero/settings.json")
        #expect(ProsperoSettingsFile.defaultPath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/p"]) == "/home/p/.config/prospero/settings.json")
        #expect(ProsperoSettingsFile.defaultPath(environment: ["HOME": "/home/p/"]) == "/home/p/.config/prospero/settings.json")
    }

    @Test("save makes the directories, writes the whole document and leaves no temporary file; load reads it back")
    func saveAndLoad() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = ProsperoSettingsFile(environment: ["XDG_CONFIG_HOME": dir])
        #expect(!file.load().found && file.load().warning == nil)
        var s = ProsperoSettings()
        s.hecate.bpm = 111
        try file.save(s)
        #expect(Self.files(in: dir + "/prospero") == ["settings.json"])
        let loaded = file.load()
        #expect(loaded.found && loaded.warning == nil && loaded.settings == s)
        s.hecate.bpm = 112
        try file.save(s)
        #expect(file.load().settings.hecate.bpm == 112)
        #expect(Self.files(in: dir + "/prospero") == ["settings.json"])
        #expect(try String(contentsOfFile: file.path, encoding: .utf8) == s.jsonText)
    }

    @Test("a write that fails leaves the old file whole (no partial file)")
    func failedWriteKeepsOld() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = ProsperoSettingsFile(environment: ["XDG_CONFIG_HOME": dir])
        var s = ProsperoSettings()
        s.hecate.bpm = 77
        try file.save(s)
        // A directory at every name the temporary may take: creating it fails (EEXIST, for root too).
        try FileManager.default.createDirectory(atPath: dir + "/prospero/.taken.tmp", withIntermediateDirectories: false)
        s.hecate.bpm = 78
        let error = #expect(throws: ProsperoSettingsFileError.self) { try file.save(s, temporaryName: { _ in ".taken.tmp" }) }
        #expect(error?.path == file.path && error?.reason == String(cString: strerror(EEXIST)), "\(String(describing: error))")
        #expect(file.load().settings.hecate.bpm == 77)
        #expect(try String(contentsOfFile: file.path, encoding: .utf8) == { var old = s; old.hecate.bpm = 77; return old.jsonText }())
        #expect(Self.files(in: dir + "/prospero") == [".taken.tmp", "settings.json"])
    }

    @Test("the file is written through a private temporary: a new file is 0600, an existing one keeps its mode, a planted link is not followed")
    func privateTemporary() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func mode(_ path: String) -> mode_t { var st = stat(); return lstat(path, &st) == 0 ? st.st_mode & 0o7777 : 0 }
        let file = ProsperoSettingsFile(environment: ["XDG_CONFIG_HOME": dir])
        var s = ProsperoSettings()
        s.hecate.bpm = 90
        try file.save(s)
        #expect(mode(file.path) == 0o600)
        #expect(mode(dir + "/prospero") == 0o700)
        // Another user's link at the name the temporary takes first: the save uses another name, the link's file is untouched.
        let victim = dir + "/victim"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        #expect(symlink(victim, dir + "/prospero/.planted.tmp") == 0)
        var names = [".planted.tmp", ".mine.tmp"]
        s.hecate.bpm = 91
        try file.save(s, temporaryName: { _ in names.removeFirst() })
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(file.load().settings.hecate.bpm == 91)
        #expect(Self.files(in: dir + "/prospero") == [".planted.tmp", "settings.json"])
        // A file the user opened to others stays so.
        #expect(chmod(file.path, 0o644) == 0)
        s.hecate.bpm = 92
        try file.save(s)
        #expect(mode(file.path) == 0o644 && file.load().settings.hecate.bpm == 92)
    }

    @Test("hostile files: defaults, a warning naming the field, the file kept aside", arguments: [
        (Array(#"{"version":1,"hecate":{"bpm":9999}}"#.utf8), "hecate.bpm"),
        (Array("\u{0}\u{1}garbage".utf8), "not a settings document"),
        ([UInt8](repeating: UInt8(ascii: "["), count: 100_000), "bytes; settings are at most"),
    ])
    func hostile(_ bytes: [UInt8], _ named: String) throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = ProsperoSettingsFile(path: dir + "/settings.json")
        try Data(bytes).write(to: URL(fileURLWithPath: file.path))
        let loaded = file.load(now: 1_700_000_000)
        #expect(!loaded.found && loaded.settings == ProsperoSettings())
        #expect(loaded.warning?.contains(named) == true, "\(loaded.warning ?? "")")
        #expect(loaded.warning?.contains("settings.json.bad-1700000000") == true)
        #expect(Self.files(in: dir) == ["settings.json.bad-1700000000"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/settings.json.bad-1700000000")) == Data(bytes))
    }

    @Test("the saver writes once the settings stop changing for its delay, and flushes at the end")
    func debounce() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = ProsperoSettingsFile(path: dir + "/settings.json")
        let saver = ProsperoSettingsSaver(file: file, saved: ProsperoSettings(), delay: 1)
        var s = ProsperoSettings()
        saver.offer(s, now: 0)
        #expect(Self.files(in: dir).isEmpty)  // unchanged: nothing to write
        for (i, t) in [0.1, 0.4, 0.7, 1.0].enumerated() {
            s.hecate.bpm = 100 + Double(i)
            saver.offer(s, now: t)  // a slider drag
            saver.offer(s, now: t + 0.2)
            #expect(Self.files(in: dir).isEmpty)
        }
        saver.offer(s, now: 2.0)
        #expect(file.load().settings.hecate.bpm == 103)
        s.hecate.bpm = 150
        saver.offer(s, now: 2.1)
        saver.flush()
        #expect(file.load().settings.hecate.bpm == 150)
    }
}

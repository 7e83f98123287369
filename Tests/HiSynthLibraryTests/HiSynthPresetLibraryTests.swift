import Foundation
import HiSynth
import HiSynthLibrary
import Testing

@Suite struct HiSynthPresetLibraryTests {
    /// A fresh library directory under the temporary directory, removed by the caller.
    static func scratch() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("hisynth-library-\(UUID().uuidString)", isDirectory: true)
    }

    @Test func defaultDirectoryFollowsXDG() {
        #expect(HiSynthPresetLibrary.defaultDirectory(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"]).path
            == "/data/prospero/hisynth")
        #expect(HiSynthPresetLibrary.defaultDirectory(environment: ["HOME": "/home/u"]).path == "/home/u/.local/share/prospero/hisynth")
        // The XDG spec ignores a relative XDG_DATA_HOME.
        #expect(HiSynthPresetLibrary.defaultDirectory(environment: ["XDG_DATA_HOME": "rel", "HOME": "/home/u"]).path
            == "/home/u/.local/share/prospero/hisynth")
    }

    @Test func savedPresetsListAfterTheFactoryOnesAndReadBackExactly() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = HiSynthPresetLibrary(directory: directory)
        #expect(library.allPresets() == HiSynthPreset.factory)  // no directory yet: the 15 factory presets

        var mine = HiSynthPreset.factory[9]  // Spring Pluck, with its −0.0 pitch
        mine.name = "My/Pluck: 🎹"
        let file = try library.save(mine)
        #expect(file.deletingLastPathComponent().standardizedFileURL == directory.standardizedFileURL)
        #expect(file.lastPathComponent == "My%2FPluck: 🎹.json")
        var other = HiSynthPreset.factory[0]
        other.name = ".hidden"
        try library.save(other)

        let all = library.allPresets()
        #expect(all.count == 17 && Array(all.prefix(15)) == HiSynthPreset.factory)
        let loaded = try #require(all.first { $0.name == mine.name })
        #expect(try loaded.encoded() == (try mine.encoded()))
        #expect(loaded.oscillators[1].pitch.bitPattern == 0x8000)
        // No temporary files are left behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.sorted() == ["%2Ehidden.json", "My%2FPluck: 🎹.json"])
        // Written through the shared atomic writer: a new preset is the user's own.
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)

        // Saving again under the same name replaces the file.
        mine.envelope.release = 2
        try library.save(mine)
        #expect(library.userPresets().presets.first { $0.name == mine.name }?.envelope.release == 2)
        #expect(library.userPresets().presets.count == 2)
        #expect(try library.remove(named: mine.name))
        #expect(library.userPresets().presets.map(\.name) == [".hidden"])
    }

    @Test func factoryNamesAndBadFilesAreReported() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = HiSynthPresetLibrary(directory: directory)
        #expect(throws: HiSynthPresetLibraryError.factoryName("Init")) { try library.save(HiSynthPreset.initial) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("{\"name\": 3}".utf8).write(to: directory.appendingPathComponent("broken.json"))
        let listed = library.userPresets()
        #expect(listed.presets.isEmpty)
        #expect(listed.problems.count == 1)
        #expect(listed.problems.first?.description.contains("broken.json") == true)
        #expect(library.allPresets().count == 15)
    }

    @Test func resolvesFileThenNameThenString() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = HiSynthPresetLibrary(directory: directory)
        var user = HiSynthPreset.factory[2]
        user.name = "Warm Bells"
        try library.save(user)

        #expect(try library.resolve("Dream Pad").name == "Dream Pad")
        #expect(try library.resolve("dream pad").name == "Dream Pad")
        #expect(try library.resolve("WARM BELLS") == user)
        #expect(try library.resolve(HiSynthPreset.factoryStrings[4]) == HiSynthPreset.factory[4])

        // A file wins over a name: a file called "Init" in the working directory holding another preset.
        let jsonFile = directory.appendingPathComponent("preset-file.json")
        try Data(HiSynthPreset.factory[6].json().utf8).write(to: jsonFile)
        #expect(try library.resolve(jsonFile.path) == HiSynthPreset.factory[6])
        let stringFile = directory.appendingPathComponent("Init")
        try Data((" " + HiSynthPreset.factoryStrings[11] + "\n").utf8).write(to: stringFile)
        #expect(try library.resolve(stringFile.path) == HiSynthPreset.factory[11])

        #expect(throws: HiSynthPresetLibraryError.notFound(argument: "No Such Pad", stringError: nil)) {
            try library.resolve("No Such Pad")
        }
        #expect(throws: HiSynthPresetLibraryError.notFound(argument: "a:b", stringError: .tooFewFields(found: 2))) {
            try library.resolve("a:b")
        }
        let broken = directory.appendingPathComponent("broken.txt")
        try Data("not a preset".utf8).write(to: broken)
        #expect(throws: HiSynthPresetLibraryError.badPresetFile(path: broken.path, .tooFewFields(found: 1))) {
            try library.resolve(broken.path)
        }
    }

    @Test func fileNamesAreDistinctAndStayInTheDirectory() {
        let names = ["a/b", "a%2Fb", "..", ".", "", "x\ny", "plain"]
        let files = names.map(HiSynthPresetLibrary.fileName(for:))
        #expect(Set(files).count == names.count)
        for file in files { #expect(!file.contains("/") && !file.hasPrefix(".")) }
        #expect(HiSynthPresetLibrary.fileName(for: "plain") == "plain.json")
    }
}

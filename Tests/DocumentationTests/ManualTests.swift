import Foundation
import ProsperoTestSupport
import Testing

/// The manual as a reader uses it: every relative link and picture in the README, CONTRIBUTING and `docs/` opens a
/// file that is there (and a heading the link names), every script it names exists, and every `prospero` command
/// line it shows names real subcommands and options (each as `--help` lists it), so that a rename cannot leave the
/// manual behind. The pages name only files that are there, and carry no issue numbers or commit hashes.
@Suite("The manual", .ownThread)
struct ManualTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var pages: [URL] {
        let docs = root.appendingPathComponent("docs")
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: docs.path)) ?? []
        return [root.appendingPathComponent("README.md"), root.appendingPathComponent("CONTRIBUTING.md")]
            + names.filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) }
    }

    static func text(_ page: URL) throws -> String { try String(contentsOf: page, encoding: .utf8) }

    @Test("every relative link and picture opens a file that is there, at a heading it has")
    func linksResolve() throws {
        #expect(Self.pages.count > 10)
        var broken: [String] = []
        for page in Self.pages {
            let text = try Self.text(page)
            for target in ManualText.links(in: text) where !target.contains("://") && !target.hasPrefix("mailto:") {
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(parts[0])
                guard FileManager.default.fileExists(atPath: file.path) else {
                    broken.append("\(page.lastPathComponent): \(target) (no such file)")
                    continue
                }
                if parts.count == 2, file.pathExtension == "md" {
                    let anchors = ManualText.anchors(in: try Self.text(file))
                    if !anchors.contains(parts[1]) { broken.append("\(page.lastPathComponent): \(target) (no such heading)") }
                }
            }
        }
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    @Test("every script the pages name is in scripts/ (a command there can be run)")
    func scriptsExist() throws {
        var missing: [String] = []
        for page in Self.pages {
            for script in ManualText.scripts(in: try Self.text(page)) {
                let path = Self.root.appendingPathComponent(script).path
                // A command (no extension) is run as it is; a module (.py) by its command's interpreter.
                let runnable = script.contains(".") ? FileManager.default.fileExists(atPath: path)
                    : FileManager.default.isExecutableFile(atPath: path)
                if !runnable { missing.append("\(page.lastPathComponent): \(script)") }
            }
        }
        #expect(missing.isEmpty, "\(missing.joined(separator: "\n"))")
    }

    @Test("every file a page names in a code span is in the repository")
    func namedFilesExist() throws {
        var missing: [String] = []
        for page in Self.pages {
            for path in ManualText.repositoryPaths(in: try Self.text(page))
            where !FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path) {
                missing.append("\(page.lastPathComponent): \(path)")
            }
        }
        #expect(missing.isEmpty, "\(missing.joined(separator: "\n"))")
    }

    @Test("the README and docs cite no issue number or commit hash")
    func noIssueNumbersOrHashes() throws {
        for page in Self.pages where page.lastPathComponent != "CONTRIBUTING.md" {
            let cited = try Self.text(page).split(separator: "\n").filter { line in
                line.firstRange(of: #/#[0-9]{2}\b|\b[0-9a-f]{7,40}\b/#) != nil
            }
            #expect(cited.isEmpty, "\(page.lastPathComponent): \(cited)")
        }
    }

    /// The portable modules with an API reference landing page (DocC) and a test of its example.
    static let landingModules = ["Horatio", "Touchstone", "Ariel", "Enobarbus", "Oberon", "Hecate", "HiSynth", "Haptics"]

    @Test("every portable module's landing page shows an example its test runs as written")
    func landingExamplesAreTested() throws {
        for module in Self.landingModules {
            let page = Self.root.appendingPathComponent("Sources/\(module)/\(module).docc/\(module).md")
            let test = Self.root.appendingPathComponent("Tests/\(module)Tests/\(module)LandingExampleTests.swift")
            guard FileManager.default.fileExists(atPath: page.path) else {
                Issue.record("\(module): no landing page at Sources/\(module)/\(module).docc/\(module).md")
                continue
            }
            let example = ManualText.firstSwiftBlock(in: try Self.text(page))
            #expect(!example.isEmpty, "\(module): the landing page has no ```swift example")
            guard FileManager.default.fileExists(atPath: test.path) else {
                Issue.record("\(module): no test of the example at Tests/\(module)Tests/\(module)LandingExampleTests.swift")
                continue
            }
            let missing = ManualText.firstLineMissing(example, inOrderIn: try Self.text(test))
            #expect(missing == nil, "\(module): the example's line `\(missing ?? "")` is not in its test, in order")
        }
    }

    @Test("every prospero command line shown names real subcommands and options")
    func commandLinesMatchTheHelp() throws {
        let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable")
        let help = HelpCache(prospero: prospero)
        var wrong: [String] = []
        var checked = 0
        for page in Self.pages {
            for line in ManualText.commandLines(in: try Self.text(page)) {
                let words = ManualText.words(line)
                guard words.first == "prospero" else { continue }
                checked += 1
                // The longest run of words that are subcommands, each listed by the one before.
                var path: [String] = []
                var rest = words.dropFirst()
                while let next = rest.first, try help.subcommands(of: path).contains(next) {
                    path.append(next)
                    rest = rest.dropFirst()
                }
                // A placeholder (`prospero SUBCOMMAND --help`) stands for any.
                if let first = rest.first, first.allSatisfy({ $0.isUppercase || $0 == "_" }) { continue }
                if path.isEmpty, let first = rest.first, !first.hasPrefix("-") {
                    wrong.append("\(page.lastPathComponent): `\(line)`: no subcommand \(first)")
                    continue
                }
                let text = try help.help(of: path)
                for word in rest where word.hasPrefix("-") && word != "-" {
                    let option = String(word.split(separator: "=", maxSplits: 1)[0])
                    if !ManualText.help(text, lists: option) {
                        wrong.append("\(page.lastPathComponent): `\(line)`: prospero \(path.joined(separator: " ")) has no \(option)")
                    }
                }
            }
        }
        #expect(checked > 50, "only \(checked) command lines found")
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
    }

    /// Each command's `--help`, asked once.
    final class HelpCache {
        let prospero: URL
        var texts: [[String]: String] = [:]
        init(prospero: URL) { self.prospero = prospero }

        func help(of path: [String]) throws -> String {
            if let text = texts[path] { return text }
            let result = try CLIProcess.run(prospero, path + ["--help"])
            let text = result.output + result.error
            texts[path] = text
            return text
        }

        /// The SUBCOMMANDS section's names.
        func subcommands(of path: [String]) throws -> Set<String> {
            let text = try help(of: path)
            guard let start = text.range(of: "SUBCOMMANDS:\n") else { return [] }
            var names: Set<String> = []
            for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
                if line.isEmpty { continue }
                guard line.hasPrefix("  "), !line.hasPrefix("  See ") else { break }
                let trimmed = line.drop { $0 == " " }
                // Names sit two spaces in; descriptions run on further in.
                if line.prefix(2) == "  " && line.dropFirst(2).first != " " {
                    names.insert(String(trimmed.prefix { $0 != " " }))
                }
            }
            return names
        }
    }
}

/// What ``ManualTests`` reads out of a Markdown page.
enum ManualText {
    /// Link and picture targets: `[text](target)`, `![alt](target "title")` and `<img src="target">`, outside code.
    static func links(in text: String) -> [String] {
        var targets: [String] = []
        for line in prose(text) {
            for match in line.matches(of: #/\]\(([^)\s]+)(\s+"[^"]*")?\)/#) { targets.append(String(match.1)) }
            for match in line.matches(of: #/<img[^>]*\ssrc="([^"]+)"/#) { targets.append(String(match.1)) }
        }
        return targets
    }

    /// GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as hyphens; a repeated
    /// heading gets -1, -2 and so on.
    static func anchors(in text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        for (line, fenced) in lines(of: text) {
            guard !fenced, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.drop { $0 == " " }
            var slug = ""
            for c in title.lowercased() {
                if c.isLetter || c.isNumber || c == "-" || c == "_" { slug.append(c) } else if c == " " { slug.append("-") }
            }
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }

    /// Paths under `scripts/` named anywhere on the page.
    static func scripts(in text: String) -> Set<String> {
        Set(text.matches(of: #/(^|[^\w/.])(scripts/[A-Za-z0-9_./-]*[A-Za-z0-9_])/#).map { String($0.output.2) })
    }

    /// Paths into the repository the page names in code spans (`Sources/…`, `Tests/…`, `examples/…`, `docs/…`,
    /// `scripts/…`, `.ci/…`); a pattern (`*`, `<module>`) is cut to the folder before it.
    static func repositoryPaths(in text: String) -> Set<String> {
        var paths: Set<String> = []
        for match in text.matches(of: #/`((Sources|Tests|examples|docs|scripts|\.ci)/[^`\s]*)`/#) {
            var path = String(match.1)
            if let cut = path.firstIndex(where: { $0 == "*" || $0 == "<" }) { path = String(path[..<cut]) }
            while path.hasSuffix("/") && path.count > 1 { path.removeLast() }
            paths.insert(path)
        }
        return paths
    }

    /// `prospero …` command lines: the lines of fenced blocks and the inline code spans that start with `prospero` or
    /// `swift run -c release prospero`, with that prefix as `prospero`, a comment, a pipe or a redirection cut off.
    static func commandLines(in text: String) -> [String] {
        var candidates: [String] = []
        for (line, fenced) in lines(of: text) {
            if fenced {
                candidates.append(String(line))
            } else {
                for match in line.matches(of: #/`([^`]+)`/#) { candidates.append(String(match.1)) }
            }
        }
        return candidates.compactMap { line in
            var command = Substring(line).drop(while: { $0 == " " }).trimmingPrefix("$ ")
            if command.hasPrefix("swift run -c release prospero") { command = command.dropFirst("swift run -c release ".count) }
            guard command.hasPrefix("prospero ") || command == "prospero" else { return nil }
            for cut in [" #", " |", " >", " &&", " 2>"] {
                if let range = command.range(of: cut) { command = command[..<range.lowerBound] }
            }
            return String(command)
        }
    }

    /// A command line's words, as a shell splits them (single and double quotes).
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var word = "", quote: Character? = nil, inWord = false
        for c in line {
            if let q = quote {
                if c == q { quote = nil } else { word.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
                inWord = true
            } else if c == " " {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(c)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// Whether a `--help` text lists `option` (`--midi-out`, `-o`) as an option.
    static func help(_ text: String, lists option: String) -> Bool {
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("-") else { continue }
            // "-o, --output <output>   The WAV file", "--mirror/--no-mirror", "--midi-out <port>": the names end where
            // the description starts, two spaces on.
            let names = trimmed.range(of: "  ").map { trimmed[..<$0.lowerBound] } ?? trimmed
            for name in names.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "/" }) where name == option { return true }
        }
        return false
    }

    /// The lines of the page's first ```swift fenced block, leading spaces trimmed, empty lines left out.
    static func firstSwiftBlock(in text: String) -> [String] {
        var lines: [String] = []
        var inside = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if inside {
                if trimmed.hasPrefix("```") { return lines }
                if !trimmed.isEmpty { lines.append(String(trimmed)) }
            } else if trimmed.hasPrefix("```swift") {
                inside = true
            }
        }
        return lines
    }

    /// The first of `lines` that is not among `text`'s lines (leading spaces trimmed) after the lines
    /// before it, or nil when all of them appear there in order.
    static func firstLineMissing(_ lines: [String], inOrderIn text: String) -> String? {
        var rest = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.drop { $0 == " " } }[...]
        for line in lines {
            guard let found = rest.firstIndex(where: { $0 == line }) else { return line }
            rest = rest[(found + 1)...]
        }
        return nil
    }

    /// The page's lines outside fenced code blocks, with inline code spans removed.
    static func prose(_ text: String) -> [String] {
        lines(of: text).filter { !$0.fenced }.map { String($0.line).replacing(#/`[^`]*`/#, with: "") }
    }

    /// The page's lines, each marked inside a fenced code block or not; the fences themselves (``` at any
    /// indent, as in a list item) are left out.
    static func lines(of text: String) -> [(line: Substring, fenced: Bool)] {
        var result: [(line: Substring, fenced: Bool)] = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.drop(while: { $0 == " " }).hasPrefix("```") {
                fenced.toggle()
                continue
            }
            result.append((line, fenced))
        }
        return result
    }
}

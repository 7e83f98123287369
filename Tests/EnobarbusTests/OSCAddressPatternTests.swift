import Enobarbus
import Testing

@Suite struct OSCAddressPatternTests {
    @Test(arguments: [
        ("/a/b", "/a/b", true), ("/a/b", "/a/c", false), ("/a/b", "/a/b/c", false),
        ("/a/?", "/a/x", true), ("/a/?", "/a/xy", false), ("/a/?", "/a/", false),
        ("/a/*", "/a/anything", true), ("/a/*", "/a/", true), ("/a/*", "/a/b/c", false),
        ("/*/multixy*/*", "/1/multixy1/3", true), ("/*/multixy*/*", "/1/xy1/3", false),
        ("/a*c", "/abbbc", true), ("/a*c", "/abbbd", false), ("/a*b*c", "/aXbYc", true),
        ("/[abc]", "/b", true), ("/[abc]", "/d", false), ("/[a-c]x", "/cx", true), ("/[!a-c]x", "/cx", false),
        ("/[!a-c]x", "/dx", true), ("/{foo,bar}/z", "/bar/z", true), ("/{foo,bar}/z", "/baz/z", false),
        ("/{foo,bar}*", "/food", true), ("/x{}", "/x", true), ("/a?c", "/a/c", false),
    ])
    func matches(pattern: String, address: String, expected: Bool) throws {
        #expect(try OSCAddressPattern(pattern).matches(address) == expected)
    }

    @Test func invalidPatterns() {
        #expect(throws: OSCAddressPatternError.missingLeadingSlash) { try OSCAddressPattern("a") }
        #expect(throws: OSCAddressPatternError.unclosedBracket(offset: 1)) { try OSCAddressPattern("/[ab") }
        #expect(throws: OSCAddressPatternError.unclosedBrace(offset: 1)) { try OSCAddressPattern("/{a/b}") }
    }
}

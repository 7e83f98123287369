import LiveHost
import Testing

@Suite struct SenderAllowListTests {
    @Test func cidrNetworksAcceptTheirAddressesOnly() throws {
        let list = try SenderAllowList(parsing: ["192.168.1.0/24", "10.0.0.7"])
        #expect(list.accepts("192.168.1.0"))
        #expect(list.accepts("192.168.1.255"))
        #expect(!list.accepts("192.168.2.1"))
        #expect(list.accepts("10.0.0.7"))
        #expect(!list.accepts("10.0.0.8"))
        #expect(list.accepts("::ffff:192.168.1.9"), "IPv4-mapped IPv6 counts as IPv4")
        #expect(!list.accepts("::1"))
        #expect(!list.accepts("not an address"))
        #expect(list.description == "192.168.1.0/24, 10.0.0.7/32")
    }

    @Test func hostBitsAreClearedAndPrefixZeroIsEverything() throws {
        let list = try SenderAllowList(parsing: ["172.16.5.9/12"])
        #expect(list.networks == [SenderAllowList.Network(address: 0xAC10_0000, prefixLength: 12)])
        #expect(list.accepts("172.31.255.1"))
        #expect(!list.accepts("172.32.0.1"))
        #expect(try SenderAllowList(parsing: ["0.0.0.0/0"]).accepts("8.8.8.8"))
    }

    @Test func loopbackAndAny() throws {
        #expect(SenderAllowList.loopback.accepts("127.0.0.1"))
        #expect(SenderAllowList.loopback.accepts("127.0.0.2"))
        #expect(SenderAllowList.loopback.accepts("::1"))
        #expect(!SenderAllowList.loopback.accepts("192.168.1.2"))
        #expect(try SenderAllowList(parsing: ["any"]).accepts("203.0.113.5"))
        #expect(try SenderAllowList(parsing: ["127.0.0.1/32"]).accepts("127.0.0.2") == false)
    }

    @Test(arguments: ["", "1.2.3", "1.2.3.4.5", "256.1.1.1", "1.2.3.4/33", "1.2.3.4/-1", "1.2.3.4/", "+1.2.3.4", "a.b.c.d", "1..2.3", "1.2.3.4/0x1"])
    func malformedEntriesAreTypedErrors(_ text: String) {
        #expect(throws: SenderAllowListError.self) { try SenderAllowList(parsing: [text]) }
    }

    @Test func anEmptyListIsRefused() {
        #expect(throws: SenderAllowListError.empty) { try SenderAllowList(parsing: []) }
    }
}

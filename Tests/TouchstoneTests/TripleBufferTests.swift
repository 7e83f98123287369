import Foundation
import Testing
import Touchstone

@Suite struct TripleBufferTests {
    @Test func readerSeesOnlyNewerValuesAndFinallyTheLast() async {
        let buffer = TripleBuffer(initial: 0)
        let writes = 200_000
        let writer = Thread {
            for i in 1...writes { buffer.write(i) }
        }
        writer.start()
        var last = 0
        var reads = 0
        while last < writes {
            let (value, isNew) = buffer.read()
            #expect(value >= last, "value went backwards")
            if isNew { #expect(value > last || value == last) }
            last = value
            reads += 1
            if reads > 50_000_000 { break }
        }
        #expect(last == writes)
        #expect(buffer.read().isNew == false)
    }

    @Test func singleThreadSemantics() {
        let buffer = TripleBuffer(initial: "start")
        #expect(buffer.read() == ("start", false))
        buffer.write("a")
        buffer.write("b")
        #expect(buffer.read() == ("b", true))
        #expect(buffer.read() == ("b", false))
        buffer.write("c")
        #expect(buffer.read() == ("c", true))
    }
}

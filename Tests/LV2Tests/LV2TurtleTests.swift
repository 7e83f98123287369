import ProsperoLV2
import Testing

@Suite struct LV2TurtleTests {
    @Test func turtleNumbersReadBack() {
        #expect(LV2Turtle.number(0.75) == "0.75")
        #expect(LV2Turtle.number(22050) == "22050.0")
    }
}

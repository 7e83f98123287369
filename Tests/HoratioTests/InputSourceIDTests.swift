import Horatio
import Testing

@Suite struct InputSourceIDTests {
    @Test func namesRoundTrip() {
        for id in InputSourceID.all {
            #expect(InputSourceID(id.description) == id)
        }
        #expect(InputSourceID.all.map(\.description) == [
            "hand0", "hand1", "hand2", "hand3", "touch0", "touch1", "touch2", "touch3", "face",
        ])
    }

    @Test func rejectsOutOfRangeSlotsAndJunk() {
        for text in ["hand4", "hand-1", "touch", "touch10", "Face", "", "hand01", "foot0"] {
            #expect(InputSourceID(text) == nil, "\(text) should not parse")
        }
        #expect(InputSourceID.validHand(4) == nil)
        #expect(InputSourceID.validTouch(-1) == nil)
    }

    @Test func denseIndicesAreDistinctAndCoverTheTable() {
        let indices = InputSourceID.all.map(\.denseIndex)
        #expect(indices == Array(0..<InputSourceID.count))
    }
}

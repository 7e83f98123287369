import Foundation
import ProsperoJACK
import ProsperoTestSupport
import Testing

/// The input delay's option: its forms, its default and its refusals. What each period needs of it is measured
/// live by `prospero-jack-bench input-delay` (docs/benchmarks.md).
extension JACKClientTests {
    /// `--input-delay` takes frames, periods or both; the default is one period and the measured margin; a bad
    /// value is refused before anything starts, with the forms it takes named.
    @Test(.enabled(if: TestPeers.prospero != nil))
    func inputDelayOptionNamesItsFormsAndDefault() throws {
        let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable")
        let help = try TestPeers.runBlocking(prospero.path, ["hands", "--help"], timeout: 30)
        #expect(help.output.contains("default: 1p+\(JACKInputClock.Delay.defaultMarginFrames)"), "\(help.output)")
        for bad in ["1p+x", "1p+", "17p", "1p+2p", "p"] {
            let result = try TestPeers.runBlocking(prospero.path, ["hecate", "--input-delay", bad], timeout: 30)
            #expect(result.status != 0 && result.output.contains("--input-delay must be") && result.output.contains("'\(bad)'"),
                    "\(bad): \(result.output)")
        }
        #expect(JACKInputClock.Delay.standard.frames(period: 64) == 64 + JACKInputClock.Delay.defaultMarginFrames)
        #expect(JACKInputClock.Delay.periodsAndFrames(periods: 2, frames: 5).frames(period: 128) == 261)
        #expect(JACKInputClock.Delay.standard.description == "1 period + \(JACKInputClock.Delay.defaultMarginFrames) frames")
    }
}

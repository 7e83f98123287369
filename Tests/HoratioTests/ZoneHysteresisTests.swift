import Horatio
import ProsperoTestSupport
import Testing

@Suite struct ZoneHysteresisTests {
    @Test func rawZonesMatchThePositionToNoteMath() {
        #expect(ZoneHysteresis.zone(for: 0, zoneCount: 8) == 0)
        #expect(ZoneHysteresis.zone(for: 0.124_999, zoneCount: 8) == 0)
        #expect(ZoneHysteresis.zone(for: 0.125, zoneCount: 8) == 1)
        #expect(ZoneHysteresis.zone(for: 1, zoneCount: 8) == 7)  // min(Int(8), 7)
        #expect(ZoneHysteresis.zone(for: 1.7, zoneCount: 8) == 7)
        #expect(ZoneHysteresis.zone(for: -3, zoneCount: 8) == 0)
        #expect(ZoneHysteresis.zone(for: .nan, zoneCount: 8) == 0)
        #expect(ZoneHysteresis.boundaries(zoneCount: 4) == [0, 0.25, 0.5, 0.75, 1])
    }

    @Test func changesZoneOnlyPastTheMargin() {
        // 8 zones of width 0.125; margin 0.25 of a zone = 0.03125.
        var z = ZoneHysteresis(zoneCount: 8, margin: 0.25)
        #expect(z.update(0.10) == 0)
        #expect(z.update(0.15) == 0)  // past the 0.125 boundary but within 0.15625
        #expect(z.update(0.156) == 0)
        #expect(z.update(0.157) == 1)  // beyond 0.125 + 0.03125
        #expect(z.update(0.10) == 1)  // back inside the lower margin (> 0.09375)
        #expect(z.update(0.094) == 1)
        #expect(z.update(0.093) == 0)
        #expect(z.update(0.9) == 7)  // a real jump goes straight to its zone
        #expect(z.update(.nan) == 7)
        z.reset()
        #expect(z.current == nil)
        #expect(z.update(0.13) == 1)
    }

    @Test func aJitteringHandOnABoundaryStaysInOneZone() {
        var z = ZoneHysteresis(zoneCount: 12, margin: 0.25)
        var rng = SeededRandom(seed: 7)
        let boundary = 5.0 / 12
        var zones = Set<Int>()
        for _ in 0..<10_000 {
            let jitter = (rng.uniform() - 0.5) * 0.04  // ±0.02, under the 0.0208 margin
            zones.insert(z.update(boundary + jitter))
        }
        #expect(zones.count == 1)

        var plain = Set<Int>()
        for _ in 0..<1_000 {
            plain.insert(ZoneHysteresis.zone(for: boundary + (rng.uniform() - 0.5) * 0.04, zoneCount: 12))
        }
        #expect(plain.count == 2)  // without hysteresis the same jitter flickers
    }

    @Test func zeroMarginIsPlainZoning() {
        var z = ZoneHysteresis(zoneCount: 4, margin: 0)
        for p in stride(from: 0.0, through: 1.0, by: 0.01) {
            #expect(z.update(p) == ZoneHysteresis.zone(for: p, zoneCount: 4))
        }
    }
}

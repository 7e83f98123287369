/// TouchOSC Mk1 Multi-XY pads: `/<page>/multixy<k>/<n> ff` (x, y in the control's range) and
/// `/<page>/multixy<k>/<n>/z f` (1 on touch, 0 on release).
///
/// Touch `n` (1-based, as TouchOSC numbers them) goes to touch slot n − 1; touches 5 and up are
/// ignored. x and y are mapped from `range` to 0…1; `invertY` flips y for layouts whose y grows upward.
public struct TouchOSCAdapter: Sendable {
    public var range: ClosedRange<Float>
    public var invertY: Bool

    public init(range: ClosedRange<Float> = 0...1, invertY: Bool = false) {
        self.range = range
        self.invertY = invertY
    }

    public mutating func handle(_ message: OSCMessage, into frame: inout FrameAssembly) -> OSCAdapterResult? {
        let parts = message.address.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        // "", page, multixyK, n [, z]
        guard parts.count == 4 || parts.count == 5, parts[0].isEmpty,
              parts[2].starts(with: "multixy".utf8) else { return nil }
        guard let n = Int(String(decoding: parts[3], as: UTF8.self)) else { return nil }
        let a = message.arguments
        if parts.count == 5 {
            guard parts[4].elementsEqual("z".utf8) else { return nil }
            guard a.count == 1, let z = a[0].floatValue else { return .rejected("TouchOSC …/z needs one number") }
            if z < 0.5 { frame.endTouch(slot: n - 1) }
            return .accepted
        }
        guard a.count == 2, let x = a[0].floatValue, let y = a[1].floatValue else {
            return .rejected("TouchOSC multixy touch needs x and y")
        }
        guard (1...4).contains(n) else { return .accepted }
        let span = range.upperBound - range.lowerBound
        guard span > 0 else { return .rejected("TouchOSC range is empty") }
        let nx = (x - range.lowerBound) / span
        var ny = (y - range.lowerBound) / span
        if invertY { ny = 1 - ny }
        frame.setTouch(slot: n - 1, x: nx, y: ny)
        return .accepted
    }
}

import Horatio

/// The zones hands play, for the router and for display from the same math.
///
/// The zone list is the scale's notes inside the note range, lowest at the bottom of the
/// screen. A position maps to a zone as `min(Int(height × count), count − 1)` with
/// height = 1 − y (the seed's `positionToNote`), so fret lines drawn at `screenBoundaries`
/// are exactly where the router changes note (before hysteresis).
///
///     let frets = FretLayout(key: .c, scale: .majorPentatonic, range: 48...72)
///     frets.notes          // [48, 50, 52, 55, 57, 60, 62, 64, 67, 69, 72]
///     frets.zone(forScreenY: 0.1)   // Int(0.9 × 11) = 9 → note 69 (A4)
public struct FretLayout: Sendable, Hashable {
    public let key: MusicalKey
    public let scale: Scale
    /// The notes of the zones, ascending (zone 0 first). Never empty.
    public let notes: [Int]
    /// Labels leave at most this many zones in a row unlabelled.
    public static let maximumUnlabelledRun = 2

    /// Nil when no scale note lies in `range`.
    public init?(key: MusicalKey, scale: Scale, range: ClosedRange<Int>) {
        let notes = ScaleQuantizer(key: key, scale: scale).notes(in: range)
        guard !notes.isEmpty else { return nil }
        self.key = key
        self.scale = scale
        self.notes = notes
    }

    /// The layout of a router's settings (which are validated, so never empty).
    public init(_ settings: MIDIRouterSettings) {
        self.init(key: settings.key, scale: settings.scale, range: settings.lowestNote...settings.highestNote)!
    }

    public var zoneCount: Int { notes.count }

    /// Zone for a height (0 bottom … 1 top), without hysteresis.
    public func zone(forHeight height: Double) -> Int { ZoneHysteresis.zone(for: height, zoneCount: zoneCount) }

    /// Zone for a screen y (0 top … 1 bottom), without hysteresis.
    public func zone(forScreenY y: Double) -> Int { zone(forHeight: 1 - y) }

    /// Zone boundaries as screen y, top (0) to bottom (1): `zoneCount + 1` fret lines.
    public var screenBoundaries: [Double] { ZoneHysteresis.boundaries(zoneCount: zoneCount).reversed().map { 1 - $0 } }

    /// Every zone with its edges and label, bottom zone first.
    public var frets: [Fret] {
        let labels = self.labels
        let width = 1 / Double(zoneCount)
        return notes.indices.map { k in
            Fret(zone: k, note: notes[k], top: 1 - Double(k + 1) * width, bottom: 1 - Double(k) * width, label: labels[k])
        }
    }

    /// The label of each zone (nil where none): roots, fifths and thirds always, then gap-fill
    /// labels so no run of unlabelled zones is longer than `maximumUnlabelledRun`.
    public var labels: [FretLabel?] {
        let members = scale.pitchClasses(in: key)
        let tonic = key.rawValue
        let third = members.containsSemitone(tonic + 4) ? 4 : members.containsSemitone(tonic + 3) ? 3 : nil
        var labels: [FretLabel?] = notes.map { note in
            let above = ((note - tonic) % 12 + 12) % 12
            let role: FretLabelRole? = above == 0 ? .root : above == 7 ? .fifth : above == third ? .third : nil
            return role.map { FretLabel(role: $0, name: name(note)) }
        }
        var runStart = 0
        while runStart < labels.count {
            guard labels[runStart] == nil else { runStart += 1; continue }
            var runEnd = runStart
            while runEnd < labels.count && labels[runEnd] == nil { runEnd += 1 }
            // Label every third zone of a long run, so at most two unlabelled zones stay together.
            var k = runStart + Self.maximumUnlabelledRun
            while k < runEnd {
                labels[k] = FretLabel(role: .gapFill, name: name(notes[k]))
                k += Self.maximumUnlabelledRun + 1
            }
            runStart = runEnd
        }
        return labels
    }

    private func name(_ note: Int) -> String {
        guard let pitch = Pitch(note) else { return "\(note)" }
        return pitch.name(as: key.spell(pitch.pitchClass))
    }
}

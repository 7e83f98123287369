import Horatio

/// Every key and chord's `DroneVoicing` as frequencies, computed once so a chord or key change on the
/// audio thread is a table read (no `pow`, no array of tones).
///
/// 12 keys × 7 degrees rows; each row holds the six chord tones, the sub-bass, the bass voice, the
/// drone root and the drone fifth, in Hz (A4 = 440), and the tones' and bass's MIDI notes.
final class DroneVoicingTable {
    /// One row: where each voice sits for one key and chord, in Hz.
    struct Row {
        /// Root, third, fifth, seventh, ninth, octave in lanes 0…5; lanes 6 and 7 are 0 Hz (the
        /// tone banks' unused lanes stand still).
        var tones: SIMD8<Float>
        var sub: Float
        var bass: Float
        var droneRoot: Float
        var droneFifth: Float
        /// MIDI notes: the six chord tones in lanes 0…5, the bass voice in lane 6 (lane 7: −1).
        var notes: SIMD8<Int32>
    }

    private let rows: UnsafeMutablePointer<Row>

    init() {
        rows = .allocate(capacity: 12 * 7)
        for key in MusicalKey.allCases {
            for degree in NashvilleDegree.allCases {
                let v = DroneVoicing(key: key, degree: degree)
                var tones = SIMD8<Float>.zero
                var notes = SIMD8<Int32>(repeating: -1)
                for t in 0..<6 {
                    tones[t] = Self.frequency(v.tones[t])
                    notes[t] = Int32(v.tones[t])
                }
                notes[6] = Int32(v.bass)
                (rows + Self.index(key: key.rawValue, degree: degree.rawValue - 1)).initialize(to: Row(
                    tones: tones, sub: Self.frequency(v.sub), bass: Self.frequency(v.bass),
                    droneRoot: Self.frequency(v.droneRoot), droneFifth: Self.frequency(v.droneFifth), notes: notes))
            }
        }
    }

    deinit {
        rows.deinitialize(count: 12 * 7)
        rows.deallocate()
    }

    /// The row for key 0…11 (`MusicalKey.rawValue`) and degree 0…6 (`NashvilleDegree.rawValue − 1`).
    @inline(__always)
    func row(key: Int, degree: Int) -> Row { rows[Self.index(key: key, degree: degree)] }

    @inline(__always)
    private static func index(key: Int, degree: Int) -> Int { key * 7 + degree }

    private static func frequency(_ note: Int) -> Float { Float(DroneVoicing.frequency(note)) }
}

/// Why a measurement could not be made (a peer missing, a command that did not start, a sound that never came):
/// the row says so and `--check` counts it as a missed target.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

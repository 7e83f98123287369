import Foundation
import ProsperoFuzz
import Testing

/// Deterministic fuzzing of every parser: the committed corpus, then mutations of it.
/// A crash here is a bug; the seed and iteration make it reproducible.
@Suite struct FuzzTargetTests {
    static let iterations = Int(ProcessInfo.processInfo.environment["PROSPERO_FUZZ_ITERATIONS"] ?? "") ?? 20_000

    /// Mutations per target: a tenth for `tlsConnection`, each of whose inputs is a whole TLS session (handshakes with
    /// real key exchanges), about a hundred times a parser's input; its minutes of fuzzing are `scripts/fuzz`'s.
    static func iterations(for target: FuzzTarget) -> Int { target == .tlsConnection ? iterations / 10 : iterations }

    static func corpus(for target: FuzzTarget) -> [[UInt8]] {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/corpus/\(target.rawValue)")
        let files = (try? FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: nil)) ?? []
        return files.sorted { $0.path < $1.path }.compactMap { try? Array(Data(contentsOf: $0)) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func everyTargetHasASeedCorpusThatItAccepts(target: FuzzTarget) {
        let seeds = Self.corpus(for: target)
        #expect(!seeds.isEmpty, "Fuzz/corpus/\(target.rawValue) is empty")
        #expect(seeds.contains { target.run($0) }, "no seed in the corpus is accepted by \(target.rawValue)")
    }

    /// Every committed input as it is, findings of `scripts/fuzz-all` included (the mutation pass below only
    /// ever runs mutations of them, and the test above stops at the first accepted seed): none may crash, and
    /// each gets the same verdict twice (a parser's answer depends on the bytes alone).
    @Test(arguments: FuzzTarget.allCases)
    func everyCorpusInputRunsAsItIs(target: FuzzTarget) {
        for (index, seed) in Self.corpus(for: target).enumerated() {
            let first = target.run(seed)
            #expect(target.run(seed) == first, "Fuzz/corpus/\(target.rawValue): input \(index) accepted once, refused once")
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func mutatedInputsNeverCrash(target: FuzzTarget) {
        let seeds = Self.corpus(for: target) + [[]]
        var mutator = FuzzMutator(seed: 0xF022 &+ UInt64(target.rawValue.utf8.count))
        var current = seeds[0]
        for i in 0..<Self.iterations(for: target) {
            if i % 64 == 0 { current = seeds[i / 64 % seeds.count] }
            current = mutator.mutate(current, splicingWith: seeds[mutator.below(seeds.count)])
            if current.count > 1 << 16 { current = Array(current.prefix(1 << 16)) }
            target.run(current)
        }
    }
}

import ProsperoFuzz

#if canImport(Glibc)
import Glibc
#endif

// Built two ways (see scripts/fuzz):
// - normally: `prospero-fuzz TARGET FILE...` replays inputs, for reproducing a crash;
// - with `-sanitize=fuzzer -DFUZZING`: `prospero-fuzz TARGET [libFuzzer options] [CORPUS]`
//   runs libFuzzer on that target.

nonisolated(unsafe) var selectedTarget: FuzzTarget = .wav

func runSelected(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else {
        selectedTarget.run([])
        return 0
    }
    selectedTarget.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif

@main
struct FuzzMain {
    static func main() {
        let args = CommandLine.arguments
        guard args.count >= 2, let target = FuzzTarget(rawValue: args[1]) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            print("usage: prospero-fuzz TARGET [inputs or libFuzzer options]\ntargets: \(names)")
            exit(2)
        }
        selectedTarget = target
        #if FUZZING
        // libFuzzer must not see the target name, so argv[1] is dropped.
        var argc = CommandLine.argc - 1
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        argv![1] = argv![0]
        argv = argv! + 1
        exit(LLVMFuzzerRunDriver(&argc, &argv, { data, size in runSelected(data, size) }))
        #else
        for path in args.dropFirst(2) {
            guard let file = fopen(path, "rb") else {
                print("cannot open \(path)")
                exit(1)
            }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = fread(&chunk, 1, chunk.count, file)
                if n <= 0 { break }
                bytes += chunk[0..<n]
            }
            fclose(file)
            let accepted = target.run(bytes)
            print("\(path): \(accepted ? "accepted" : "rejected")")
        }
        #endif
    }
}

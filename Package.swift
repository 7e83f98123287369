// swift-tools-version: 6.1
import PackageDescription

// Dependencies flow downward only: Horatio ← Touchstone ← Ariel ← instruments ← platform edges ← prospero.
// Everything below the platform edges is portable Swift (no Glibc, no Linux calls).
let package = Package(
    name: "Prospero",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Horatio", targets: ["Horatio"]),
        .library(name: "Touchstone", targets: ["Touchstone"]),
        .library(name: "Ariel", targets: ["Ariel"]),
        .library(name: "Hecate", targets: ["Hecate"]),
        .executable(name: "prospero", targets: ["prospero"]),
        .executable(name: "prospero-fuzz", targets: ["prospero-fuzz"]),
        .executable(name: "prospero-bench", targets: ["prospero-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Music and input value types. No Foundation.
        .target(name: "Horatio"),
        // DSP kernels and real-time helpers.
        .target(name: "Touchstone", dependencies: ["CTouchstoneFTZ"]),
        // Flush-to-zero register access (MXCSR on x86_64, FPCR on arm64) as static inline C.
        .target(name: "CTouchstoneFTZ"),
        // Synth engine, command queue, MIDI, offline rendering, WAV.
        .target(name: "Ariel", dependencies: ["Horatio", "Touchstone"]),
        // Face-controlled chord synthesizer.
        .target(name: "Hecate", dependencies: ["Horatio", "Touchstone", "Ariel"]),
        // Platform edge: JACK audio and MIDI. libjack is loaded at run time (no headers or library at build time).
        .target(name: "CJACKLoader", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "ProsperoJACK", dependencies: ["CJACKLoader", "Ariel"]),
        .executableTarget(
            name: "prospero",
            dependencies: [
                "Horatio", "Touchstone", "Ariel",
                "ProsperoJACK",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Live JACK session benchmark (scripts/bench-jack): xruns and callback times at small periods.
        .executableTarget(name: "prospero-jack-bench", dependencies: ["ProsperoJACK"]),
        // Every parser of untrusted bytes as a fuzz target (see FUZZING in CONTRIBUTING.md).
        .target(name: "ProsperoFuzz", dependencies: ["Horatio", "Ariel", "Hecate"]),
        .executableTarget(name: "prospero-fuzz", dependencies: ["ProsperoFuzz"]),
        // Offline CPU benchmarks of the DSP kernels (speed targets live here, never in unit tests).
        .executableTarget(name: "prospero-bench", dependencies: ["Touchstone"]),
        .testTarget(name: "HoratioTests", dependencies: ["Horatio"]),
        .testTarget(name: "TouchstoneTests", dependencies: ["Touchstone", "AllocationCounting"], resources: [.copy("Fixtures")]),
        // Test-only: malloc interposition counting allocations per thread, and its Swift helper
        // `AllocationCounter` (see CONTRIBUTING.md "Allocation counting"). Any test target may depend on it.
        .target(name: "CAllocationCounter", path: "Tests/CAllocationCounter"),
        .target(name: "AllocationCounting", dependencies: ["CAllocationCounter"], path: "Tests/AllocationCounting"),
        .testTarget(name: "ArielTests", dependencies: ["Ariel", "Horatio"]),
        .testTarget(name: "HecateTests", dependencies: ["Hecate", "Horatio", "Touchstone", "Ariel", "AllocationCounting"]),
        .testTarget(name: "FuzzTests", dependencies: ["ProsperoFuzz"]),
        .testTarget(name: "ProsperoJACKTests", dependencies: ["ProsperoJACK", "CJACKLoader", "Ariel"]),
    ]
)

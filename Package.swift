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
        .target(name: "Touchstone"),
        // Synth engine, command queue, MIDI, offline rendering, WAV.
        .target(name: "Ariel", dependencies: ["Horatio", "Touchstone"]),
        .executableTarget(
            name: "prospero",
            dependencies: [
                "Horatio", "Touchstone", "Ariel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Every parser of untrusted bytes as a fuzz target (see FUZZING in CONTRIBUTING.md).
        .target(name: "ProsperoFuzz", dependencies: ["Ariel"]),
        .executableTarget(name: "prospero-fuzz", dependencies: ["ProsperoFuzz"]),
        // Offline CPU benchmarks of the DSP kernels (speed targets live here, never in unit tests).
        .executableTarget(name: "prospero-bench", dependencies: ["Touchstone"]),
        .testTarget(name: "HoratioTests", dependencies: ["Horatio"]),
        .testTarget(name: "TouchstoneTests", dependencies: ["Touchstone"], resources: [.copy("Fixtures")]),
        .testTarget(name: "ArielTests", dependencies: ["Ariel", "Horatio"]),
        .testTarget(name: "FuzzTests", dependencies: ["ProsperoFuzz"]),
    ]
)

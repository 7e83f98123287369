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
        .library(name: "Enobarbus", targets: ["Enobarbus", "EnobarbusUDP"]),
        .executable(name: "prospero", targets: ["prospero"]),
        .executable(name: "prospero-fuzz", targets: ["prospero-fuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
    ],
    targets: [
        // Music and input value types. No Foundation.
        .target(name: "Horatio"),
        // DSP kernels and real-time helpers.
        .target(name: "Touchstone"),
        // Synth engine, command queue, MIDI, offline rendering, WAV.
        .target(name: "Ariel", dependencies: ["Horatio", "Touchstone"]),
        // Tracking input: OSC codec, sender adapters, normalised frames, stabilisers, lifecycle, recording.
        .target(name: "Enobarbus", dependencies: ["Horatio"], exclude: ["README.md"]),
        // Platform edge: OSC over UDP (SwiftNIO).
        .target(
            name: "EnobarbusUDP",
            dependencies: [
                "Enobarbus",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "prospero",
            dependencies: [
                "Horatio", "Touchstone", "Ariel",
                "Enobarbus", "EnobarbusUDP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Every parser of untrusted bytes as a fuzz target (see FUZZING in CONTRIBUTING.md).
        .target(name: "ProsperoFuzz", dependencies: ["Ariel", "Enobarbus"]),
        .executableTarget(name: "prospero-fuzz", dependencies: ["ProsperoFuzz"]),
        .testTarget(name: "HoratioTests", dependencies: ["Horatio"]),
        .testTarget(name: "TouchstoneTests", dependencies: ["Touchstone"]),
        .testTarget(name: "ArielTests", dependencies: ["Ariel", "Horatio"]),
        .testTarget(name: "FuzzTests", dependencies: ["ProsperoFuzz"]),
        .testTarget(name: "EnobarbusTests", dependencies: ["Enobarbus", "Horatio"]),
        .testTarget(name: "EnobarbusUDPTests", dependencies: ["EnobarbusUDP", "Enobarbus", "Horatio"]),
    ]
)

// swift-tools-version: 6.1
import PackageDescription

// Dependencies flow downward only. Horatio and Touchstone are the two roots (neither imports the other);
// Ariel, Enobarbus and Haptics sit on them; then the instruments and Oberon, LiveHost, Studio, the platform
// edges and the executables (README.md "Modules" draws it). Everything below the platform edges is portable
// Swift (no Glibc, no Linux calls). Each target lists exactly the modules it imports: scripts/check-dependencies
// (run by scripts/test) fails on a missing or an unused entry.
let package = Package(
    name: "Prospero",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Horatio", targets: ["Horatio"]),
        .library(name: "Touchstone", targets: ["Touchstone"]),
        .library(name: "Ariel", targets: ["Ariel"]),
        .library(name: "Enobarbus", targets: ["Enobarbus", "EnobarbusUDP"]),
        .library(name: "Hecate", targets: ["Hecate"]),
        .library(name: "HiSynth", targets: ["HiSynth"]),
        .library(name: "Oberon", targets: ["Oberon"]),
        .library(name: "Prospero", targets: ["Prospero"]),
        .library(name: "Haptics", targets: ["Haptics"]),
        .library(name: "Games", targets: ["Games"]),
        .library(name: "LiveHost", targets: ["LiveHost", "LiveHostPOSIX"]),
        .library(name: "Studio", targets: ["Studio"]),
        .executable(name: "prospero", targets: ["prospero"]),
        .executable(name: "prospero-studio", targets: ["prospero-studio"]),
        .executable(name: "prospero-fuzz", targets: ["prospero-fuzz"]),
        .executable(name: "prospero-bench", targets: ["prospero-bench"]),
        // The LV2 plugins (HiSynth, the poly synth, Hecate) in one shared object; scripts/lv2-install bundles it.
        .library(name: "ProsperoLV2Plugin", type: .dynamic, targets: ["ProsperoLV2Plugin"]),
        .executable(name: "prospero-lv2", targets: ["prospero-lv2"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.14.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        // `swift package generate-documentation`: the portable modules' API reference (DocC). A plugin: nothing links it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Music and input value types. No Foundation.
        .target(name: "Horatio"),
        // DSP kernels and real-time helpers.
        .target(name: "Touchstone", dependencies: ["CTouchstoneFTZ"]),
        // Flush-to-zero register access (MXCSR on x86_64, FPCR on arm64) as static inline C.
        .target(name: "CTouchstoneFTZ"),
        // Synth engine, command queue, MIDI, offline rendering, WAV.
        .target(name: "Ariel", dependencies: ["Touchstone"]),
        // Tracking input: OSC codec, sender adapters, normalised frames, stabilisers, lifecycle, recording.
        .target(name: "Enobarbus", dependencies: ["Horatio"], exclude: ["README.md"]),
        // What is shown: meters to broadcast standards (BS.1770-4 / EBU R128), spectra, overviews, piano roll, PNG and SVG pictures.
        .target(name: "Oberon", dependencies: ["Touchstone", "Ariel", "CZlib"]),
        // zlib as plain C functions over the system libz: raw DEFLATE (HiSynth preset strings), zlib streams (PNG).
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
        // Face-controlled chord synthesizer.
        .target(name: "Hecate", dependencies: ["Horatio", "Touchstone", "Ariel", "Enobarbus"]),
        // HiSynth: the two-oscillator synth, its preset strings (byte-exact codec, JSON) and its song player.
        .target(name: "HiSynth", dependencies: ["Horatio", "Touchstone", "Ariel", "CZlib"]),
        // Hands and touches play notes and MIDI: MIDIRouter, fret model, MPE.
        .target(name: "Prospero", dependencies: ["Horatio", "Enobarbus", "Ariel"]),

        // Haptics: AHAP model, the HapticManager patterns, renderers for every device (no Foundation); audio → haptics.
        .target(name: "Haptics", dependencies: ["Horatio", "Touchstone"]),
        // The three touch games (Harmony With Me, Feel Your Vibe, Touch for Music) as models with their audio.
        .target(name: "Games", dependencies: ["Haptics", "Horatio", "Touchstone", "Ariel", "Enobarbus"]),
        // Live host: runs an instrument live (inputs → frames → instrument commands, clock, chords,
        // status, the one stop mechanism) with one live adapter per instrument (Hecate, hands, HiSynth);
        // portable, driven by the CLI and the studio.
        .target(name: "LiveHost", dependencies: ["Horatio", "Ariel", "Enobarbus", "Hecate", "Prospero", "HiSynth", "InstrumentSettings"]),
        // Platform edge of the live host: signals → stop, standard output, UDP datagrams (POSIX sockets: no
        // SwiftNIO below the studio, README "Build time"), interface subnets.
        .target(name: "LiveHostPOSIX", dependencies: ["LiveHost", "Enobarbus"]),

        // Platform edge: OSC over UDP (SwiftNIO).
        .target(
            name: "EnobarbusUDP",
            dependencies: [
                "Enobarbus",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Platform edge: the one atomic file writer (an exclusive, no-follow, private temporary beside the file, fsync,
        // rename, fsync of the directory), for the settings file and the preset library alike.
        .target(name: "ProsperoFiles"),
        // Edge: the user's HiSynth preset library on disk (XDG data dir) and `--preset` resolution.
        .target(name: "HiSynthLibrary", dependencies: ["HiSynth", "ProsperoFiles"]),
        // Platform edge: JACK audio and MIDI. libjack is loaded at run time (no headers or library at build time).
        .target(name: "CJACKLoader", linkerSettings: [.linkedLibrary("dl")]),
        // Platform edge: the system's OpenSSL for the studio's HTTPS, loaded at run time (no TLS library to build).
        .target(name: "COpenSSLLoader", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "ProsperoJACK", dependencies: ["CJACKLoader", "Ariel", "Touchstone", "Enobarbus", "LiveHost", "LiveHostPOSIX"]),
        // Platform edge: game-controller rumble through Linux evdev force feedback (and a uinput device for tests).
        .target(name: "CEvdevRumble"),
        .target(name: "HapticsEvdev", dependencies: ["CEvdevRumble", "Haptics"]),

        // The studio's portable core: protocol v1 and its codec with limits, client registry (retention, replay,
        // rate limits), security decisions as pure functions, the StudioInstrument protocol and registry.
        // What Prospero remembers between runs, portable and below both the command line and the studio: the
        // settings document and its JSON codec (and the JSON value it is read into), each instrument's settings
        // and learnable controls, the Hecate pack library. The command line builds it without the studio.
        .target(name: "InstrumentSettings", dependencies: ["Horatio", "Touchstone", "Ariel", "Hecate", "Prospero", "HiSynth"]),
        .target(name: "Studio", dependencies: ["Horatio", "Touchstone", "Ariel", "Enobarbus", "Hecate", "Prospero", "Oberon", "LiveHost", "HiSynth", "Haptics", "Games", "InstrumentSettings"]),
        // Platform edge of the studio: HTTP + WebSocket server (Hummingbird), web resources, audio driver, OSC inputs.
        .target(
            name: "StudioServer",
            dependencies: [
                "Studio", "LiveHost", "LiveHostPOSIX", "ProsperoJACK", "Oberon", "Ariel", "Touchstone", "Enobarbus", "COpenSSLLoader",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // StudioTLSHarness: the TLS handler in an embedded channel, for its tests and fuzz target.
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ],
            resources: [.copy("Resources/web")]
        ),

        // The settings file on disk (read, atomic write, the saver that writes a second after a change): the
        // file I/O edge of the portable settings codec, for the live commands and the studio alike.
        .target(name: "ProsperoSettingsFiles", dependencies: ["InstrumentSettings", "ProsperoFiles"]),

        // Platform edge: the camera bridge's Python child (the venv scripts/camera-setup makes), for `prospero camera`
        // and the studio's page cameras (one long-lived process fed frames on a pipe, restarted with backoff).
        // Where the camera bridge's venv and script are (what `prospero camera` needs without the studio).
        .target(name: "CameraTools"),
        .target(name: "CameraBridge", dependencies: ["Studio", "CameraTools"]),

        // What the command-line executables share: the stop and signals of a live command, the JACK and
        // input-delay options, the user's Hecate pack files.
        .target(
            name: "ProsperoCommandLine",
            dependencies: [
                "LiveHost", "LiveHostPOSIX", "ProsperoJACK", "InstrumentSettings",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `prospero`: every command. It links no web server: `prospero studio` runs prospero-studio, so the
        // first command of a fresh clone never compiles Hummingbird or BoringSSL (README "Build time").
        .executableTarget(
            name: "prospero",
            dependencies: [
                "Horatio", "Touchstone", "Ariel", "Enobarbus", "Hecate", "ProsperoJACK", "Prospero", "Oberon",
                "HiSynth", "HiSynthLibrary", "Haptics", "Games", "HapticsEvdev",
                "LiveHost", "LiveHostPOSIX", "InstrumentSettings", "ProsperoSettingsFiles", "CameraTools", "ProsperoCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The studio's composition root: builds the studio from a plain configuration (instruments, audio driver,
        // session, settings, server, input, cameras) and runs its parts as services in one ServiceGroup with an
        // ordered stop. prospero-studio parses its options into the configuration and calls it.
        .target(
            name: "StudioApp",
            dependencies: [
                "Studio", "StudioServer", "LiveHost", "LiveHostPOSIX", "ProsperoJACK", "ProsperoSettingsFiles", "InstrumentSettings",
                "HiSynthLibrary", "CameraBridge", "CameraTools", "ProsperoCommandLine", "Enobarbus", "Hecate",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // `prospero-studio`: the studio with its web server, started by `prospero studio`.
        .executableTarget(
            name: "prospero-studio",
            dependencies: [
                // StudioServer: the connection limits' declaration, which its options fill.
                "StudioApp", "ProsperoCommandLine", "StudioServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Offline CPU benchmarks (speed targets live here, never in unit tests).
        .executableTarget(name: "prospero-bench", dependencies: ["Horatio", "Touchstone", "Ariel", "Enobarbus", "Hecate", "HiSynth", "AllocationCounting"]),
        // The live figures on real JACK (scripts/bench/live; docs/benchmarks.md): gesture → sound, UDP → audio and MIDI
        // out, the input delay each period needs, callback times; `--check` against their targets. Live timing
        // targets live here, never in the tests.
        .executableTarget(name: "prospero-jack-bench", dependencies: [
            "ProsperoJACK", "CJACKLoader", "Enobarbus", "Hecate", "LiveHost", "LiveHostPOSIX",
        ]),
        // Every parser of untrusted bytes as a fuzz target (see "Fuzzing" in CONTRIBUTING.md).
        .target(name: "ProsperoFuzz", dependencies: [
            "Horatio", "Ariel", "Enobarbus", "Hecate", "Prospero", "HiSynth", "Haptics", "Games", "Oberon", "LiveHost", "Studio", "InstrumentSettings", "ProsperoLV2",
            // The studio's TLS handler, driven through its harness against a real OpenSSL client.
            "StudioServer",
            // The studio's WebSocket frame reader is swift-nio's; its fuzz target drives it as the server does.
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOWebSocket", package: "swift-nio"),
        ]),
        .executableTarget(name: "prospero-fuzz", dependencies: ["ProsperoFuzz"]),

        // LV2 plugins. The portable adapter layer (ports from the parameter declarations, atom MIDI → engine
        // events at their frames, State, presets, the Turtle description) over the same engines as our commands.
        .target(name: "ProsperoLV2", dependencies: ["Horatio", "Touchstone", "Ariel", "HiSynth", "Hecate", "Enobarbus"]),
        // The LV2 ABI as plain C declarations (no LV2 headers needed to build).
        .target(name: "CLV2"),
        // The C-ABI edge: `lv2_descriptor` and the callbacks, over ProsperoLV2.
        .target(name: "ProsperoLV2Plugin", dependencies: ["CLV2", "ProsperoLV2"]),
        // Writes the bundles' Turtle (scripts/lv2-install) and benchmarks each plugin's run().
        .executableTarget(name: "prospero-lv2", dependencies: ["ProsperoLV2"]),

        // Test-only: malloc interposition counting allocations per thread, and its Swift helper
        // `AllocationCounter` (see CONTRIBUTING.md "Allocation counting"). Any test target may depend on it.
        .target(name: "CAllocationCounter", path: "Tests/CAllocationCounter"),
        .target(name: "AllocationCounting", dependencies: ["CAllocationCounter"], path: "Tests/AllocationCounting"),
        // Test-only: seeded random numbers, peer gating and the allocation-test trait shared by every test target.
        .target(name: "ProsperoTestSupport", dependencies: ["Horatio", "Ariel", "Touchstone", "AllocationCounting"], path: "Tests/TestSupport"),

        .testTarget(name: "HoratioTests", dependencies: ["Horatio", "ProsperoTestSupport"]),
        .testTarget(name: "TouchstoneTests", dependencies: ["Touchstone", "AllocationCounting", "ProsperoTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "ArielTests", dependencies: ["Ariel", "Touchstone", "AllocationCounting", "ProsperoTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "EnobarbusTests", dependencies: ["Enobarbus", "Horatio"]),
        .testTarget(
            name: "EnobarbusUDPTests",
            dependencies: [
                "EnobarbusUDP", "Enobarbus", "Horatio", "ProsperoTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "HecateTests", dependencies: ["Hecate", "Horatio", "Touchstone", "Ariel", "Enobarbus", "AllocationCounting", "ProsperoTestSupport"]),
        .testTarget(name: "ProsperoJACKTests", dependencies: ["ProsperoJACK", "CJACKLoader", "Ariel", "Prospero", "Enobarbus", "EnobarbusUDP", "Horatio", "HiSynth", "Touchstone", "AllocationCounting", "LiveHost", "Hecate", "ProsperoTestSupport"]),
        .testTarget(name: "HiSynthTests", dependencies: ["HiSynth", "Ariel", "Touchstone", "ProsperoTestSupport", "AllocationCounting"], resources: [.copy("Fixtures")]),
        .testTarget(name: "ProsperoFilesTests", dependencies: ["ProsperoFiles"]),
        .testTarget(name: "HiSynthLibraryTests", dependencies: ["HiSynthLibrary", "HiSynth", "ProsperoTestSupport"]),
        .testTarget(name: "LiveHostTests", dependencies: ["LiveHost", "LiveHostPOSIX", "Enobarbus", "Horatio", "ProsperoTestSupport", "Hecate", "Ariel", "Prospero", "Touchstone", "HiSynth", "InstrumentSettings"]),
        .testTarget(name: "ProsperoTests", dependencies: ["Prospero", "Enobarbus", "Ariel", "Horatio", "ProsperoTestSupport"]),
        .testTarget(name: "FuzzTests", dependencies: ["ProsperoFuzz", "StudioServer"]),
        .testTarget(name: "HapticsTests", dependencies: ["Haptics", "Horatio", "HapticsEvdev", "CEvdevRumble", "Ariel", "Touchstone", "ProsperoTestSupport"]),
        .testTarget(name: "GamesTests", dependencies: ["Games", "Haptics", "Ariel", "Enobarbus", "Touchstone", "AllocationCounting", "ProsperoTestSupport"]),
        .testTarget(name: "OberonTests", dependencies: ["Oberon", "Ariel", "AllocationCounting", "ProsperoTestSupport"]),
        .testTarget(name: "StudioTests", dependencies: ["Studio", "LiveHost", "Horatio", "ProsperoTestSupport", "HiSynth", "HiSynthLibrary", "Ariel", "AllocationCounting", "Games", "Haptics", "Enobarbus", "Hecate", "InstrumentSettings", "Prospero"]),
        .testTarget(
            name: "StudioServerTests",
            dependencies: [
                "StudioServer", "StudioApp", "Studio", "LiveHost", "LiveHostPOSIX", "ProsperoTestSupport",
                "Games", "Haptics", "Ariel", "Enobarbus", "ProsperoSettingsFiles", "CameraBridge", "CameraTools", "InstrumentSettings",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                // The ticker's tests run it on an EmbeddedEventLoop, whose time they move.
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            exclude: ["Browser", "Probes"]
        ),
        .testTarget(name: "CameraBridgeTests", dependencies: ["Enobarbus", "ProsperoTestSupport", "CameraBridge", "CameraTools", "Studio"]),
        .testTarget(name: "DocumentationTests", dependencies: ["ProsperoTestSupport"]),
        .testTarget(name: "LV2Tests", dependencies: ["ProsperoLV2", "HiSynth", "Hecate", "Enobarbus", "Horatio", "Ariel", "Touchstone", "ProsperoTestSupport"], resources: [.copy("Fixtures")]),
    ]
)

// The test targets compile without optimisation even in a release build: optimising them was a third of a fresh
// build's compiler time (692 s of CPU of 2 072, `scripts/build-times`), and what they test (the modules above,
// the executables they start) stays optimised. The DSP test targets stay optimised: their reference implementations
// and property tests render minutes of audio in the test's own code, and their allocation tests count the test's
// own loop around the engine too (unoptimised, that loop allocated 9 to 27 times where the engine does not).
let optimisedTestTargets: Set = ["TouchstoneTests", "ArielTests", "OberonTests", "HecateTests", "HiSynthTests", "GamesTests"]
let dspTargets: Set = ["Touchstone", "Ariel", "Hecate", "HiSynth"]
for target in package.targets where dspTargets.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-enforce-exclusivity=unchecked"])]
}
for target in package.targets where target.type == .test && !optimisedTestTargets.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"], .when(configuration: .release))]
}

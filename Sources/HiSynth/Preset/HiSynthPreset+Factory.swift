extension HiSynthPreset {
    /// The original app's 15 factory presets as preset strings, in the app's order (HiSynth Key first).
    public static let factoryStrings: [String] = [
        "SGlTeW50aCBLZXk=:Y2JgsBIxYmBgOAUA:Y2BgsGCwYbAAAA==:Y8hmAAMA:Y2ZgYGBep84Aon47MAAhMwMYMMMwI4QGAA==:Y7Bh4tJndAhisABiBl8Q4QkkAA==",
        "U3dlZXRoZWFydCBLZXk=:Y2S0NeMyZ2Bg8AIA:Y2AQMWKweWIDAA==:syo4f4TBU94ZAA==:Y2ZgYGBO02MAUfIuDA4MDswMYACimBmhNBADAA==:Y7Bh5NJnZPBlMGnwZWDwdQhiYPAEEgA=",
        "TWFyaW8gS2V5:Y2RYYhFkxcDA4AUA:Y2BgsGCw0TIDAA==:25HJAAYA:Y2ZgYGBep80AoljdGRwYHJgZwICZEYgZEBgA:Y3BgXKfP6BDEYAHEDA4NwYwMnkAWAA==",
        "U3Vid2F5IExlYWQ=:Y2KstrK1YGBg8AIA:Y2BgsGCwYTEBAA==:08h6dpABCAA=:Y2ZlZGA+bHrWgEuf+ZL7N2dGD2YGBgYLBgYgxcjMAJRkBLMZAA==:Y3BgLDRkdAhisABiBl8Q4QkkAA==",
        "SGVsaWNvcHRlciBMZWFk:Y2JaYhVkwcDA4AIA:Y2BgsGCwSdMCAA==:218QY8wABAA=:Y2ZkYGBOM6vWKTRkvuW1x9vDk5kBDJgZGBmYQZIMEAwA:Y7BhWmLC6BDEYAHEDL4gwhNIAAA=",
        "Um9ja2V0IExlYWQ=:Y2S6bilvyMDAcAoA:Y2BgsGCwSdMCAA==:iy9lYGDwvG4NAA==:Y2ZgYGCu1mEAUQzuDA4MDswMYMDMCBJBYAA=:Y3BiKjRldAhisADiNl+HIEaH8wz+jAA=",
        "UmV3aW5kIFBhZA==:Y2AKstI0YQACAA==:Y2BgsGCwUXQAAA==:u5F27iRXBAMDAA==:Y2ZiYGAuNF2nDaQ+Omq6MjgwM4ABMwMjAzMjAwQD+QA=:Y3BgSjNjTAhgsGnwYWDwdQhiYPAEEgA=",
        "RHJlYW0gUGFk:Y2BmsOm3YGBg8AIA:W2fKYMFgY+YAAA==:i8t5cowBCAA=:Y2ZgYGBO02MAUUtcuBwYHJgZwABEMTNCaSAGAA==:Y3BgZLBgdAhisFAIYDS2Z3BlULvA4MkAAA==",
        "RmlmdGggUGFk:Y2IJsjK2ZGBgOA4A:izFmsJC3MrMDAA==:W5bKAAYA:Y2ZgYGCWN5RXBFJBzgwODA7MDGDAzMDIwMwIoiEYAA==:Y3BiCrJiTAhgsGnwYWTwdQhiYPAEEgA=",
        "U3ByaW5nIFBsdWNr:Y2BisFliwsDA0AAA:Y2BI01qnnaYFAA==:CykVMZrmtcQGAA==:Y2ZgYGBmAANmeRcGBwYHGA+EGaE0EAMA:Y3Bi4tJnZPBlMGnwYJjl1ODLwODpEMQAAA==",
        "U3VtbWVyIFBsdWNr:Y2RhsFliwsDA4AUA:Y2DoN2JgSNMCAA==:+56213ma1xIbAA==:Y2ZlYGCWt2QAAuYuRwYHBgdmBjBghmFGCA0A:Y3BgOmvAyOA7y7TBk3GWU4MvA4OnQxADAA==",
        "U2lyZW4gRlg=:Y2Y0tu63YGBg8AIA:Y2BgsGCwOesMAA==:W53HAAYA:Y2ZiYGDeYcYABMzf7BkcGByYGcCAmRGIGRAYAA==:Y3Bg9DBldAhisABiBl8Q4QkkAA==",
        "VGVsZXBob25lIEZY:Y2SQt15iwcDA4AQA:Y2BgsGCw0bQAAA==:W5/JAAYA:Y2ZkYGB+aMYABMzf3BkcGByYGSzAPJAEAwIDAA==:Y3BgZLBgcAhisABiBl8Q4QkkAA==",
        "VW5kZXJ3YXRlciBGWA==:Y2YQseo3Y2BgcAMA:KzRnsGCwSXcCAA==:u5uS5dPm6+MBAA==:Y2ZgZWROMzK2nmXKPN+t2tPWlZkBDJgZGBlBTGZGRhBmBAA=:Y3BgYrBgbPA5a+AQxMjg6xDEsOucQxgjAA==",
        "SW5pdA==:Y2BgsAJCIAAA:Y2BgsGCwSdMCAA==:iy9lAAMA:Y2ZgYGBmAANmBgcQhPNQMQA=:Y3BgZLBgcAhisABiBl8Q4QkkAA==",
    ]

    /// The original app's 15 factory presets, in the app's order (HiSynth Key first: the app starts on it).
    ///
    /// Written out as the exact `Float16` values their strings hold (the tests decode
    /// `factoryStrings` and compare), so no decoding runs at start-up.
    public static let factory: [HiSynthPreset] = [
        HiSynthPreset(
            name: "HiSynth Key",
            oscillators: [
                Oscillator(waveform: .saw, level: 0.75, pitch: 0.0),
                Oscillator(waveform: .sine, level: 0.18994140625, pitch: -12.0),
            ],
            envelope: Envelope(attack: 0.0, decay: 0.5, sustain: 1.0, release: 0.5),
            filters: Filters(
                lowPass: Filter(cutoff: 3584.0, resonance: 0.0),
                highPass: Filter(cutoff: 0.0, resonance: 0.0)
            ),
            lfos: [
                LFO(
                    waveform: .sine, depth: 0.029998779296875, speed: 2.490234375, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: true, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
            ],
            effects: Effects(
                reverb: Reverb(on: true, size: 1.0, type: .hall, mix: 0.1099853515625),
                delay: Delay(on: false, feedback: 50.0, time: 0.5, mix: 50.0),
                decimator: Decimator(on: false, rate: 20.0, mix: 50.0),
                drive: Drive(on: false, gain: 10.0, mix: 50.0)
            )
        ),
        HiSynthPreset(
            name: "Sweetheart Key",
            oscillators: [
                Oscillator(waveform: .square, level: 0.389892578125, pitch: 0.0),
                Oscillator(waveform: .square, level: 0.43994140625, pitch: 12.0),
            ],
            envelope: Envelope(attack: 0.0, decay: 0.18994140625, sustain: 1.0, release: 1.22265625),
            filters: Filters(
                lowPass: Filter(cutoff: 8656.0, resonance: -4.80859375),
                highPass: Filter(cutoff: 10.0, resonance: 3.560546875)
            ),
            lfos: [
                LFO(
                    waveform: .sine, depth: 0.0999755859375, speed: 4.12109375, phase: 0.0,
                    pitch: false, amplitude: true, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
            ],
            effects: Effects(
                reverb: Reverb(on: true, size: 1.0, type: .room, mix: 0.1099853515625),
                delay: Delay(on: false, feedback: 20.0, time: 0.25, mix: 22.0),
                decimator: Decimator(on: false, rate: 20.0, mix: 50.0),
                drive: Drive(on: false, gain: 10.0, mix: 50.0)
            )
        ),
        HiSynthPreset(
            name: "Mario Key",
            oscillators: [
                Oscillator(waveform: .square, level: 0.580078125, pitch: 0.0),
                Oscillator(waveform: .sine, level: 0.7900390625, pitch: 12.0),
            ],
            envelope: Envelope(attack: 0.0, decay: 0.5, sustain: 1.0, release: 0.38525390625),
            filters: Filters(
                lowPass: Filter(cutoff: 2928.0, resonance: 0.0),
                highPass: Filter(cutoff: 0.0, resonance: 0.0)
            ),
            lfos: [
                LFO(
                    waveform: .sine, depth: 0.05999755859375, speed: 7.01953125, phase: 0.0,
                    pitch: true, amplitude: false, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
            ],
            effects: Effects(
                reverb: Reverb(on: true, size: 2.0, type: .room, mix: 0.1199951171875),
                delay: Delay(on: false, feedback: 50.0, time: 0.5, mix: 50.0),
                decimator: Decimator(on: true, rate: 2.0, mix: 60.0),
                drive: Drive(on: false, gain: 10.0, mix: 50.0)
            )
        ),
        HiSynthPreset(
            name: "Subway Lead",
            oscillators: [
                Oscillator(waveform: .saw, level: 0.81005859375, pitch: 0.0),
                Oscillator(waveform: .square, level: 0.52978515625, pitch: 12.0),
            ],
            envelope: Envelope(attack: 0.0, decay: 0.5, sustain: 1.0, release: 0.2509765625),
            filters: Filters(
                lowPass: Filter(cutoff: 3152.0, resonance: -2.94921875),
                highPass: Filter(cutoff: 0.0, resonance: 0.0)
            ),
            lfos: [
                LFO(
                    waveform: .rsaw, depth: 0.360107421875, speed: 7.8203125, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: true, filterHigh: false
                ),
                LFO(
                    waveform: .square, depth: 0.1500244140625, speed: 3.98046875, phase: 0.5,
                    pitch: false, amplitude: true, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.1099853515625, speed: 8.0078125, phase: 0.0,
                    pitch: true, amplitude: false, filterLow: false, filterHigh: false
                ),
            ],
            effects: Effects(
                reverb: Reverb(on: true, size: 2.0, type: .room, mix: 0.1700439453125),
                delay: Delay(on: false, feedback: 50.0, time: 0.5, mix: 50.0),
                decimator: Decimator(on: false, rate: 20.0, mix: 50.0),
                drive: Drive(on: false, gain: 10.0, mix: 50.0)
            )
        ),
        HiSynthPreset(
            name: "Helicopter Lead",
            oscillators: [
                Oscillator(waveform: .saw, level: 0.830078125, pitch: 0.0),
                Oscillator(waveform: .saw, level: 0.5400390625, pitch: 4.0),
            ],
            envelope: Envelope(attack: 0.0, decay: 0.5, sustain: 1.0, release: 0.04998779296875),
            filters: Filters(
                lowPass: Filter(cutoff: 9720.0, resonance: 0.22998046875),
                highPass: Filter(cutoff: 0.0, resonance: 0.0)
            ),
            lfos: [
                LFO(
                    waveform: .square, depth: 0.39990234375, speed: 13.703125, phase: 0.0,
                    pitch: false, amplitude: true, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.07000732421875, speed: 15.46875, phase: 0.0,
                    pitch: true, amplitude: false, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.1700439453125, speed: 10.5625, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
            ],
            effects: Effects(
                reverb: Reverb(on: true, size: 1.0, type: .hall, mix: 0.2900390625),
                delay: Delay(on: false, feedback: 50.0, time: 0.5, mix: 50.0),
                decimator: Decimator(on: false, rate: 20.0, mix: 50.0),
                drive: Drive(on: false, gain: 10.0, mix: 50.0)
            )
        ),
        HiSynthPreset(
            name: "Rocket Lead",
            oscillators: [
                Oscillator(waveform: .square, level: 0.72998046875, pitch: 0.0),
                Oscillator(waveform: .saw, level: 0.1600341796875, pitch: -12.0),
            ],
            envelope: Envelope(attack: 0.0, decay: 0.5, sustain: 1.0, release: 0.04998779296875),
            filters: Filters(
                lowPass: Filter(cutoff: 22000.0, resonance: 0.0),
                highPass: Filter(cutoff: 10.0, resonance: 0.97998046875)
            ),
            lfos: [
                LFO(
                    waveform: .sine, depth: 0.07000732421875, speed: 7.0, phase: 0.0,
                    pitch: true, amplitude: false, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
            ],
            effects: Effects(
                reverb: Reverb(on: true, size: 3.0, type: .hall, mix: 0.340087890625),
                delay: Delay(on: false, feedback: 50.0, time: 0.5, mix: 50.0),
                decimator: Decimator(on: true, rate: 22.09375, mix: 50.0),
                drive: Drive(on: true, gain: -29.0, mix: 28.0)
            )
        ),
        HiSynthPreset(
            name: "Rewind Pad",
            oscillators: [
                Oscillator(waveform: .sine, level: 0.7900390625, pitch: 0.0),
                Oscillator(waveform: .saw, level: 0.260009765625, pitch: 0.0),
            ],
            envelope: Envelope(attack: 0.0, decay: 0.5, sustain: 1.0, release: 2.064453125),
            filters: Filters(
                lowPass: Filter(cutoff: 1752.0, resonance: -11.609375),
                highPass: Filter(cutoff: 129.25, resonance: 0.0)
            ),
            lfos: [
                LFO(
                    waveform: .saw, depth: 0.340087890625, speed: 2.970703125, phase: 0.0,
                    pitch: false, amplitude: true, filterLow: true, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.05999755859375, speed: 5.16015625, phase: 0.0,
                    pitch: true, amplitude: false, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
            ],
            effects: Effects(
                reverb: Reverb(on: true, size: 2.0, type: .hall, mix: 0.39990234375),
                delay: Delay(on: false, feedback: 35.0, time: 1.0, mix: 18.0),
                decimator: Decimator(on: false, rate: 20.0, mix: 50.0),
                drive: Drive(on: false, gain: 10.0, mix: 50.0)
            )
        ),
        HiSynthPreset(
            name: "Dream Pad",
            oscillators: [
                Oscillator(waveform: .sine, level: 1.0, pitch: 0.0),
                Oscillator(waveform: .triangle, level: 0.56982421875, pitch: 12.0),
            ],
            envelope: Envelope(attack: 0.35498046875, decay: 0.5, sustain: 1.0, release: 2.10546875),
            filters: Filters(
                lowPass: Filter(cutoff: 4472.0, resonance: -6.890625),
                highPass: Filter(cutoff: 0.0, resonance: 0.0)
            ),
            lfos: [
                LFO(
                    waveform: .sine, depth: 0.0999755859375, speed: 4.640625, phase: 0.0,
                    pitch: false, amplitude: true, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.01953125, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
            ],
            effects: Effects(
                reverb: Reverb(on: true, size: 2.0, type: .room, mix: 0.5),
                delay: Delay(on: true, feedback: 50.0, time: 0.5, mix: 33.0),
                decimator: Decimator(on: false, rate: 1.7998046875, mix: 5.0),
                drive: Drive(on: false, gain: -33.1875, mix: 10.0)
            )
        ),
        HiSynthPreset(
            name: "Fifth Pad",
            oscillators: [
                Oscillator(waveform: .saw, level: 0.7900390625, pitch: 0.0),
                Oscillator(waveform: .pulse, level: 0.64990234375, pitch: -7.0),
            ],
            envelope: Envelope(attack: 0.22998046875, decay: 0.5, sustain: 0.76513671875, release: 1.552734375),
            filters: Filters(
                lowPass: Filter(cutoff: 1446.0, resonance: 0.0),
                highPass: Filter(cutoff: 0.0, resonance: 0.0)
            ),
            lfos: [
                LFO(
                    waveform: .sine, depth: 0.1600341796875, speed: 3.66015625, phase: 0.0,
                    pitch: false, amplitude: true, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.01000213623046875, speed: 2.0, phase: 0.0,
                    pitch: true, amplitude: false, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
            ],
            effects: Effects(
                reverb: Reverb(on: true, size: 3.0, type: .hall, mix: 0.7900390625),
                delay: Delay(on: true, feedback: 35.0, time: 1.0, mix: 18.0),
                decimator: Decimator(on: false, rate: 20.0, mix: 50.0),
                drive: Drive(on: false, gain: 10.0, mix: 50.0)
            )
        ),
        HiSynthPreset(
            name: "Spring Pluck",
            oscillators: [
                Oscillator(waveform: .sine, level: 1.0, pitch: 0.0),
                Oscillator(waveform: .saw, level: 0.2900390625, pitch: -0.0),
            ],
            envelope: Envelope(attack: 0.0, decay: 0.04998779296875, sustain: 0.05999755859375, release: 0.04998779296875),
            filters: Filters(
                lowPass: Filter(cutoff: 21824.0, resonance: 0.18994140625),
                highPass: Filter(cutoff: 13.171875, resonance: 1.16015625)
            ),
            lfos: [
                LFO(
                    waveform: .sine, depth: 0.0, speed: 4.12109375, phase: 0.0,
                    pitch: false, amplitude: true, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
            ],
            effects: Effects(
                reverb: Reverb(on: true, size: 3.0, type: .hall, mix: 0.1099853515625),
                delay: Delay(on: false, feedback: 20.0, time: 0.25, mix: 9.0),
                decimator: Decimator(on: false, rate: 3.30078125, mix: 22.0),
                drive: Drive(on: false, gain: 10.0, mix: 50.0)
            )
        ),
        HiSynthPreset(
            name: "Summer Pluck",
            oscillators: [
                Oscillator(waveform: .square, level: 1.0, pitch: 0.0),
                Oscillator(waveform: .pulse, level: 0.2900390625, pitch: 12.0),
            ],
            envelope: Envelope(attack: 0.0, decay: 0.2049560546875, sustain: 0.0, release: 0.04998779296875),
            filters: Filters(
                lowPass: Filter(cutoff: 1783.0, resonance: 3.869140625),
                highPass: Filter(cutoff: 13.171875, resonance: 1.16015625)
            ),
            lfos: [
                LFO(
                    waveform: .rsaw, depth: 0.64013671875, speed: 2.76953125, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: true, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
            ],
            effects: Effects(
                reverb: Reverb(on: true, size: 2.0, type: .hall, mix: 0.1500244140625),
                delay: Delay(on: true, feedback: 20.0, time: 0.35009765625, mix: 11.0),
                decimator: Decimator(on: false, rate: 3.30078125, mix: 22.0),
                drive: Drive(on: false, gain: 10.0, mix: 50.0)
            )
        ),
        HiSynthPreset(
            name: "Siren FX",
            oscillators: [
                Oscillator(waveform: .triangle, level: 0.89990234375, pitch: 0.0),
                Oscillator(waveform: .square, level: 0.56982421875, pitch: 12.0),
            ],
            envelope: Envelope(attack: 0.0, decay: 0.5, sustain: 1.0, release: 3.900390625),
            filters: Filters(
                lowPass: Filter(cutoff: 6828.0, resonance: 0.0),
                highPass: Filter(cutoff: 0.0, resonance: 0.0)
            ),
            lfos: [
                LFO(
                    waveform: .saw, depth: 0.419921875, speed: 1.990234375, phase: 0.0,
                    pitch: true, amplitude: false, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
            ],
            effects: Effects(
                reverb: Reverb(on: true, size: 2.0, type: .room, mix: 0.330078125),
                delay: Delay(on: false, feedback: 50.0, time: 0.5, mix: 50.0),
                decimator: Decimator(on: false, rate: 20.0, mix: 50.0),
                drive: Drive(on: false, gain: 10.0, mix: 50.0)
            )
        ),
        HiSynthPreset(
            name: "Telephone FX",
            oscillators: [
                Oscillator(waveform: .square, level: 0.89013671875, pitch: 0.0),
                Oscillator(waveform: .sine, level: 0.580078125, pitch: 3.0),
            ],
            envelope: Envelope(attack: 0.0, decay: 0.5, sustain: 1.0, release: 0.52001953125),
            filters: Filters(
                lowPass: Filter(cutoff: 2910.0, resonance: 0.0),
                highPass: Filter(cutoff: 0.0, resonance: 0.0)
            ),
            lfos: [
                LFO(
                    waveform: .square, depth: 0.429931640625, speed: 7.9609375, phase: 0.5,
                    pitch: true, amplitude: false, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
            ],
            effects: Effects(
                reverb: Reverb(on: false, size: 2.0, type: .room, mix: 0.5),
                delay: Delay(on: false, feedback: 50.0, time: 0.5, mix: 50.0),
                decimator: Decimator(on: false, rate: 20.0, mix: 50.0),
                drive: Drive(on: false, gain: 10.0, mix: 50.0)
            )
        ),
        HiSynthPreset(
            name: "Underwater FX",
            oscillators: [
                Oscillator(waveform: .triangle, level: 0.759765625, pitch: 0.0),
                Oscillator(waveform: .sine, level: 0.409912109375, pitch: 6.0),
            ],
            envelope: Envelope(attack: 0.465087890625, decay: 0.5, sustain: 1.0, release: 3.201171875),
            filters: Filters(
                lowPass: Filter(cutoff: 1245.0, resonance: 17.65625),
                highPass: Filter(cutoff: 22.09375, resonance: 8.59375)
            ),
            lfos: [
                LFO(
                    waveform: .sine, depth: 0.199951171875, speed: 6.62109375, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: true, filterHigh: true
                ),
                LFO(
                    waveform: .rsaw, depth: 0.89990234375, speed: 10.9609375, phase: 0.0,
                    pitch: true, amplitude: false, filterLow: true, filterHigh: true
                ),
                LFO(
                    waveform: .square, depth: 0.35009765625, speed: 5.23828125, phase: 0.0,
                    pitch: true, amplitude: false, filterLow: false, filterHigh: true
                ),
            ],
            effects: Effects(
                reverb: Reverb(on: true, size: 2.0, type: .hall, mix: 0.5),
                delay: Delay(on: true, feedback: 18.0, time: 0.1500244140625, mix: 50.0),
                decimator: Decimator(on: false, rate: 20.0, mix: 50.0),
                drive: Drive(on: true, gain: -26.90625, mix: 100.0)
            )
        ),
        HiSynthPreset(
            name: "Init",
            oscillators: [
                Oscillator(waveform: .sine, level: 0.75, pitch: 0.0),
                Oscillator(waveform: .sine, level: 0.75, pitch: 0.0),
            ],
            envelope: Envelope(attack: 0.0, decay: 0.5, sustain: 1.0, release: 0.04998779296875),
            filters: Filters(
                lowPass: Filter(cutoff: 22000.0, resonance: 0.0),
                highPass: Filter(cutoff: 0.0, resonance: 0.0)
            ),
            lfos: [
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
                LFO(
                    waveform: .sine, depth: 0.0, speed: 2.0, phase: 0.0,
                    pitch: false, amplitude: false, filterLow: false, filterHigh: false
                ),
            ],
            effects: Effects(
                reverb: Reverb(on: false, size: 2.0, type: .room, mix: 0.5),
                delay: Delay(on: false, feedback: 50.0, time: 0.5, mix: 50.0),
                decimator: Decimator(on: false, rate: 20.0, mix: 50.0),
                drive: Drive(on: false, gain: 10.0, mix: 50.0)
            )
        ),
    ]

    /// The factory preset "Init" (the last one): both layers sine at 0.75, no modulation, effects off.
    public static var initial: HiSynthPreset { factory[factory.count - 1] }
}

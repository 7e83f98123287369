import Hecate
import LiveHost
import Testing

/// The output route from what PipeWire's JACK (or jackd) reports about its playback ports.
@Suite("Output route detection")
struct OutputRouteDetectionTests {
    typealias Port = OutputRouteDetection.Port

    @Test("a PipeWire Bluetooth sink (node name in the alias) is Bluetooth; −14 dBFS playing along")
    func pipeWireBluetooth() {
        // `jack_lsp -A` under pipewire-jack: the port by its device description, aliased by node name.
        let ports = [
            Port(name: "WH-1000XM4:playback_FL", aliases: ["bluez_output.14_3F_A6_28_DC_51.1:playback_FL", "WH-1000XM4:playback_FL"]),
            Port(name: "WH-1000XM4:playback_FR", aliases: ["bluez_output.14_3F_A6_28_DC_51.1:playback_FR", "WH-1000XM4:playback_FR"]),
        ]
        let detected = OutputRouteDetection.detect(ports)
        #expect(detected.route == .bluetooth)
        #expect(detected.evidence == "bluez_output.14_3F_A6_28_DC_51.1:playback_FL")
        #expect(detected.route.limiterCeiling(playAlong: true) == -14)
        #expect(detected.summary.hasPrefix("bluetooth sink"))
        // Older PipeWire names the profile; a port named by node (jack.short-name off) also counts.
        #expect(OutputRouteDetection.detect([Port(name: "bluez_output.00_1B_66_AA_BB_CC.a2dp-sink:playback_FL")]).route == .bluetooth)
        #expect(OutputRouteDetection.detect([Port(name: "Headset:playback_1", aliases: ["bluez_output.00_1B_66_AA_BB_CC.headset-head-unit:playback_1"])]).route == .bluetooth)
    }

    @Test("a sound card, HDMI or jackd's system ports are not Bluetooth: wired; no ports: wired")
    func notBluetooth() {
        let card = [Port(name: "Built-in Audio Analog Stereo:playback_FL",
                         aliases: ["alsa_output.pci-0000_00_1f.3.analog-stereo:playback_FL", "Built-in Audio Analog Stereo:playback_FL"])]
        #expect(OutputRouteDetection.detect(card) == OutputRouteDetection(route: .wired, evidence: "Built-in Audio Analog Stereo:playback_FL"))
        let hdmi = [Port(name: "HDA NVidia Digital Stereo (HDMI):playback_FL", aliases: ["alsa_output.pci-0000_01_00.1.hdmi-stereo:playback_FL"])]
        #expect(OutputRouteDetection.detect(hdmi).route == .wired)
        let jackd = [Port(name: "system:playback_1", aliases: ["alsa_pcm:playback_1"]), Port(name: "system:playback_2")]
        #expect(OutputRouteDetection.detect(jackd).route == .wired)
        #expect(OutputRouteDetection.detect(jackd).summary == "no bluetooth (system:playback_1): wired")
        #expect(OutputRouteDetection.detect([]).evidence == nil && OutputRouteDetection.detect([]).route == .wired)
    }
}

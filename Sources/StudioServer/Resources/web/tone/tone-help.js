// The test tone's help overlay (js/help.js).
import { installHelp } from "/js/help.js";

installHelp({
  title: "Test tone",
  before: document.getElementById("connection"),
  intro: "A sine tone to check the sound path: levels, routing and the meters.",
  how: [
    "Press “1 kHz at −18 dBFS” for the reference tone, or turn the tone on and set its frequency and level.",
    "Or drag one finger on the pad: left to right is pitch, the top is loudest; lifting the finger ends the tone.",
  ],
  sections: [
    { heading: "Controls", items: [
      ["Make it active", "Shown when another instrument plays: makes the test tone the active instrument."],
      ["Tone on / off", "Starts or stops the tone (it ramps, so it never clicks)."],
      ["1 kHz at −18 dBFS", "The reference: 1 kHz at −18 dBFS, the usual alignment level."],
      ["Frequency", "20 Hz … 20 kHz, logarithmic."],
      ["Level (dBFS)", "−60 … −6 dBFS."],
      ["Pad", "One finger: x is pitch, y is level; up, cancel or a hidden page ends it."],
      ["Output", "Peak and RMS meters, waveform and spectrum of what the engine plays."],
    ] },
  ],
});

// Hecate's help overlay (js/help.js): the controls, how to play, and the mapping guide table (the same
// rows the first-run guide shows, built from the server's mapping set when the help opens).
import { installHelp } from "/js/help.js";
import { element } from "/js/ui.js";

function mappingGuide() {
  const tables = ["voicing", "sculpting"].map((group) => {
    const source = document.getElementById(`guide-${group}`);
    const table = source ? source.cloneNode(true) : element("table", { class: "guide" });
    table.removeAttribute("id");
    table.dataset.testid = `help-guide-${group}`;
    return element("div", {}, element("h3", { text: group === "voicing" ? "Voicing" : "Sculpting" }), table);
  });
  return element("div", { testid: "help-mapping-guide" },
    element("h3", { text: "Mapping guide: what your face plays" }),
    element("div", { class: "guide-columns" }, ...tables));
}

installHelp({
  title: "Hecate",
  before: document.getElementById("connection"),
  intro: "Hecate turns a tracked face into chords: the chord bar picks the chord, the face voices and sculpts it.",
  how: [
    "Point a face tracker (an ARKit face app, the camera bridge) at the studio's OSC port; the “Waiting for a face” overlay goes away.",
    "Click a chord on the chord bar (I … vii° in the key). At rest your face plays the root drone.",
    "Open your mouth, raise your brows, puff your cheeks and purse your lips to add the chord's tones (voicing).",
    "Turn, nod and tilt your head and smile to sculpt the sound (sculpting); the table below says what moves what.",
    "Face lost: the sound fades out in 100 ms; back in view it fades in over 450 ms.",
  ],
  sections: [
    { heading: "Header", items: [
      ["METERS", "Shows or hides the face meters, each with its mapping window and what it drives."],
      ["Face status", "Whether a face is tracked now."],
      ["HUD / Immerse", "The HUD, or Immerse: the pack's full-screen visual driven by the sound (Esc leaves it)."],
      ["Guide", "The first-run mapping guide."],
    ] },
    { heading: "Playing", items: [
      ["Chord bar", "The seven chords of the key; the key is shown at its left. Click one to play it."],
      ["Beat", "The arpeggiator's step (eight lights) and the tremolo's pulse."],
      ["− BPM +", "The tempo of the arpeggiator and the tremolo, 20 … 300 BPM."],
      ["ARP", "Arpeggiator on or off: the chord's tones one at a time, at the arpeggiator step."],
      ["Mute", "A ramped mute (no click)."],
    ] },
    { heading: "Sound settings", items: [
      ["Key", "The key of the chord bar."],
      ["Sound pack", "The pack: its timbre, its visual and palette (built-in packs and user pack files)."],
      ["Arpeggiator step", "The arpeggiator's note length."],
      ["Tremolo, period, depth", "The tremolo's shape, its period in beats and how deep it cuts."],
      ["Bass, Drone level", "The bass note's and the root drone's levels."],
      ["Reverb", "How much of the room you hear."],
      ["Output route", "Wired, speaker or Bluetooth: with Play along it sets the limiter ceiling."],
      ["Play along", "Lowers the limiter ceiling from −6 dBFS to −10 (−14 on Bluetooth) to sit under other audio."],
      ["Output", "Peak and RMS meters, waveform and spectrum of what the engine plays."],
    ] },
  ],
  extra: mappingGuide,
});

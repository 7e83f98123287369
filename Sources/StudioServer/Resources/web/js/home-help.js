// Home's help overlay (js/help.js): what each part of Home does and how to start playing.
import { installHelp } from "/js/help.js";

installHelp({
  title: "Home",
  before: document.getElementById("help"),
  intro: "Home picks the instrument the studio plays and shows what the server hears and where its sound goes. "
    + "One instrument plays at a time; every open page (this laptop, a phone) sees and changes the same one.",
  how: [
    "Press Play next to an instrument to make it the active one, then Open to go to its page.",
    "Hecate: send face tracking over OSC to the address under “Connect” and pick chords on the chord bar.",
    "Hands: touch the pad with up to four fingers, or send hand tracking over OSC.",
    "On a phone: start the studio with --host 0.0.0.0 and open the URL (or scan the QR code) it prints.",
  ],
  sections: [
    { heading: "Controls", items: [
      ["Play / Active", "Makes that instrument the one the engine plays; Active marks the one playing now."],
      ["Open", "Opens the instrument's own page (its controls, HUD and pad)."],
      ["Help", "Shows the three-page introduction again."],
      ["?", "This help. The ? key opens it on every screen; Esc closes it."],
    ] },
    { heading: "What Home shows", items: [
      ["Connection", "Green when this page is connected to the server; red while it reconnects (every 500 ms)."],
      ["Audio", "The backend (JACK or none); with JACK its client, ports, rate, period, latency, xruns and DSP load."],
      ["Input sources", "Every OSC sender heard (face or hand trackers, touch apps), what it sends and when it was last heard."],
      ["Connect", "This page's address, the LAN address for a phone (with its token) and the OSC address for senders."],
      ["Output", "The engine's peak and RMS meters, waveform and spectrum, drawn from its snapshots."],
    ] },
  ],
});

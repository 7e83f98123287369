// The hands and touch screen's help overlay (js/help.js): the pad, the dials, the settings and the
// channel modes.
import { installHelp } from "/js/help.js";

installHelp({
  title: "Hands and touch",
  header: document.querySelector("header.hands-bar"),
  before: document.getElementById("connection"),
  intro: "The pad is a fretboard turned on its side: each band between two frets is one note of the chosen key and "
    + "scale, higher on the screen is higher in pitch. Fingers on the pad and hands tracked over OSC play the same "
    + "router, which drives the built-in synth and/or JACK MIDI out.",
  how: [
    "Put a finger on the pad: the band under it sounds; slide up or down to change note, lift to end it.",
    "Play up to four fingers at once (touch0–touch3); a fifth finger is ignored until one lifts.",
    "Press harder (on a screen that reports pressure) for a louder note; move left or right for CC 74. "
      + "Turn the velocity and mod dials as knobs: drag, twist with two fingers, or the arrow keys.",
    "Open Settings to choose the key, scale, note range, channels and where the notes go.",
  ],
  sections: [
    { heading: "Pad and display", items: [
      ["Pad", "Bands are the scale's notes between Lowest and Highest; the circles name them (root in brass)."],
      ["Velocity dial", "A knob: drag it up or down (Shift for fine), twist it with two fingers, or focus it and use the arrow keys. It sets the velocity of a touch that measures no force (most phones' first touch); the brass mark on its rim shows the newest note's velocity."],
      ["Mod dial", "A knob like the velocity dial: the mod wheel, MIDI CC 1 on the hands' channels, and the built-in synth's LFO depth."],
      ["Oscilloscope", "The synth's output, CRT-style."],
      ["Keyboard strip", "The notes that sound, lit; the pad's notes are marked."],
      ["Skeletons", "Hands sent over OSC, drawn in the pad's own space; the green ring is the palm that picks the band."],
    ] },
    { heading: "Header", items: [
      ["Camera", "Opens this device's front camera: your hands play the pad as a hand tracker's do; the view at the top right shows what it sees and its latency (the studio's own camera, with --camera, shows there too)."],
      ["All notes off", "Ends every note at once (the synth's and MIDI out's)."],
      ["Settings", "Opens the drawer with the note settings, the synth panel and the output meters."],
    ] },
    { heading: "Settings", items: [
      ["Key, Scale", "The notes the bands offer."],
      ["Lowest, Highest note", "The MIDI note range the pad spans (0…127)."],
      ["MIDI channel", "The channel for “One channel”; the first channel for “One per hand”."],
      ["Bend inside a zone", "Sliding inside a band bends toward the next note (14-bit pitch bend)."],
      ["Bend range", "The pitch-bend range in semitones the receiver is set to."],
      ["Output", "Built-in synth, JACK MIDI (midi_out) or both."],
      ["Synth", "Waveform, envelope, glide, LFO and the effects (tone, fuzz, delay, reverb, gain) of the built-in synth."],
    ] },
    { heading: "Channel modes", items: [
      ["One channel", "Every finger and hand on one MIDI channel: a plain polyphonic keyboard."],
      ["One per hand", "Each of the four slots (a hand, or a finger on the pad) plays on a channel of its own: the MIDI channel and the three after it, or the four set under Channel per slot; each bends on its own."],
      ["MPE", "MIDI Polyphonic Expression, lower zone: manager channel 1, each finger or hand on its own member channel 2…16, with its own bend."],
    ] },
  ],
});

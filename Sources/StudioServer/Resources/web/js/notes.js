// One note-name table for every page, spelled as the key spells it: a flat key (F, B♭, E♭, A♭, D♭, G♭ and
// their relative minors) names its black keys with flats, every other key with sharps (C major: C♯ D♯ F♯ G♯ A♯).
//
//   import { noteName, pitchName } from "/js/notes.js";
//   noteName(61, "A♭") → "D♭4";  noteName(61, "D") → "C♯4";  pitchName(3, "F") → "E♭"

const SHARPS = ["C", "C♯", "D", "D♯", "E", "F", "F♯", "G", "G♯", "A", "A♯", "B"];
const FLATS = ["C", "D♭", "D", "E♭", "E", "F", "G♭", "G", "A♭", "A", "B♭", "B"];
/** Major and minor keys whose signature has flats (either spelling of the tonic, "m" for minor). */
const FLAT_KEYS = new Set(["F", "B♭", "Bb", "E♭", "Eb", "A♭", "Ab", "D♭", "Db", "G♭", "Gb", "C♭", "Cb",
  "Dm", "Gm", "Cm", "Fm", "B♭m", "Bbm", "E♭m", "Ebm", "A♭m", "Abm"]);

/** True when `key` ("E♭", "Bb", "Dm", "D minor"…) is written with flats. */
export function usesFlats(key = "C") {
  const k = String(key).trim().replace(/\s*minor$/i, "m").replace(/\s*major$/i, "");
  return FLAT_KEYS.has(k);
}

/** The name of pitch class `pc` (0 = C … 11 = B) in `key`. */
export function pitchName(pc, key = "C") {
  return (usesFlats(key) ? FLATS : SHARPS)[((pc % 12) + 12) % 12];
}

/** "C4" for MIDI note 60, spelled for `key`. */
export function noteName(note, key = "C") {
  return `${pitchName(note, key)}${Math.floor(note / 12) - 1}`;
}

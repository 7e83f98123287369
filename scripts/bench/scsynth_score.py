#!/usr/bin/env python3
"""SuperCollider reference patch for scripts/bench/compare, without sclang.

sclang (package supercollider-language) pulls in Qt WebEngine, so the benchmark writes what sclang would
write itself: the SynthDef in the binary "SCgf" version 2 format and the non-real-time score that
`scsynth -N` reads (a sequence of [int32 big-endian length][OSC bundle]). The patch is the reference patch of
dsp-references.md section 3, as sclang would spell it:

    SynthDef(\\poly64, { |freq = 55, gate = 1|
        var sig = RLPF.ar(Saw.ar(freq), 2000, 1/5)
            * EnvGen.ar(Env.adsr(0.01, 0.2, 0.7, 0.5), gate, doneAction: 2);
        Out.ar(0, sig / 64);
    })

    scsynth_score.py score SCORE --seconds S          64 voices, gate off at S-1 s, end at S
    scsynth_score.py verify --scsynth PATH --work DIR  render short scores and check the def really plays
    scsynth_score.py synthdef FILE                     write the .scsyndef alone (for inspection)

`verify` exits non-zero with a message naming what is wrong (scsynth rejected the def, silence, wrong level,
release not where the score puts it, wrong pitch), so a malformed def can never be timed as an empty render.
Standard library only.
"""
import argparse
import array
import math
import os
import struct
import subprocess
import sys

SAMPLE_RATE = 48000
DEF_NAME = "poly64"
FIRST_NODE = 1000

# Calculation rates of the SynthDef format.
SCALAR, CONTROL, AUDIO = 0, 1, 2
# BinaryOpUGen special indices (operator numbers of the server's BinaryOpUGens plugin).
OP_MUL, OP_DIV = 2, 4
# Env shape number for a numeric curvature (the curve value follows it in the envelope array).
SHAPE_CURVE = 5
# Envelope array value meaning "no release/loop node".
NO_NODE = -99


def voice_frequencies(count=64):
    """f_i = 55 * 2^(i/12), i = 0...count-1 (A1 upwards in semitones)."""
    return [55.0 * 2.0 ** (i / 12.0) for i in range(count)]


# --- SynthDef (SCgf version 2) ----------------------------------------------------------------------------

class Graph:
    """A UGen graph in execution order; inputs are ('c', value) constants or (ugen index, output index)."""

    def __init__(self):
        self.constants = []
        self.ugens = []

    def constant(self, value):
        value = float(struct.unpack(">f", struct.pack(">f", value))[0])  # the file stores float32
        if value not in self.constants:  # the format asks for no duplicate constants
            self.constants.append(value)
        return ("c", value)

    def ugen(self, name, rate, inputs, outputs, special=0):
        self.ugens.append((name, rate, special, inputs, outputs))
        index = len(self.ugens) - 1
        return [(index, k) for k in range(len(outputs))]


def env_adsr_array(graph, attack, decay, sustain, release, peak=1.0, curve=-4.0):
    """Env.adsr(...).asArray as EnvGen inputs: initial level, segment count, release node, loop node, then
    level, time, shape number, curvature per segment. Env.adsr holds at node 2 (the sustain level)."""
    levels = [0.0, peak, peak * sustain, 0.0]
    times = [attack, decay, release]
    values = [levels[0], len(times), 2, NO_NODE]
    for level, time in zip(levels[1:], times):
        values += [level, time, SHAPE_CURVE, curve]
    return [graph.constant(v) for v in values]


def reference_graph():
    g = Graph()
    # One Control UGen serves both parameters: output k is parameter (special index + k).
    freq, gate = g.ugen("Control", CONTROL, [], [CONTROL, CONTROL], special=0)
    saw, = g.ugen("Saw", AUDIO, [freq], [AUDIO])
    lowpass, = g.ugen("RLPF", AUDIO, [saw, g.constant(2000.0), g.constant(1.0 / 5.0)], [AUDIO])
    envelope_inputs = [gate, g.constant(1.0), g.constant(0.0), g.constant(1.0), g.constant(2.0)]  # gate,
    # levelScale, levelBias, timeScale, doneAction 2 (free the synth when the release ends)
    envelope_inputs += env_adsr_array(g, 0.01, 0.2, 0.7, 0.5)
    envelope, = g.ugen("EnvGen", AUDIO, envelope_inputs, [AUDIO])
    voice, = g.ugen("BinaryOpUGen", AUDIO, [lowpass, envelope], [AUDIO], special=OP_MUL)
    scaled, = g.ugen("BinaryOpUGen", AUDIO, [voice, g.constant(64.0)], [AUDIO], special=OP_DIV)
    g.ugen("Out", AUDIO, [g.constant(0.0), scaled], [])
    return g


def pstring(text):
    data = text.encode("ascii")
    if len(data) > 255:
        raise ValueError(f"pstring longer than 255 bytes: {text!r}")
    return struct.pack(">B", len(data)) + data


def synthdef_bytes(name=DEF_NAME):
    g = reference_graph()
    parameters = [("freq", 55.0), ("gate", 1.0)]
    out = bytearray(b"SCgf" + struct.pack(">iH", 2, 1))
    out += pstring(name)
    out += struct.pack(">i", len(g.constants)) + b"".join(struct.pack(">f", c) for c in g.constants)
    out += struct.pack(">i", len(parameters)) + b"".join(struct.pack(">f", v) for _, v in parameters)
    out += struct.pack(">i", len(parameters))
    for index, (pname, _) in enumerate(parameters):
        out += pstring(pname) + struct.pack(">i", index)
    out += struct.pack(">i", len(g.ugens))
    for uname, rate, special, inputs, outputs in g.ugens:
        out += pstring(uname) + struct.pack(">biih", rate, len(inputs), len(outputs), special)
        for source in inputs:
            if source[0] == "c":
                out += struct.pack(">ii", -1, g.constants.index(source[1]))
            else:
                out += struct.pack(">ii", *source)
        out += b"".join(struct.pack(">b", r) for r in outputs)
    out += struct.pack(">H", 0)  # no variants
    return bytes(out)


# --- OSC and the NRT score ------------------------------------------------------------------------------

def osc_padded(data):
    return data + b"\0" * (4 - len(data) % 4)  # at least one NUL, then to a multiple of 4


def osc_message(address, *args):
    tags = ","
    payload = b""
    for arg in args:
        if isinstance(arg, bool):
            raise TypeError("no OSC booleans here")
        if isinstance(arg, int):
            tags += "i"
            payload += struct.pack(">i", arg)
        elif isinstance(arg, float):
            tags += "f"
            payload += struct.pack(">f", arg)
        elif isinstance(arg, str):
            tags += "s"
            payload += osc_padded(arg.encode("ascii"))
        elif isinstance(arg, (bytes, bytearray)):
            tags += "b"
            payload += struct.pack(">i", len(arg)) + bytes(arg) + b"\0" * (-len(arg) % 4)
        else:
            raise TypeError(f"no OSC type for {arg!r}")
    return osc_padded(address.encode("ascii")) + osc_padded(tags.encode("ascii")) + payload


def osc_bundle(seconds, messages):
    # NRT time tags are seconds from the start of the score as 32.32 fixed point.
    tag = int(round(seconds * 2 ** 32))
    body = b"#bundle\0" + struct.pack(">Q", tag)
    for m in messages:
        body += struct.pack(">i", len(m)) + m
    return body


def score_bytes(seconds, frequencies, release_at=None):
    if release_at is None:
        release_at = seconds - 1.0
    if not 0 < release_at < seconds:
        raise ValueError(f"the gate must close inside the score: release at {release_at} s of {seconds} s")
    nodes = [FIRST_NODE + i for i in range(len(frequencies))]
    bundles = [
        # The def is sent inside the score so the render depends on nothing but the score file.
        osc_bundle(0.0, [osc_message("/d_recv", synthdef_bytes())]),
        osc_bundle(0.0, [osc_message("/s_new", DEF_NAME, n, 0, 0, "freq", float(f))
                         for n, f in zip(nodes, frequencies)]),
        osc_bundle(release_at, [osc_message("/n_set", n, "gate", 0.0) for n in nodes]),
        # NRT rendering stops at the last bundle's time; this no-op marks the end.
        osc_bundle(float(seconds), [osc_message("/c_set", 0, 0.0)]),
    ]
    return b"".join(struct.pack(">i", len(b)) + b for b in bundles)


# --- verification ---------------------------------------------------------------------------------------

class VerifyError(Exception):
    pass


def read_f32(path):
    samples = array.array("f")
    with open(path, "rb") as f:
        samples.frombytes(f.read())
    if sys.byteorder != "little":
        samples.byteswap()
    return samples


def rms(samples, start, end):
    part = samples[int(start * SAMPLE_RATE):int(end * SAMPLE_RATE)]
    if not part:
        raise VerifyError(f"the render has no samples between {start} s and {end} s")
    return math.sqrt(math.fsum(x * x for x in part) / len(part))


def goertzel_power(samples, frequency):
    k = 2.0 * math.cos(2.0 * math.pi * frequency / SAMPLE_RATE)
    s1 = s2 = 0.0
    n = len(samples)
    for i, x in enumerate(samples):
        w = 0.5 - 0.5 * math.cos(2.0 * math.pi * i / n)  # Hann: no leakage from the strong harmonics
        s1, s2 = x * w + k * s1 - s2, s1
    return s1 * s1 + s2 * s2 - k * s1 * s2


def render(scsynth, work, name, seconds, frequencies, release_at):
    score = os.path.join(work, f"{name}.osc")
    output = os.path.join(work, f"{name}.f32")
    with open(score, "wb") as f:
        f.write(score_bytes(seconds, frequencies, release_at))
    if os.path.exists(output):
        os.remove(output)
    run = subprocess.run([scsynth, "-D", "0", "-N", score, "_", output, str(SAMPLE_RATE), "raw", "float", "-o", "1"],
                         capture_output=True, text=True, timeout=120)
    log = run.stdout + run.stderr
    # scsynth reports a def it cannot read, or a synth it cannot build, and carries on rendering silence.
    for marker in ("ERROR", "FAILURE", "not found", "exception"):
        if marker.lower() in log.lower():
            raise VerifyError(f"scsynth complained while rendering {name}:\n{log.strip()}")
    if run.returncode != 0:
        raise VerifyError(f"scsynth exited with {run.returncode} rendering {name}:\n{log.strip()}")
    if not os.path.exists(output):
        raise VerifyError(f"scsynth wrote no output for {name}:\n{log.strip()}")
    samples = read_f32(output)
    expected = int(seconds * SAMPLE_RATE)
    if abs(len(samples) - expected) > 64:  # NRT renders whole 64-sample blocks
        raise VerifyError(f"{name}: {len(samples)} samples, expected {expected} (±64)")
    if any(not math.isfinite(x) for x in samples):
        raise VerifyError(f"{name}: the render has non-finite samples")
    return samples


def verify(scsynth, work):
    report = []
    # 1. The reference patch, 3 s with the gate closing at 2 s.
    poly = render(scsynth, work, "verify-poly64", 3.0, voice_frequencies(), 2.0)
    peak = max(abs(x) for x in poly)
    if peak < 1e-3:
        raise VerifyError(f"the 64-voice render is silent (peak {peak:.2e}): the SynthDef does not play")
    decay = rms(poly, 0.02, 0.06)      # near the envelope's peak of 1 (10 ms attack)
    sustain = rms(poly, 1.0, 2.0)      # decay ended at 0.21 s; the envelope holds at 0.7
    release = rms(poly, 2.5, 3.0)      # the 500 ms release, curve -4, ended by 2.5 s and freed the synths
    before_gate = rms(poly, 1.9, 2.0)
    after_gate = rms(poly, 2.1, 2.2)   # 100-200 ms into a curve -4 release: well below the sustain
    if not 0.02 < sustain < 0.5:
        raise VerifyError(f"sustain RMS {sustain:.4f} is outside 0.02...0.5 (64 saws / 64 through RLPF)")
    ratio = sustain / decay
    if not 0.55 < ratio < 0.85:
        raise VerifyError(f"sustain/peak RMS ratio {ratio:.3f}, expected about 0.7 (Env.adsr sustain level)")
    if not after_gate < 0.5 * before_gate:
        raise VerifyError(f"the level 100-200 ms after the gate closes ({after_gate:.4f}) is not well below "
                          f"the sustain ({before_gate:.4f}): /n_set gate 0 did not release the envelope")
    if not release < 1e-3 * sustain:
        raise VerifyError(f"RMS {release:.2e} after the release ended; expected silence (doneAction 2)")
    report.append(f"64 voices: peak {peak:.3f}, RMS near peak {decay:.4f}, sustain {sustain:.4f} "
                  f"(ratio {ratio:.3f}, Env.adsr 0.7), 0.1-0.2 s into release {after_gate:.4f}, "
                  f"after release {release:.1e}")
    # 2. One voice at 220 Hz: the strongest partial is the fundamental, and it is exactly where asked.
    tone = render(scsynth, work, "verify-tone", 1.5, [220.0], 1.0)
    window = tone[int(0.25 * SAMPLE_RATE):int(0.75 * SAMPLE_RATE)]
    candidates = [220.0 * 2.0 ** (c / 1200.0) for c in (-50, -25, 0, 25, 50)] + [110.0, 440.0, 660.0]
    powers = {f: goertzel_power(window, f) for f in candidates}
    best = max(powers, key=powers.get)
    if best != 220.0:
        raise VerifyError(f"one voice at 220 Hz peaks at {best:.1f} Hz among {sorted(round(f, 1) for f in powers)}")
    quarter_tone = max(powers[f] for f in candidates[:5] if f != 220.0)
    if powers[220.0] < 10.0 * quarter_tone:
        raise VerifyError("the 220 Hz voice is not sharply in tune (a quarter tone off is within 10 dB)")
    report.append(f"one voice at 220 Hz: strongest of {len(candidates)} probes is 220 Hz, "
                  f"{10 * math.log10(powers[220.0] / quarter_tone):.0f} dB above ±25/50 cents")
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("score", help="write the NRT score of the reference patch")
    p.add_argument("path")
    p.add_argument("--seconds", type=int, required=True)
    p = sub.add_parser("verify", help="render short scores with scsynth and check the output")
    p.add_argument("--scsynth", default="scsynth")
    p.add_argument("--work", required=True)
    p = sub.add_parser("synthdef", help="write the .scsyndef file")
    p.add_argument("path")
    args = parser.parse_args()

    if args.command == "score":
        if args.seconds < 2:
            parser.error("--seconds must be at least 2 (gate off at S-1 s)")
        with open(args.path, "wb") as f:
            f.write(score_bytes(float(args.seconds), voice_frequencies()))
    elif args.command == "synthdef":
        with open(args.path, "wb") as f:
            f.write(synthdef_bytes())
    else:
        try:
            for line in verify(args.scsynth, args.work):
                print(f"scsynth_score: {line}", file=sys.stderr)
        except (VerifyError, subprocess.TimeoutExpired) as error:
            print(f"scsynth_score: verification FAILED: {error}", file=sys.stderr)
            sys.exit(1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the example touch scripts for `prospero game simulate vibe|touch` (examples/games/).

Scripts are Prospero recordings (JSON Lines): a header with the screen's aspect ratio (width / height,
a 9 : 19.5 portrait phone), then touch frames at 60 Hz. The harmony script taps where seed 1's circles
appear, so it is written by the GamesTests suite's `exampleHarmonyScriptHitsItsCircles` test instead.
"""
import json
import math

ASPECT = round(9 / 19.5, 4)


def header(note):
    return json.dumps({"format": "prospero-recording", "version": 1, "created": "2026-11-24T05:00:00Z",
                       "note": note, "aspect": ASPECT}, separators=(",", ":"))


def touch(t, x, y):
    return json.dumps({"t": round(t, 4), "touch": {"slot": 0, "x": round(x, 4), "y": round(y, 4), "p": 1}}, separators=(",", ":"))


def ended(t):
    return json.dumps({"t": round(t, 4), "ended": "touch0"}, separators=(",", ":"))


def vibe():
    lines = [header("Feel Your Vibe: slow swipes on the left, fast on the right, a rest, one more touch")]
    t = 1.0
    # 1 Hz up-and-down swipes near the left edge (shallow tremolo), then 3 Hz near the right (deep).
    for rate, x, length in ((1.0, 0.2, 4.0), (3.0, 0.85, 4.0)):
        start = t
        while t < start + length:
            lines.append(touch(t, x, 0.5 + 0.35 * math.sin(2 * math.pi * rate * (t - start) + 0.1)))
            t += 1 / 60
    lines.append(ended(t))
    # 11 s without touch: the home button shows; a touch hides it.
    lines.append(touch(t + 11.5, 0.5, 0.3))
    lines.append(ended(t + 11.7))
    return lines


def touch_for_music():
    lines = [header("Touch for Music: a slow rise from the bottom, a jump down, a drag up")]
    t = 1.0
    # Hold at the bottom and slide to the top over 4 s: the volume rises from 0.1 to 0.9.
    while t <= 5.0:
        lines.append(touch(t, 0.5 + 0.1 * math.sin(t), 0.9 - 0.8 * (t - 1.0) / 4.0))
        t += 1 / 60
    lines.append(ended(t))
    # Two seconds later, touch low: quiet; drag up to the middle and let go (the volume holds).
    t += 2.0
    start = t
    while t <= start + 2.0:
        lines.append(touch(t, 0.3, 0.8 - 0.3 * (t - start) / 2.0))
        t += 1 / 60
    lines.append(ended(t))
    return lines


for name, lines in (("vibe", vibe()), ("touch", touch_for_music())):
    with open(f"examples/games/{name}.jsonl", "w") as f:
        f.write("\n".join(lines) + "\n")

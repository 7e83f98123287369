#!/usr/bin/env python3
"""Writes examples/face-performance.jsonl: a scripted face performance for Hecate, in Enobarbus's
recording format (JSON Lines, version 1), 30 frames per second.

It walks through both of Hecate's mapping tables in order, so a render of it demonstrates every row:
neutral (root drone) -> jaw opens (5th, then bass) -> brows (3rd) -> cheek puff (7th) ->
pucker (7th + 9th) -> head turns (filter), nods (F2), tilts (resonance) -> smile (shimmer, F2) ->
face lost for 1.5 s (no frames: the tracker's timeout fades out) -> found again -> a last open chord.
Deterministic: the small natural tremble is a fixed sine mix, not random.
"""
import json
import math
import os

FPS = 30
# Keyframes: (time s, {signal: value}). Blendshapes 0..1; head angles in degrees.
# Values hold between keyframes and move with a smoothstep ease.
KEYS = [
    (0.0, {}),
    (2.0, {}),
    (4.0, {"jawOpen": 0.45}),                       # lower half: the 5th
    (5.5, {"jawOpen": 0.45}),
    (7.0, {"jawOpen": 0.95}),                       # upper half: the bass
    (8.5, {"jawOpen": 0.95}),
    (9.5, {"jawOpen": 0.3}),
    (10.5, {"jawOpen": 0.3, "browInnerUp": 0.9}),   # brows: the 3rd
    (12.5, {"jawOpen": 0.3, "browInnerUp": 0.9}),
    (13.5, {"jawOpen": 0.3, "browInnerUp": 0.2, "cheekPuff": 0.85}),  # cheeks: the 7th
    (15.5, {"jawOpen": 0.3, "browInnerUp": 0.2, "cheekPuff": 0.85}),
    (16.5, {"jawOpen": 0.2, "mouthPucker": 0.9}),   # pucker: 7th + 9th
    (18.5, {"jawOpen": 0.2, "mouthPucker": 0.9}),
    (19.5, {"jawOpen": 0.35, "browInnerUp": 0.6, "yaw": 22}),   # turn: filter opens
    (20.5, {"jawOpen": 0.35, "browInnerUp": 0.6, "yaw": -22}),
    (21.5, {"jawOpen": 0.35, "browInnerUp": 0.6, "yaw": 0}),
    (22.5, {"jawOpen": 0.35, "browInnerUp": 0.6, "pitch": 12}),  # nod: F2 moves
    (23.5, {"jawOpen": 0.35, "browInnerUp": 0.6, "pitch": -10}),
    (24.5, {"jawOpen": 0.35, "browInnerUp": 0.6, "pitch": 0}),
    (25.5, {"jawOpen": 0.35, "browInnerUp": 0.6, "roll": 10}),    # tilt: resonance
    (26.5, {"jawOpen": 0.35, "browInnerUp": 0.6, "roll": -10}),
    (27.5, {"jawOpen": 0.35, "browInnerUp": 0.6, "roll": 0}),
    (29.0, {"jawOpen": 0.35, "browInnerUp": 0.6, "mouthSmileLeft": 0.9, "mouthSmileRight": 0.85}),  # smile: shimmer
    (30.5, {"jawOpen": 0.35, "browInnerUp": 0.6, "mouthSmileLeft": 0.9, "mouthSmileRight": 0.85}),
]
LOST = (31.0, 32.5)  # no frames: the face is lost, then found
AFTER = [
    (32.5, {"jawOpen": 0.4, "browInnerUp": 0.7}),
    (34.0, {"jawOpen": 0.45, "browInnerUp": 0.8, "mouthPucker": 0.6, "mouthSmileLeft": 0.4, "mouthSmileRight": 0.4}),
    (37.0, {"jawOpen": 0.45, "browInnerUp": 0.8, "mouthPucker": 0.6, "mouthSmileLeft": 0.4, "mouthSmileRight": 0.4}),
    (38.5, {}),
    (40.0, {}),
]
NAMES = ["jawOpen", "browInnerUp", "cheekPuff", "mouthPucker", "mouthSmileLeft", "mouthSmileRight"]


def value(keys, t, name):
    for (t0, a), (t1, b) in zip(keys, keys[1:]):
        if t0 <= t <= t1:
            x = (t - t0) / (t1 - t0) if t1 > t0 else 1
            x = x * x * (3 - 2 * x)
            return a.get(name, 0) + (b.get(name, 0) - a.get(name, 0)) * x
    return keys[-1][1].get(name, 0)


def frame(keys, t):
    blend = {}
    for name in NAMES:
        v = value(keys, t, name)
        if v > 0:
            v += 0.01 * math.sin(2 * math.pi * 0.7 * t + len(name))  # a living face trembles a little
            blend[name] = round(min(max(v, 0), 1), 4)
    tremble = 0.3 * math.sin(2 * math.pi * 0.31 * t)
    head = [round(value(keys, t, k) + tremble, 3) for k in ("yaw", "pitch", "roll")]
    face = {"blend": {k: v for k, v in blend.items() if v > 0}, "head": head}
    return {"t": round(t, 4), "face": face}


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.path.join(root, "examples", "face-performance.jsonl")
    header = {"format": "prospero-recording", "version": 1, "created": "2026-11-22T00:00:00Z",
              "note": "Hecate demo: every row of the voicing and sculpting tables, then face lost and found "
                      "(scripts/make-face-performance.py)"}
    lines = [json.dumps(header, separators=(",", ":"))]
    n = 0
    while True:
        t = n / FPS
        n += 1
        if t > AFTER[-1][0]:
            break
        if LOST[0] <= t < LOST[1]:
            continue
        keys = KEYS if t < LOST[0] else AFTER
        lines.append(json.dumps(frame(keys, t), separators=(",", ":")))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {path}: {len(lines) - 1} frames")


if __name__ == "__main__":
    main()

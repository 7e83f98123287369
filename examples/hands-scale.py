#!/usr/bin/env python3
"""Writes hands-scale.jsonl: a scripted Enobarbus recording for `prospero hands --input`.

Hand 0 (right) climbs C major pentatonic 48…72 zone by zone (11 zones, held 0.25 s each at
20 frames/s) with all five fingers out, then comes down with a fist; touch 1 taps twice near the
bottom; then the hand leaves (`ended`). Landmarks are laid out so the palm centre (mean of wrist
and the four MCPs) is exactly the scripted position and the palm size is 0.075.
"""
import json

def hand_landmarks(cx, cy, open_fingers):
    lm = [None] * 21
    lm[0] = (cx, cy + 0.06)                      # wrist
    xs = {1: -0.045, 2: -0.015, 3: 0.015, 4: 0.045}  # index … pinky MCP x offsets
    for f, dx in xs.items():
        mcp = 1 + 4 * f
        lm[mcp] = (cx + dx, cy - 0.015)
        lm[mcp + 1] = (cx + dx, cy - 0.045)      # PIP
        lm[mcp + 2] = (cx + dx, cy - 0.06 if open_fingers else cy - 0.03)
        lm[mcp + 3] = (cx + dx, cy - 0.085 if open_fingers else cy - 0.02)  # tip
    lm[1] = (cx - 0.03, cy + 0.04)               # thumb CMC, MCP, IP, tip
    lm[2] = (cx - 0.05, cy + 0.02)
    lm[3] = (cx - 0.07, cy)
    lm[4] = (cx - 0.11, cy - 0.01) if open_fingers else (cx - 0.03, cy)
    flat = []
    for x, y in lm:
        flat += [round(x, 4), round(y, 4), 0.0]
    return flat

lines = [json.dumps({"format": "prospero-recording", "version": 1, "created": "2026-11-22T03:40:00Z",
                     "note": "scripted: hand 0 climbs and descends C major pentatonic, touch 1 taps"})]
t = 0.0
dt = 0.05
zones = 11
path = [(k, True) for k in range(zones)] + [(k, False) for k in range(zones - 2, -1, -1)]
for zone, open_fingers in path:
    height = (zone + 0.5) / zones
    for _ in range(5):
        lines.append(json.dumps({"t": round(t, 3), "hand": {"slot": 0, "side": "right", "conf": 0.98,
                                 "lm": hand_landmarks(0.4, round(1 - height, 4), open_fingers)}}))
        t += dt
for y in [0.9, 0.7]:
    for k in range(4):
        lines.append(json.dumps({"t": round(t, 3), "touch": {"slot": 1, "x": 0.8, "y": y, "p": 0.6}}))
        t += dt
    lines.append(json.dumps({"t": round(t, 3), "ended": "touch1"}))
    t += dt
lines.append(json.dumps({"t": round(t, 3), "ended": "hand0"}))
open(__file__.replace(".py", ".jsonl"), "w").write("\n".join(lines) + "\n")
